import { existsSync, readFileSync } from 'node:fs';
import { chown, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClusterDir } from '@rr/platform';
import { Client } from '../support/app.ts';
import { BookingLoad, createLoadRoom, waitFor, type Outcome } from '../support/booking-load.ts';
import { createPgServer, type PgServer } from '../support/pg-server.ts';
import { freePort } from '../support/ports.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import { compareWithRebuild } from '../support/read-models.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { budget } from '../support/time-budget.ts';
import { sleep } from '../support/wait-for.ts';

/**
 * Point-in-time recovery with pgBackRest (Debian's package) on PostgreSQL 15 (Debian's binaries,
 * a plain process as the postgres user), configured as deploy/backup/ describes: WAL archived
 * with `archive-push`, a full backup. Bookings, the full backup, more bookings, an instant T,
 * more bookings, then `DROP TABLE events CASCADE`. Restored to T, the product starts on it with
 * exactly the bookings acknowledged before T, read models equal to a rebuild, and no
 * confirmation mail sent twice (a real SMTP server on loopback receives them). Prints the
 * backup's size and time, the restore's time and the bookings checked.
 */

const STANZA = 'rr';
const root = path.resolve(import.meta.dirname, '..', '..');
const deploy = path.join(root, 'deploy', 'backup');
const ADMIN_PASSWORD = 'pitr-admin-password';
const PER_PHASE = 8;

let dir: string;
let server: PgServer;
let conf: string;
let sink: SmtpSink;
let product: ServiceProcess | null = null;
let admin: Client;
let slots: string[];
const before: Set<string> = new Set();
const after: Set<string> = new Set();

const pgbackrest = (...args: string[]) =>
  server.runAs('/usr/bin/pgbackrest', [`--config=${conf}`, `--stanza=${STANZA}`, ...args]);

/**
 * The pgbackrest arguments of deploy/backup/pgbackrest.cron's lines (after `--stanza=rr`), by
 * what they do: the test runs the schedule's own commands.
 */
function scheduled(): { full: string[]; diff: string[]; verify: string[] } {
  const lines = readFileSync(path.join(deploy, 'pgbackrest.cron'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/));
  const args = lines.map((fields) => {
    // m h dom mon dow user, then the command
    const command = fields.slice(6);
    expect(command.slice(0, 2)).toEqual(['pgbackrest', `--stanza=${STANZA}`]);
    return command.slice(2);
  });
  const find = (word: string) => {
    const found = args.find((a) => a.join(' ').includes(word));
    if (!found) throw new Error(`deploy/backup/pgbackrest.cron has no ${word} line`);
    return found;
  };
  return { full: find('--type=full'), diff: find('--type=diff'), verify: find('verify') };
}

const env = () => ({
  DATABASE_URL: server.url('reading_rooms'),
  SEED_DEMO_DATA: 'false',
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD,
  SMTP_URL: sink.url,
  MAIL_INTERVAL_MS: '200',
  RATE_LIMIT_CARTS: '100000',
  RATE_LIMIT_OWNER_LOOKUPS: '100000',
  DATA_DIR: path.join(dir, 'product'),
});

/** Books `n` visitors; answers the owners acknowledged (every booking must be). */
async function book(n: number, tag: string): Promise<string[]> {
  const load = new BookingLoad(() => product!.url);
  const log: Outcome[] = [];
  for (let i = 0; i < n; i++) {
    const o = await load.bookOnce(slots[i % slots.length]!, `${tag}-${i}`, log);
    expect(o.status).toBe(200);
  }
  return [...load.acknowledgedOwners];
}

const confirmations = () =>
  sink.messages.filter((m) => m.messageId?.startsWith('<confirmation.') ?? false);

