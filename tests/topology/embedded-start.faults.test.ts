// A first start that fails says why, from PostgreSQL's own log, and what to do: the port taken,
// the data folder locked by another server. Real clusters, real ports.
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgresError, makeClusterDir, startEmbeddedPostgres } from '@rr/platform';
import { freePort } from '../support/ports.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function clusterDir(): Promise<string> {
  const dir = await makeClusterDir('rr-embedded-start-');
  dirs.push(dir);
  return path.join(dir, 'data');
}

/** The error a start throws (it must throw). */
async function failureOf(start: Promise<unknown>): Promise<EmbeddedPostgresError> {
  const err = await start.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EmbeddedPostgresError);
  return err as EmbeddedPostgresError;
}

describe('the embedded PostgreSQL names why it did not start', () => {
  it('a port another program listens on: names the port and EMBEDDED_PG_PORT, after one retry', async () => {
    const port = await freePort();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const logged: string[] = [];
    try {
      const err = await failureOf(
        startEmbeddedPostgres({ dataDir: await clusterDir(), port, onLog: (m) => logged.push(m) }),
      );
      expect(err.message).toContain(`could not use port ${port}`);
      expect(err.message).toContain('EMBEDDED_PG_PORT');
      expect(err.log).toMatch(/could not (bind|create any TCP)/);
      // The one retry of a cause that may pass by itself.
      expect(logged.filter((m) => m.includes('trying once more'))).toHaveLength(1);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('a data folder another PostgreSQL runs on: names its lock file and the folder', async () => {
    const dataDir = await clusterDir();
    const running = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    try {
      const err = await failureOf(startEmbeddedPostgres({ dataDir, port: await freePort() }));
      expect(err.message).toContain('lock file');
      expect(err.message).toContain(dataDir);
      expect(err.message).not.toMatch(/undefined/);
    } finally {
      await running.stop();
    }
  });
});
