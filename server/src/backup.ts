import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  startIntervalJob,
  systemClock,
  type Clock,
  type Config,
  type IntervalJob,
  type Logger,
} from '@rr/platform';

const run = promisify(execFile);

/**
 * Backups of the database as `pg_dump` archives (custom format: compressed, restored table by
 * table with `pg_restore`). pg_dump reads one snapshot, so an archive taken while the product
 * serves is consistent: the event log, the read models, their checkpoints and the mail outbox
 * agree with one another as they did at one instant.
 */

/** Where the archives go: BACKUP_DIR, or DATA_DIR/backups. */
export const backupDirOf = (config: Config): string =>
  config.BACKUP_DIR ?? path.join(config.DATA_DIR, 'backups');

const ARCHIVE = /^rr-(\d{8}T\d{6}(?:\d{3})?Z)\.dump$/;

/**
 * A PostgreSQL client program (pg_dump, pg_restore) whose major version is at least the server's
 * (pg_dump refuses a newer server): PG_BIN_DIR when set, else Debian's
 * /usr/lib/postgresql/N/bin (the newest N), else the one on PATH.
 */
export async function pgTool(name: 'pg_dump' | 'pg_restore', config: Config): Promise<string> {
  if (config.PG_BIN_DIR) return path.join(config.PG_BIN_DIR, name);
  const debian = '/usr/lib/postgresql';
  const majors = existsSync(debian)
    ? (await readdir(debian))
        .filter((d) => /^\d+$/.test(d) && existsSync(path.join(debian, d, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return majors[0] ? path.join(debian, majors[0], 'bin', name) : name;
}

export interface Archive {
  file: string;
  bytes: number;
  takenAt: Date;
}

/** The archives of a folder, newest first. */
export async function listBackups(dir: string): Promise<Archive[]> {
  if (!existsSync(dir)) return [];
  const out: Archive[] = [];
  for (const name of await readdir(dir)) {
    const m = ARCHIVE.exec(name);
    if (!m) continue;
    const s = await stat(path.join(dir, name));
    out.push({ file: path.join(dir, name), bytes: s.size, takenAt: s.mtime });
  }
  return out.sort((a, b) => b.file.localeCompare(a.file));
}

/**
 * Writes one archive of the database at `url` into `dir` (as `rr-<UTC time>.dump`, readable by
 * its owner only: it holds personal data), then keeps the newest `keep` archives. The archive is
 * written under a temporary name and renamed when pg_dump succeeded, so a failed or interrupted
 * backup never counts as one and never pushes a good one out.
 */
export async function takeBackup(
  url: string,
  config: Config,
  dir = backupDirOf(config),
  clock: Clock = systemClock,
): Promise<Archive & { ms: number; removed: string[] }> {
  const started = performance.now();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = clock.now().toISOString().replace(/[-:.]/g, '');
  const file = path.join(dir, `rr-${stamp}.dump`);
  const partial = `${file}.partial`;
  try {
    await run(
      await pgTool('pg_dump', config),
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${url}`],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    await chmod(partial, 0o600);
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw new Error(`pg_dump failed: ${toolError(err)}`);
  }
  const removed: string[] = [];
  for (const old of (await listBackups(dir)).slice(config.BACKUP_KEEP)) {
    await rm(old.file, { force: true });
    removed.push(old.file);
  }
  const s = await stat(file);
  return {
    file,
    bytes: s.size,
    takenAt: s.mtime,
    ms: Math.round(performance.now() - started),
    removed,
  };
}

/** The message of a failed client program: its stderr, or the spawn error (not installed). */
function toolError(err: unknown): string {
  const e = err as { stderr?: string; code?: string; path?: string; message?: string };
  if (e.code === 'ENOENT')
    return `${e.path ?? 'the program'} is not installed (Debian: apt-get install postgresql-client-15; or set PG_BIN_DIR)`;
  return (e.stderr || e.message || String(err)).trim();
}

/**
 * Restores an archive into the empty database at `url` in one transaction (all or nothing);
 * objects are owned by the connecting user. Answers the counts the operator checks.
 */
export async function restoreArchive(
  file: string,
  url: string,
  config: Config,
): Promise<{ events: number; bookings: number; migrations: string[] }> {
  try {
    await run(
      await pgTool('pg_restore', config),
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--dbname=${url}`,
        file,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (err) {
    throw new Error(`pg_restore failed: ${toolError(err)}`);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const count = async (sql: string) =>
      Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
    return {
      events: await count('SELECT count(*) AS n FROM events'),
      bookings: await count(
        `SELECT count(*) AS n FROM events WHERE event_type = 'TransactionBooked'`,
      ),
      migrations: (
        await client.query<{ name: string }>('SELECT name FROM knex_migrations ORDER BY name')
      ).rows.map((r) => r.name),
    };
  } finally {
    await client.end();
  }
}

/** Whether a database already holds tables (a restore goes into an empty one only). */
export async function databaseIsEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT 1 FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') LIMIT 1`,
    );
    return r.rowCount === 0;
  } finally {
    await client.end();
  }
}

/**
 * The server's own backups (BACKUP_INTERVAL_HOURS): a round every quarter of an hour at most
 * takes an archive when the newest one in the folder is older than the interval, so a restart
 * neither skips one nor takes one too many. pg_dump runs as a child process, never on a request
 * path; one process at a time across the deployment (advisory lock `rr:backup`).
 */
export function startBackupJob(
  url: string,
  config: Config,
  logger: Logger,
  clock: Clock = systemClock,
): IntervalJob {
  const intervalMs = config.BACKUP_INTERVAL_HOURS * 3_600_000;
  const dir = backupDirOf(config);
  const round = async () => {
    const newest = (await listBackups(dir))[0];
    if (newest && clock.now().getTime() - newest.takenAt.getTime() < intervalMs) return;
    const lock = new pg.Client({ connectionString: url });
    await lock.connect();
    try {
      const got = await lock.query<{ ok: boolean }>(
        `SELECT pg_try_advisory_lock(hashtext('rr:backup')) AS ok`,
      );
      if (!got.rows[0]?.ok) return;
      const b = await takeBackup(url, config, dir, clock);
      logger.info(
        { file: b.file, bytes: b.bytes, ms: b.ms, removed: b.removed.length },
        'backup taken',
      );
    } finally {
      await lock.end();
    }
  };
  return startIntervalJob('backup', round, Math.min(intervalMs, 15 * 60_000), logger, {
    runAtStart: true,
  });
}
