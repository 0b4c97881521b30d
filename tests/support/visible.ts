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
 * How long a test holds a transaction open while it waits for a read past it (a transaction
 * marked as appending no events) before it lets go and tries again. The cluster's other test
 * files hold transactions open too, some until a gap-safe read of their own has passed ours:
 * waiting for each other, neither would move until one gave up, so ours gives up first.
 */
export const READ_PAST_ATTEMPT_MS = 1000;

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

/** The ids of every event committed after `from`, from the table, in commit order. */
export async function committedAfter(
  pool: Pick<pg.Pool, 'query'>,
  from: Position,
): Promise<string[]> {
  const r = await pool.query<{ event_id: string }>(
    `SELECT event_id FROM events
      WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
      ORDER BY transaction_id, global_position`,
    [from.tx.toString(), from.gp.toString()],
  );
  return r.rows.map((row) => row.event_id);
}
