import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecentLog, removeOrphanStages, startFailure } from './embedded-postgres.ts';

let tmp: string;
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('staged embedded-postgres packages', () => {
  it('removes a stage whose checkout is gone and keeps live and unfinished ones', async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'rr-stage-test-'));
    const checkout = path.join(tmp, 'checkout-pg');
    await mkdir(checkout);
    const stage = async (name: string, target: string | null) => {
      await mkdir(path.join(tmp, name, 'node_modules'), { recursive: true });
      if (target) await symlink(target, path.join(tmp, name, 'node_modules', 'pg'));
    };
    await stage('rr-embedded-postgres-17-live', checkout);
    await stage('rr-embedded-postgres-17-gone', path.join(tmp, 'deleted-checkout', 'pg'));
    await stage('rr-embedded-postgres-17-unfinished', null);
    await stage('something-else', path.join(tmp, 'deleted-checkout', 'pg'));

    await removeOrphanStages(tmp);

    expect((await readdir(tmp)).sort()).toEqual([
      'checkout-pg',
      'rr-embedded-postgres-17-live',
      'rr-embedded-postgres-17-unfinished',
      'something-else',
    ]);
  });
});

const where = { dataDir: '/srv/rr/pg', port: 54329 };
const failureOf = (lines: string, err: unknown = undefined) => {
  const log = new RecentLog();
  log.add(lines);
  return startFailure(err, log, where);
};

describe('the cause of a failed embedded PostgreSQL start, from its log', () => {
  it('names a taken port and what to do (may pass: retried)', () => {
    const f = failureOf(
      'LOG:  could not bind IPv4 address "127.0.0.1": Address already in use\nFATAL:  could not create any TCP/IP sockets',
    );
    expect(f.message).toContain('could not use port 54329');
    expect(f.message).toContain('EMBEDDED_PG_PORT');
    expect(f.transient).toBe(true);
  });

  it('names a data folder it cannot write (does not pass by itself: not retried)', () => {
    const f = failureOf(
      'FATAL:  could not open file "postmaster.pid": Permission denied\nLOG:  database system is shut down',
    );
    expect(f.message).toContain('cannot write its data folder /srv/rr/pg');
    expect(f.message).toContain('DATA_DIR');
    expect(f.transient).toBe(false);
  });

  it('names a lock file of another server', () => {
    const f = failureOf(
      'FATAL:  lock file "postmaster.pid" already exists\nHINT:  Is another postmaster (PID 4711) running in data directory "/srv/rr/pg"?',
    );
    expect(f.message).toContain('lock file');
    expect(f.message).toContain('/srv/rr/pg');
  });

  it('an early exit without a known cause: its last FATAL line and log lines, never "undefined"', () => {
    const f = failureOf('LOG:  starting PostgreSQL\nFATAL:  something else went wrong');
    expect(f.message).toContain('exited before it was ready: something else went wrong');
    expect(f.message).not.toContain('undefined');
    expect(failureOf('').message).toContain('(none)');
  });

  it("keeps initdb's own error text", () => {
    const log = new RecentLog();
    const f = startFailure(
      new Error(
        'Postgres init script failed (code: 1). ERROR OUTPUT: initdb: error: could not create directory "/srv/rr/pg": Permission denied',
      ),
      log,
      where,
      'initdb',
    );
    expect(f.message).toContain('cannot write its data folder');
  });
});
