import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { appendFile, chown, mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { PG_BIN } from './ha-cluster.ts';
import { waitFor } from './booking-load.ts';

/**
 * One PostgreSQL 15 server from Debian's packages as a plain process, its data folder and socket
 * in a folder under the system temp dir, run as the `postgres` user (PostgreSQL refuses root), as
 * the HA tests run theirs: what a single database host of the product is.
 */
export interface PgServer {
  dir: string;
  dataDir: string;
  port: number;
  /** The user's and group's ids the server runs as. */
  ids: { uid: number; gid: number };
  url(database: string): string;
  start(): Promise<void>;
  /** A fast shutdown (SIGINT), waiting for the server to exit. */
  stop(): Promise<void>;
  /** Runs a program as the server's user; answers its output, throws on failure. */
  runAs(command: string, args: string[]): string;
  log(): string;
}

export function postgresIds(): { uid: number; gid: number } {
  if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/** initdb into `dir`/data with `settings` appended to its postgresql.conf (not started). */
export async function createPgServer(
  dir: string,
  port: number,
  settings: Record<string, string>,
): Promise<PgServer> {
  const ids = postgresIds();
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  let child: ChildProcess | null = null;
  const runAs = (command: string, args: string[]): string => {
    const r = spawnSync(command, args, {
      ...(process.getuid?.() === 0 ? ids : {}),
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' },
      encoding: 'utf8',
    });
    if (r.status !== 0)
      throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  await mkdir(dir, { recursive: true });
  await chown(dir, ids.uid, ids.gid);
  runAs(path.join(PG_BIN, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
  ]);
  const conf = {
    port: String(port),
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${dir}'`,
    max_connections: '200',
    ...settings,
  };
  await appendFile(
    path.join(dataDir, 'postgresql.conf'),
    `\n${Object.entries(conf)
      .map(([k, v]) => `${k} = ${v}`)
      .join('\n')}\n`,
  );
  const server: PgServer = {
    dir,
    dataDir,
    port,
    ids,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    runAs,
    log: () =>
      existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '',
    start: async () => {
      const log = openSync(logFile, 'a');
      child = spawn(path.join(PG_BIN, 'postgres'), ['-D', dataDir], {
        ...(process.getuid?.() === 0 ? ids : {}),
        cwd: dir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' },
        stdio: ['ignore', log, log],
      });
      closeSync(log);
      const started = child;
      // Should the test process end without its afterAll, the server does not outlive it.
      process.once('exit', () => started.kill('SIGKILL'));
      await waitFor('PostgreSQL accepting connections', 60_000, async () => {
        if (started.exitCode !== null) throw new Error(`postgres exited:\n${server.log()}`);
        const c = new pg.Client({ connectionString: server.url('postgres') });
        c.on('error', () => undefined);
        try {
          await c.connect();
          // A restore replays the archive first; the server serves once it is promoted.
          const r = await c.query<{ ro: boolean }>('SELECT pg_is_in_recovery() AS ro');
          return r.rows[0]!.ro ? false : true;
        } finally {
          await c.end().catch(() => undefined);
        }
      });
    },
    stop: async () => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGINT');
      await exited;
    },
  };
  return server;
}
