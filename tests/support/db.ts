import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { EventStore, validateEvent } from '@rr/events';
import {
  createPool,
  databaseUrl,
  systemClock,
  type Clock,
  type Pool,
  type PoolClient,
} from '@rr/platform';
import { runAsAdmin } from './pg-admin.ts';

export interface TestDatabase {
  url: string;
  pool: Pool;
  store: EventStore;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own for one test file (a copy of the run's migrated template,
 * see global-setup.ts). Its store records events at the given clock's time: a test that fixes its
 * clock passes it, so every time in the test has one source.
 */
export async function createTestDatabase(clock: Clock = systemClock): Promise<TestDatabase> {
  // A copy of the template's files (two checkpoints, cheap without fsync) takes about a third of
  // the time of PostgreSQL 15's default, which writes every page of the copy to the WAL.
  const db = await newDatabase(`TEMPLATE ${inject('pgTemplate')} STRATEGY FILE_COPY`);
  return { ...db, store: new EventStore(db.pool, { validate: validateEvent, clock }) };
}

/** A new database of its own, not migrated (the migration tests migrate it themselves). */
export function createEmptyDatabase(): Promise<Omit<TestDatabase, 'store'>> {
  return newDatabase('');
}

async function newDatabase(options: string): Promise<Omit<TestDatabase, 'store'>> {
  const adminUrl = inject('pgAdminUrl');
  const name = `rr_test_${randomBytes(6).toString('hex')}`;
  await runAsAdmin(adminUrl, `CREATE DATABASE ${name} ${options}`);
  const url = databaseUrl(adminUrl, name);
  const pool = createPool(url, 20);
  return {
    url,
    pool,
    drop: async () => {
      await pool.end();
      await runAsAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** How often the connection ran its prepared statement `name` on a kept (generic) plan. */
export async function keptPlans(client: PoolClient, name: string): Promise<number> {
  const r = await client.query<{ generic_plans: string }>(
    'SELECT generic_plans FROM pg_prepared_statements WHERE name = $1',
    [name],
  );
  return Number(r.rows[0]?.generic_plans ?? 0);
}
