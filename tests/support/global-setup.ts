import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeClusterDir, startEmbeddedPostgres, type EmbeddedCluster } from '@rr/platform';
import { freePort } from './ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

let cluster: EmbeddedCluster | null = null;
let dir: string | null = null;

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set, otherwise an embedded cluster under the
 * system temp dir (reachable by the postgres user even when the checkout is in a root-only folder).
 * Every test file creates its own database in it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) {
    project.provide('pgAdminUrl', process.env.DATABASE_URL);
    return () => Promise.resolve();
  }
  dir = await makeClusterDir('rr-test-pg-');
  // A port found free can be taken by another run's process before PostgreSQL binds it: then
  // the same cluster starts on another free port.
  for (let attempt = 1; ; attempt++) {
    try {
      cluster = await startEmbeddedPostgres({
        dataDir: path.join(dir, 'data'),
        port: await freePort(),
      });
      break;
    } catch (err) {
      const portTaken = err instanceof Error && err.message.includes('could not use port');
      if (!portTaken || attempt === 3) throw err;
    }
  }
  project.provide('pgAdminUrl', cluster.url);
  return async () => {
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}