/** Waits until every booking so far has its confirmation in the sink. */
const confirmationsSent = (n: number) =>
  waitFor(`${n} confirmations received`, budget(30_000), () =>
    Promise.resolve(confirmations().length >= n ? true : false),
  );

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: server.url('reading_rooms') });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  dir = await makeClusterDir('rr-pitr-');
  const port = await freePort();
  conf = path.join(dir, 'pgbackrest.conf');
  // deploy/backup/postgresql-archiving.conf, its archive_command with this test's configuration.
  const archiving = Object.fromEntries(
    readFileSync(path.join(deploy, 'postgresql-archiving.conf'), 'utf8')
      .split('\n')
      .filter((l) => /^\w+\s*=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()]),
  );
  expect(archiving.archive_command).toBe("'pgbackrest --stanza=rr archive-push %p'");
  server = await createPgServer(path.join(dir, 'pg'), port, {
    ...archiving,
    archive_command: `'/usr/bin/pgbackrest --config=${conf} --stanza=${STANZA} archive-push %p'`,
  });
  // deploy/backup/pgbackrest.conf, its paths in this test's folder.
  const paths: Record<string, string> = {
    'repo1-path': path.join(dir, 'repo'),
    'pg1-path': server.dataDir,
    'pg1-port': String(port),
    'pg1-socket-path': server.dir,
  };
  const shipped = readFileSync(path.join(deploy, 'pgbackrest.conf'), 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('#') && l.trim() !== '')
    .map((l) => {
      const key = l.split('=')[0]!;
      return key in paths ? `${key}=${paths[key]}` : l;
    });
  expect(shipped.filter((l) => l.split('=')[0]! in paths)).toHaveLength(4);
  shipped.splice(
    1,
    0,
    `log-path=${path.join(dir, 'log')}`,
    `lock-path=${path.join(dir, 'lock')}`,
    `spool-path=${path.join(dir, 'spool')}`,
  );
  await writeFile(conf, `${shipped.join('\n')}\n`);
  await chown(conf, server.ids.uid, server.ids.gid);
  await chown(dir, server.ids.uid, server.ids.gid);
  await server.start();
  const c = new pg.Client({ connectionString: server.url('postgres') });
  await c.connect();
  await c.query('CREATE DATABASE reading_rooms');
  await c.end();
  pgbackrest('stanza-create');
  pgbackrest('check');
  sink = new SmtpSink(await freePort());
  await sink.start();
  product = await spawnService('all', env());
  admin = new Client(product.url);
  expect((await admin.login('admin', ADMIN_PASSWORD)).status).toBe(200);
  ({ slots } = await createLoadRoom(admin, 'PITR room', 2));
});

afterAll(async () => {
  await product?.kill('SIGKILL');
  await sink?.stop();
  await server?.stop();
  if (dir && existsSync(dir)) await rm(dir, { recursive: true, force: true });
});

