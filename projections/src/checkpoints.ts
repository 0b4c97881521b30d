/**
 * Projection checkpoints (table `projection_checkpoints`): where each projection stands in the
 * log, and the one transaction that applies a batch and moves the checkpoints compare-and-set.
 */
import {
  comparePositions,
  START,
  type Position,
  type Projection,
  type RecordedEvent,
} from '@rr/events';
import type { Pool, PoolClient } from '@rr/platform';
import { applyEvents } from './projection.ts';

/** A checkpoint moved since it was loaded (a replay or a rebuild): the batch is rolled back. */
export class CheckpointMovedError extends Error {
  override name = 'CheckpointMovedError';
}

export async function ensureCheckpoint(pool: Pick<Pool, 'query'>, name: string): Promise<void> {
  await pool.query(
    'INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING',
    [name],
  );
}

/** Sets a checkpoint where a rebuild left it (the rebuild holds its row locked). */
export async function setCheckpoint(
  client: Pick<Pool, 'query'>,
  name: string,
  at: Position,
): Promise<void> {
  await client.query(
    'UPDATE projection_checkpoints SET last_tx = $2::text::xid8, last_gp = $3, updated_at = now() WHERE name = $1',
    [name, at.tx.toString(), at.gp.toString()],
  );
}

export async function readCheckpoint(pool: Pick<Pool, 'query'>, name: string): Promise<Position> {
  const r = await pool.query<{ tx: string; gp: string }>(
    'SELECT last_tx::text AS tx, last_gp::text AS gp FROM projection_checkpoints WHERE name = $1',
    [name],
  );
  const row = r.rows[0];
  return row ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : START;
}

/**
 * Applies one batch to one projection: the read-model changes and the checkpoint move commit
 * together, and the checkpoint moves compare-and-set from the batch's start, so a replay never
 * double-applies (a group of one, see applyGroupBatch).
 */
export function applyBatch(
  client: PoolClient,
  projection: Projection,
  from: Position,
  events: RecordedEvent[],
): Promise<void> {
  return applyGroupBatch(client, [projection], new Map([[projection.name, from]]), events);
}

/**
 * Applies one batch to a group of projections in one transaction: each projection gets the events
 * after its own checkpoint, and every checkpoint that was behind moves to the batch end. The
 * checkpoints move compare-and-set from the positions the caller loaded (`from`), in one UPDATE
 * after the changes: when any of them moved meanwhile (a replay, a rebuild), CheckpointMovedError
 * rolls the whole batch back, so nothing is ever applied twice.
 */
export async function applyGroupBatch(
  client: PoolClient,
  group: Projection[],
  from: Map<string, Position>,
  events: RecordedEvent[],
): Promise<void> {
  for (const p of group) {
    const after = from.get(p.name);
    if (!after) throw new CheckpointMovedError(`no checkpoint of ${p.name} loaded`);
    const mine = events.filter((e) => comparePositions(e.position, after) > 0);
    if (mine.length) await applyEvents(client, p, mine);
  }
  const last = events[events.length - 1]!.position;
  const r = await client.query<{ name: string }>({
    name: 'rr_move_checkpoints',
    text: `UPDATE projection_checkpoints c
              SET last_tx = CASE WHEN (c.last_tx, c.last_gp) < ($2::text::xid8, $3::bigint)
                                 THEN $2::text::xid8 ELSE c.last_tx END,
                  last_gp = CASE WHEN (c.last_tx, c.last_gp) < ($2::text::xid8, $3::bigint)
                                 THEN $3::bigint ELSE c.last_gp END,
                  updated_at = now()
             FROM unnest($1::text[], $4::text[], $5::bigint[]) AS e(name, tx, gp)
            WHERE c.name = e.name AND c.last_tx = e.tx::xid8 AND c.last_gp = e.gp
           RETURNING c.name`,
    values: [
      group.map((p) => p.name),
      last.tx.toString(),
      last.gp.toString(),
      group.map((p) => from.get(p.name)!.tx.toString()),
      group.map((p) => from.get(p.name)!.gp.toString()),
    ],
  });
  if (r.rows.length !== group.length) {
    const moved = group.filter((p) => !r.rows.some((row) => row.name === p.name));
    throw new CheckpointMovedError(`checkpoint of ${moved.map((p) => p.name).join(', ')} moved`);
  }
}
