// The tests' comparison of the read models with a rebuild from the log (tests/support/read-models.ts),
// which many tests rely on: it must compare only once every event in the log is applied, also when
// the store's gap-safe reads hold the newest ones back behind a transaction still running elsewhere
// in the cluster (on a busy run, another test file's).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom } from '../support/fixtures.ts';
import { compareWithRebuild } from '../support/read-models.ts';
import { budget } from '../support/time-budget.ts';
import { sleep } from '../support/wait-for.ts';

let suite: AdminSuite;

beforeAll(async () => {
  suite = await openAdminSuite();
});

afterAll(async () => {
  await suite.close();
});

describe('the read models beside a rebuild', () => {
  it('holds the comparison until a transaction of another database that began before the last event ends', async () => {
    // Another database of the same PostgreSQL, a transaction with an id of its own left open.
    const other = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()');
      const roomId = await createRoom(suite.admin, 'Room behind an open transaction');
      const comparing = compareWithRebuild(suite.db.pool, budget(20_000));
      let compared = false;
      void comparing.then(() => (compared = true)).catch(() => undefined);
      // While it runs, the room's event is held back from every gap-safe read: no comparison yet.
      await sleep(1_000);
      expect(compared).toBe(false);
      await other.query('COMMIT');
      const { live, rebuilt } = await comparing;
      expect(rebuilt).toEqual(live);
      const rooms = live.rm_rooms;
      if (!rooms) throw new Error('the dump has no rm_rooms');
      expect(rooms.map((row) => (JSON.parse(row) as { id: string }).id)).toContain(roomId);
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      await other.end();
    }
  });
});
