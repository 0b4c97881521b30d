import { START, type EventStore, type Position, type RecordedEvent } from '@rr/events';
import type pg from 'pg';

/**
 * Reads the log after `after`, page by page, until at least `n` events have been read. The
 * gap-safe read (readAll) holds back events while any older transaction in the cluster is open,
 * and the cluster is shared with the other test files running meanwhile, so committed events may
 * take a moment to show up there. Gives up after `timeoutMs` and answers what it read.
 */
export async function readVisible(
  store: EventStore,
  n: number,
  after: Position = START,
  page = 1000,
  timeoutMs = 20_000,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  const all: RecordedEvent[] = [];
  let from = after;
  while (all.length < n && Date.now() <= deadline) {
    const batch = await store.readAll(from, page);
    if (batch.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    all.push(...batch);
    from = batch[batch.length - 1]!.position;
  }
  return all;
}

/**
 * The position of the newest committed event (START: none), from the table: the gap-safe read
 * would answer an older one while another test file's transaction is open.
 */
export async function endOfLog(pool: Pick<pg.Pool, 'query'>): Promise<Position> {
  const r = await pool.query<{ tx: string; gp: string }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp FROM events
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  const row = r.rows[0];
  return row ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : START;
}
