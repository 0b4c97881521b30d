import type pg from 'pg';
import { EventStore, START, validateEvent } from '@rr/events';
import {
  applyEvents,
  readCheckpoint,
  readModelProjections,
  REBUILD_BATCH_SIZE,
} from '@rr/projections';
import { waitFor } from './booking-load.ts';

type Dump = Record<string, string[]>;

export interface RebuildComparison {
  live: Dump;
  rebuilt: Dump;
  events: number;
}

/**
 * The read models of a database beside a rebuild from its log, in one REPEATABLE READ
 * transaction: the live tables (once every checkpoint is at the head of the log, every event the
 * snapshot sees applied, none held back behind a running transaction), then the same
 * tables emptied and rebuilt from the log, then a rollback, so the live tables and any running
 * projector are left alone. Retried while a projector batch lands between the probe and the
 * dump; answers the last comparison (assert `rebuilt` equals `live`).
 */
export async function compareWithRebuild(pool: pg.Pool, ms: number): Promise<RebuildComparison> {
  const store = new EventStore(pool, { validate: validateEvent });
  const tables = readModelProjections.flatMap((p) => p.tables);
  const compare = async (): Promise<RebuildComparison | false> => {
    const client = await pool.connect();
    // Each table's rows as JSON, sorted (the tables' physical order differs after a rebuild).
    const dump = async (): Promise<Dump> => {
      const out: Dump = {};
      for (const table of tables) {
        const r = await client.query(`SELECT * FROM ${table}`);
        out[table] = r.rows.map((row) => JSON.stringify(row)).sort();
      }
      return out;
    };
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await client.query(`SET LOCAL lock_timeout = '5s'`);
      // At the head means nothing after the checkpoint, not even events held back: the store's
      // reads are gap-safe, so an event whose transaction is at or above the oldest one still
      // running anywhere in the cluster (another database's too) is left out of this snapshot's
      // reads, by the projectors and by the rebuild below alike; both would lack it, and agree.
      for (const p of readModelProjections) {
        const after = await store.readAfter(await readCheckpoint(client, p.name), 1, client);
        if (after.events.length || after.heldBack) return false;
      }
      const live = await dump();
      await client.query(`TRUNCATE ${tables.join(', ')}`);
      let from = START;
      let events = 0;
      for (;;) {
        const batch = await store.readAll(from, REBUILD_BATCH_SIZE, client);
        if (batch.length === 0) break;
        for (const p of readModelProjections) await applyEvents(client, p, batch);
        from = batch[batch.length - 1]!.position;
        events += batch.length;
      }
      return { live, rebuilt: await dump(), events };
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  };
  let last: RebuildComparison | undefined;
  await waitFor('the read models equal to a rebuild', ms, async () => {
    const r = await compare();
    if (r === false) return false;
    last = r;
    return JSON.stringify(r.live) === JSON.stringify(r.rebuilt) ? true : false;
  }).catch(() => undefined);
  if (!last) throw new Error('the read models never caught up with the log');
  return last;
}