describe('point-in-time recovery with pgBackRest', () => {
  let target: string;
  const figures: Record<string, number> = {};

  it('archives the WAL and takes a full backup while the product serves', async () => {
    for (const o of await book(PER_PHASE, 'before-backup')) before.add(o);
    await confirmationsSent(before.size);
    const schedule = scheduled();
    const started = performance.now();
    pgbackrest(...schedule.full);
    figures.backupMs = Math.round(performance.now() - started);
    const info = JSON.parse(pgbackrest('--output=json', 'info')) as {
      backup: { type: string; info: { size: number; repository: { delta: number } } }[];
    }[];
    const full = info[0]!.backup.find((b) => b.type === 'full')!;
    figures.databaseBytes = full.info.size;
    figures.backupBytes = full.info.repository.delta;

    for (const o of await book(PER_PHASE, 'after-backup')) before.add(o);
    // Every mail of the bookings kept has gone out before T (see README: mails pending at T).
    await confirmationsSent(before.size);
    // The next night of the schedule: a differential backup on the full one, and the check.
    pgbackrest(...schedule.diff);
    pgbackrest(...schedule.verify);
    const types = (
      JSON.parse(pgbackrest('--output=json', 'info')) as { backup: { type: string }[] }[]
    )[0]!.backup.map((b) => b.type);
    expect(types).toEqual(['full', 'diff']);
    await sleep(1000);
    target = (await query<{ t: string }>(`SELECT now()::text AS t`))[0]!.t;
    await sleep(1000);
    for (const o of await book(PER_PHASE, 'after-target')) after.add(o);
    await confirmationsSent(before.size + after.size);
    expect(confirmations()).toHaveLength(before.size + after.size);
  });

  it('restores to T after DROP TABLE events CASCADE: exactly the bookings before T, read models equal a rebuild, no mail twice', async () => {
    await query('DROP TABLE events CASCADE');
    // The WAL of the last minutes reaches the archive (what a restore to T replays).
    const current = (await query<{ w: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS w'))[0]!
      .w;
    await waitFor('the last WAL segment archived', budget(30_000), async () => {
      const r = await query<{ w: string | null }>(
        'SELECT last_archived_wal AS w FROM pg_stat_archiver',
      );
      return r[0]!.w !== null && r[0]!.w >= current ? true : false;
    });
    await product!.kill('SIGTERM');
    product = null;
    await server.stop();

    const started = performance.now();
    pgbackrest(
      '--delta',
      '--type=time',
      `--target=${target}`,
      '--target-action=promote',
      'restore',
    );
    await server.start();
    figures.restoreMs = Math.round(performance.now() - started);

    const mailsBefore = confirmations().length;
    product = await spawnService('all', env());
    const booked = await query<{ owner: string }>(
      `SELECT data->>'ownerId' AS owner FROM events WHERE event_type = 'TransactionBooked'`,
    );
    expect(new Set(booked.map((r) => r.owner))).toEqual(before);
    for (const owner of before) {
      const tickets = (await (
        await new Client(product.url).get(`/api/owners/${owner}/tickets`)
      ).json()) as { status: string }[];
      expect(tickets.map((t) => t.status)).toEqual(['BOOKED']);
    }
    for (const owner of after)
      expect((await new Client(product.url).get(`/api/owners/${owner}/tickets`)).status).toBe(404);

    const pool = new pg.Pool({ connectionString: server.url('reading_rooms'), max: 2 });
    try {
      const { live, rebuilt, events } = await compareWithRebuild(pool, budget(20_000));
      expect(rebuilt).toEqual(live);
      figures.events = events;
    } finally {
      await pool.end();
    }

    // The restored outbox has every mail of the bookings kept as sent: none goes out again.
    const pending = await query<{ n: string }>(
      `SELECT count(*) AS n FROM mail_outbox WHERE status = 'pending'`,
    );
    expect(Number(pending[0]!.n)).toBe(0);
    await sleep(2000); // ten rounds of the mail sender
    expect(confirmations()).toHaveLength(mailsBefore);
    const ids = confirmations().map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    figures.bookingsChecked = before.size + after.size;
    console.log('pitr figures', JSON.stringify(figures));
  });

  it('the ha profile’s Patroni configuration with archiving is deploy/ha/patroni.yml plus the archiving', () => {
    const plain = YAML.parse(
      readFileSync(path.join(root, 'deploy', 'ha', 'patroni.yml'), 'utf8'),
    ) as {
      bootstrap: { dcs: { postgresql: { parameters: Record<string, unknown> } } };
      postgresql: Record<string, unknown>;
    };
    const archiving = YAML.parse(
      readFileSync(path.join(deploy, 'ha', 'patroni.yml'), 'utf8'),
    ) as typeof plain;
    const parameters = archiving.bootstrap.dcs.postgresql.parameters;
    expect(parameters).toMatchObject({
      archive_mode: 'on',
      archive_command: `pgbackrest --stanza=${STANZA} archive-push %p`,
    });
    expect(archiving.postgresql.recovery_conf).toEqual({
      restore_command: `pgbackrest --stanza=${STANZA} archive-get %f "%p"`,
    });
    delete parameters.archive_mode;
    delete parameters.archive_command;
    delete parameters.archive_timeout;
    delete archiving.postgresql.recovery_conf;
    expect(archiving).toEqual(plain);
    // Its repository and data folder are the ones the compose overlay mounts.
    const conf = readFileSync(path.join(deploy, 'ha', 'pgbackrest.conf'), 'utf8');
    expect(conf).toContain(`pg1-path=${String(plain.postgresql.data_dir)}`);
    const overlay = readFileSync(path.join(deploy, 'docker-compose.pitr.yml'), 'utf8');
    expect(overlay).toContain('pgbackrest:/var/lib/pgbackrest');
    expect(conf).toContain('repo1-path=/var/lib/pgbackrest');
  });
});
