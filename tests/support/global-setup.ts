import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  createPool,
  databaseUrl,
  makeClusterDir,
  migrate,
  startEmbeddedPostgres,
  type EmbeddedCluster,
} from '@rr/platform';
import { SCHEMA_MIGRATION_DIRS } from '@rr/server/schema';
import { runAsAdmin } from './pg-admin.ts';
import { freePort } from './ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** The migrated database every test file's own database is a copy of. */
    pgTemplate: string;
  }
}

let cluster: EmbeddedCluster | null = null;
let dir: string | null = null;

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set, otherwise an embedded cluster under the
 * system temp dir (reachable by the postgres user even when the checkout is in a root-only folder).
 * Every test file creates its own database in it, a copy of one migrated here: copying takes
 * about a tenth of the time of running every migration again for each file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.DATABASE_URL ?? (await startCluster());
  project.provide('pgAdminUrl', adminUrl);
  const stopCluster = async () => {
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  let template: string;
  try {
    template = await createTemplate(adminUrl);
  } catch (err) {
    // A run that cannot start leaves no PostgreSQL behind.
    await stopCluster();
    throw err;
  }
  project.provide('pgTemplate', template);
  return async () => {
    await runAsAdmin(adminUrl, `DROP DATABASE IF EXISTS ${template}`);
    await stopCluster();
  };
}

/**
 * The run's cluster lives as long as the run and is removed after it: what it writes need not
 * outlive a crash of the machine, only of its processes. Without fsync a commit still writes its
 * WAL to the operating system before it returns (a PostgreSQL killed with SIGKILL loses no
 * committed transaction), but no test waits for the disk.
 */
const TEST_RUN_SETTINGS = { fsync: 'off', full_page_writes: 'off' };

async function startCluster(): Promise<string> {
  dir = await makeClusterDir('rr-test-pg-');
  // A port found free can be taken by another run's process before PostgreSQL binds it: then
  // the same cluster starts on another free port.
  for (let attempt = 1; ; attempt++) {
    try {
      cluster = await startEmbeddedPostgres({
        dataDir: path.join(dir, 'data'),
        port: await freePort(),
        settings: TEST_RUN_SETTINGS,
      });
      return cluster.url;
    } catch (err) {
      const portTaken = err instanceof Error && err.message.includes('could not use port');
      if (!portTaken || attempt === 3) throw err;
    }
  }
}

/** A migrated database, with no connection left open (a template must have none to be copied). */
async function createTemplate(adminUrl: string): Promise<string> {
  const name = `rr_test_template_${randomBytes(6).toString('hex')}`;
  await runAsAdmin(adminUrl, `CREATE DATABASE ${name}`);
  const pool = createPool(databaseUrl(adminUrl, name), 2);
  try {
    await migrate(pool, SCHEMA_MIGRATION_DIRS);
  } finally {
    await pool.end();
  }
  return name;
}
