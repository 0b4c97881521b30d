import { spawnSync } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClusterDir } from '@rr/platform';
import { Client } from '../support/app.ts';
import { BookingLoad, createLoadRoom, waitFor, type Outcome } from '../support/booking-load.ts';
import { fakeTimeEnv } from '../support/fake-time.ts';
import { freePort } from '../support/ports.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import { compareWithRebuild } from '../support/read-models.ts';
import { budget } from '../support/time-budget.ts';

/**
 * Backups of the embedded default: the server's own backup job and `npm run backup` write
 * pg_dump archives into DATA_DIR/backups while the product serves, keeping BACKUP_KEEP of them;
 * `npm run restore -- FILE` refuses a data folder that is not empty and restores into an empty
 * one; the product started on the restored folder has every booking it had, its read models
 * equal a rebuild from the log, and the erasure job's next round deletes the personal data whose
 * erasure day has passed meanwhile (the server started on the restored folder ten days later,
 * under faketime).
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const ADMIN_PASSWORD = 'backup-admin-password';
const dirs: string[] = [];
const procs: ServiceProcess[] = [];

async function dataFolder(): Promise<{ dir: string; port: number; env: Record<string, string> }> {
  const dir = await makeClusterDir('rr-backup-');
  dirs.push(dir);
  const port = await freePort();
  return {
    dir,
    port,
    env: {
      DATABASE_URL: '',
      DATA_DIR: dir,
      EMBEDDED_PG_PORT: String(port),
      SEED_DEMO_DATA: 'false',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
      BACKUP_INTERVAL_HOURS: '24',
      BACKUP_KEEP: '2',
      RATE_LIMIT_CARTS: '100000',
      RATE_LIMIT_OWNER_LOOKUPS: '100000',
    },
  };
}

/** `npm run backup` / `npm run restore -- FILE` as an operator types them. */
function npmRun(script: string, env: Record<string, string>, ...args: string[]) {
  const r = spawnSync('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const archives = async (dir: string) =>
  (await readdir(path.join(dir, 'backups'))).filter((f) => f.endsWith('.dump')).sort();

/** What the restore must keep: the bookings (tickets per owner) and the log. */
async function state(url: string) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const count = async (sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]!.n);
    return {
      events: await count('SELECT count(*) AS n FROM events'),
      bookings: (
        await db.query<{ owner: string }>(
          `SELECT data->>'ownerId' AS owner FROM events WHERE event_type = 'TransactionBooked' ORDER BY 1`,
        )
      ).rows.map((r) => r.owner),
      personalData: await count('SELECT count(*) AS n FROM personal_data'),
      tickets: (
        await db.query('SELECT id, owner_id, time_slot_id, status FROM rm_tickets ORDER BY id')
      ).rows as unknown[],
    };
  } finally {
    await db.end();
  }
}

const urlOf = (port: number) => `postgres://postgres:embedded@127.0.0.1:${port}/reading_rooms`;

let first: Awaited<ReturnType<typeof dataFolder>>;
let server: ServiceProcess;
const acknowledged = new Set<string>();

beforeAll(async () => {
  first = await dataFolder();
  server = await spawnService('all', first.env);
  procs.push(server);
});

afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill('SIGKILL')));
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('backup and restore of the embedded database', () => {
  let before: Awaited<ReturnType<typeof state>>;
  let newest: string;

  it('the server takes a backup by itself and `npm run backup` takes more while it serves, keeping BACKUP_KEEP', async () => {
    // BACKUP_INTERVAL_HOURS: the job's first round finds no archive and takes one.
    await waitFor('the server’s own backup', budget(30_000), async () =>
      (await archives(first.dir).catch(() => [])).length === 1 ? true : false,
    );
    const [own] = await archives(first.dir);

    const admin = new Client(server.url);
    expect((await admin.login('admin', ADMIN_PASSWORD)).status).toBe(200);
    const { slots } = await createLoadRoom(admin, 'Backup room', 2);
    const load = new BookingLoad(() => server.url);
    const log: Outcome[] = [];
    for (let i = 0; i < 12; i++) {
      const o = await load.bookOnce(slots[i % 2]!, `backup-${i}`, log);
      expect(o.status).toBe(200);
    }
    for (const o of load.acknowledgedOwners) acknowledged.add(o);

    const taken: string[] = [];
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      const r = npmRun('backup', first.env);
      expect(r.status, r.out).toBe(0);
      expect(r.out).toMatch(/^backup .*rr-\d{8}T\d+Z\.dump: \d+ bytes in \d+ ms$/m);
      taken.push(r.out);
      console.log(`npm run backup: ${Math.round(performance.now() - started)} ms, ${r.out.trim()}`);
    }
    const kept = await archives(first.dir);
    // Three taken, two kept: the oldest (the server's own) went.
    expect(kept).toHaveLength(2);
    expect(kept).not.toContain(own);
    newest = path.join(first.dir, 'backups', kept[1]!);
    before = await state(urlOf(first.port));
    expect(before.bookings).toHaveLength(12);
    expect(before.personalData).toBe(12);
    expect(new Set(before.bookings)).toEqual(acknowledged);
  });

  it('`npm run restore` refuses a data folder that is not empty', async () => {
    await server.kill('SIGTERM');
    const r = npmRun('restore', first.env, newest);
    expect(r.status).not.toBe(0);
    expect(r.out).toContain(`the data folder ${path.join(first.dir, 'pg')} is not empty`);
    expect(r.out).toContain('Restore only into an empty data folder');
  });

  let second: Awaited<ReturnType<typeof dataFolder>>;
  it('restores into an empty data folder: every booking is back and the read models equal a rebuild', async () => {
    second = await dataFolder();
    const started = performance.now();
    const r = npmRun('restore', second.env, newest);
    const ms = Math.round(performance.now() - started);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain(`12 bookings`);
    const restored = await spawnService('all', second.env);
    procs.push(restored);
    const after = await state(urlOf(second.port));
    expect(after).toEqual(before);
    // The visitors' own view of their bookings, through the API of the restored product.
    for (const owner of acknowledged) {
      const tickets = (await (
        await new Client(restored.url).get(`/api/owners/${owner}/tickets`)
      ).json()) as { status: string }[];
      expect(tickets.map((t) => t.status)).toEqual(['BOOKED']);
    }
    const pool = new pg.Pool({ connectionString: urlOf(second.port), max: 2 });
    try {
      const { live, rebuilt, events } = await compareWithRebuild(pool, budget(20_000));
      expect(rebuilt).toEqual(live);
      console.log(
        'restore figures',
        JSON.stringify({ restoreMs: ms, events, bookingsChecked: acknowledged.size }),
      );
    } finally {
      await pool.end();
    }
    await restored.kill('SIGTERM');
  });

  it('after the restore, the erasure job’s next round deletes the personal data whose day has passed', async () => {
    const db = new pg.Client({ connectionString: urlOf(second.port) });
    // The restored folder, started ten days later: the slots (three and four days ahead) are past.
    const later = await spawnService('all', { ...second.env, ...fakeTimeEnv('+10d') });
    procs.push(later);
    await db.connect();
    try {
      const count = async (sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]!.n);
      await waitFor('the erasure job’s round on the restored database', budget(30_000), async () =>
        (await count('SELECT count(*) AS n FROM personal_data')) === 0 ? true : false,
      );
      expect(
        await count(`SELECT count(*) AS n FROM events WHERE event_type = 'PersonalDataErased'`),
      ).toBe(acknowledged.size);
    } finally {
      await db.end();
      await later.kill('SIGTERM');
    }
  });
});
