// Over 300 lines: one cluster; etcd, the Patroni nodes and HAProxy are configured from one
// another's ports and started, watched and stopped together.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { makeClusterDir } from '@rr/platform';
import { freePort } from './ports.ts';

/**
 * A PostgreSQL cluster with automatic failover, as plain processes on loopback, from Debian's
 * packages (`apt-get install patroni etcd-server haproxy`, PostgreSQL 15): one etcd, two
 * PostgreSQL nodes managed by Patroni (synchronous replication), and HAProxy with a port for the
 * primary (checks Patroni's `GET /primary`) and one port per node for reads (`GET /replica`).
 * As root, PostgreSQL and Patroni run as the `postgres` user (PostgreSQL refuses root).
 * Everything lives in one folder under the system temp dir and is killed by `stop()`.
 */

export const PG_BIN = '/usr/lib/postgresql/15/bin';
const SUPERUSER = 'postgres';
const SUPERUSER_PASSWORD = 'ha-test-secret';

/** Patroni's timing: the leader key lives `ttl` seconds, refreshed every `loop_wait`. */
export const PATRONI_TTL = 10;
/** The test clusters' Patroni timing (`bootstrap.dcs`): a failover within about PATRONI_TTL. */
export const PATRONI_TEST_TIMING = { ttl: PATRONI_TTL, loop_wait: 2, retry_timeout: 4 };

export interface HaNode {
  name: string;
  pgPort: number;
  apiPort: number;
  /** The port of HAProxy that reaches this node while it is a running replica. */
  replicaProxyPort: number;
  dir: string;
  patroni: ChildProcess | null;
}

export interface HaCluster {
  dir: string;
  nodes: HaNode[];
  /** A connection URL through HAProxy's primary port. */
  primaryUrl(database: string, applicationName?: string): string;
  /** Connection URLs through HAProxy's replica ports, one per node. */
  replicaUrls(database: string, applicationName?: string): string[];
  /** A connection URL straight to one node. */
  nodeUrl(node: HaNode, database: string): string;
  /** What Patroni's REST API says of a node: `primary`, `replica` or `down`. */
  roleOf(node: HaNode): Promise<'primary' | 'replica' | 'down'>;
  /** Whether a node is the synchronous standby. */
  isSyncStandby(node: HaNode): Promise<boolean>;
  /** kill -9 of a node's Patroni and every process of its PostgreSQL: the machine is gone. */
  crash(node: HaNode): void;
  /** Starts a node's Patroni (again): it joins as a replica when another node leads. */
  startNode(node: HaNode): void;
  /** The node's Patroni, PostgreSQL and the others' logs' tails, for a failure's message. */
  logs(): string;
  stop(): Promise<void>;
}

/** The Debian packages the cluster needs that are not installed. */
export function missingHaPackages(): string[] {
  const missing: string[] = [];
  if (!existsSync('/usr/bin/patroni')) missing.push('patroni');
  if (!existsSync('/usr/bin/etcd')) missing.push('etcd-server');
  if (!existsSync('/usr/sbin/haproxy')) missing.push('haproxy');
  if (!existsSync(path.join(PG_BIN, 'postgres'))) missing.push('postgresql-15');
  return missing;
}

/** As root, PostgreSQL and Patroni run as `postgres`; otherwise as the user running the test. */
export function postgresIds(): { uid: number; gid: number } {
  if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/** The PIDs of a process's children (from /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...; comm may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The postmaster's PID of a data folder, while its postmaster.pid names a live process. */
export function postmasterOf(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!(pid > 0)) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

function killHard(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export async function waitUntil<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null | undefined | false>,
  logs: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${logs()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The HTTP status of a GET, or 0 without an answer within 2 s. */
export async function httpStatus(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts etcd, two Patroni nodes (the first leads, the second becomes its synchronous standby)
 * and HAProxy.
 */
export async function startHaCluster(): Promise<HaCluster> {
  const dir = await makeClusterDir('rr-ha-');
  const ids = postgresIds();
  const children: ChildProcess[] = [];
  const [etcdClient, etcdPeer, primaryPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const nodes: HaNode[] = [];
  for (const name of ['node1', 'node2']) {
    nodes.push({
      name,
      pgPort: await freePort(),
      apiPort: await freePort(),
      replicaProxyPort: await freePort(),
      dir: path.join(dir, name),
      patroni: null,
    });
  }
  const logFiles = [
    path.join(dir, 'etcd.log'),
    path.join(dir, 'haproxy.log'),
    ...nodes.map((n) => path.join(dir, `${n.name}.log`)),
  ];
  const logs = () =>
    logFiles.map((f) => `--- ${path.basename(f)}\n${tail(f)}`).join('\n') +
    `\n(all files in ${dir})`;

  const start = (
    name: string,
    command: string,
    args: string[],
    options: { uid?: number; gid?: number; cwd?: string } = {},
  ): ChildProcess => {
    const log = openSync(path.join(dir, `${name}.log`), 'a');
    const child = spawn(command, args, {
      ...options,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.cwd ?? dir, LANG: 'C.UTF-8' },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    child.on('error', () => undefined);
    children.push(child);
    return child;
  };

  const cluster: HaCluster = {
    dir,
    nodes,
    primaryUrl: (database, app) =>
      `postgres://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${primaryPort}/${database}${
        app ? `?application_name=${app}` : ''
      }`,
    replicaUrls: (database, app) =>
      nodes.map(
        (n) =>
          `postgres://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${n.replicaProxyPort}/${database}${
            app ? `?application_name=${app}` : ''
          }`,
      ),
    nodeUrl: (node, database) =>
      `postgres://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${node.pgPort}/${database}`,
    roleOf: async (node) => {
      if ((await httpStatus(`http://127.0.0.1:${node.apiPort}/primary`)) === 200) return 'primary';
      if ((await httpStatus(`http://127.0.0.1:${node.apiPort}/replica`)) === 200) return 'replica';
      return 'down';
    },
    isSyncStandby: async (node) =>
      (await httpStatus(`http://127.0.0.1:${node.apiPort}/sync`)) === 200,
    crash: (node) => {
      const pids: number[] = [];
      if (node.patroni?.pid) pids.push(node.patroni.pid);
      const postmaster = postmasterOf(path.join(node.dir, 'data'));
      if (postmaster) pids.push(postmaster, ...childrenOf(postmaster));
      killHard(pids);
      node.patroni = null;
    },
    startNode: (node) => {
      node.patroni = start(node.name, '/usr/bin/patroni', [path.join(node.dir, 'patroni.yml')], {
        ...(process.getuid?.() === 0 ? ids : {}),
        cwd: node.dir,
      });
    },
    logs,
    stop: async () => {
      // Patroni first (it would start PostgreSQL again), then PostgreSQL, HAProxy and etcd.
      for (const n of nodes) cluster.crash(n);
      killHard(children.filter((c) => c.exitCode === null).map((c) => c.pid!));
      await new Promise((r) => setTimeout(r, 300));
      for (const n of nodes) cluster.crash(n);
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
  // Should the test process end without its afterAll (a crash), nothing is left running.
  process.once('exit', () => {
    for (const n of nodes) cluster.crash(n);
    killHard(children.filter((c) => c.exitCode === null).map((c) => c.pid!));
  });

  try {
    await mkdir(path.join(dir, 'etcd'), { mode: 0o700 });
    start('etcd', '/usr/bin/etcd', [
      '--name=rr-ha',
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=rr-ha=http://127.0.0.1:${etcdPeer}`,
      '--log-level=warn',
    ]);
    await waitUntil(
      'etcd healthy',
      20_000,
      async () => (await httpStatus(`http://127.0.0.1:${etcdClient}/health`)) === 200,
      logs,
    );

    for (const node of nodes) {
      await mkdir(node.dir, { mode: 0o700 });
      await chown(node.dir, ids.uid, ids.gid);
      const config = patroniConfig(node, `127.0.0.1:${etcdClient}`);
      const file = path.join(node.dir, 'patroni.yml');
      // JSON is YAML.
      await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });
      await chown(file, ids.uid, ids.gid);
    }
    cluster.startNode(nodes[0]!);
    await waitUntil(
      'node1 bootstrapped as primary',
      60_000,
      async () => (await cluster.roleOf(nodes[0]!)) === 'primary',
      logs,
    );
    cluster.startNode(nodes[1]!);
    await waitUntil(
      'node2 streaming as the synchronous standby',
      90_000,
      async () => cluster.isSyncStandby(nodes[1]!),
      logs,
    );

    await writeFile(path.join(dir, 'haproxy.cfg'), haproxyConfig(primaryPort, nodes));
    start('haproxy', '/usr/sbin/haproxy', ['-db', '-f', path.join(dir, 'haproxy.cfg')]);
    await waitUntil(
      'HAProxy reaching the primary',
      20_000,
      async () => {
        const c = new pg.Client({ connectionString: cluster.primaryUrl('postgres') });
        c.on('error', () => undefined);
        try {
          await c.connect();
          const r = await c.query<{ ro: boolean }>('SELECT pg_is_in_recovery() AS ro');
          return r.rows[0]?.ro === false;
        } finally {
          await c.end().catch(() => undefined);
        }
      },
      logs,
    );
    return cluster;
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

/**
 * Patroni's configuration of a node. `synchronous_mode`: a commit returns once the synchronous
 * standby has it on disk, and Patroni promotes only that standby, so no acknowledged commit is
 * lost; with the standby gone the primary carries on alone (not `synchronous_mode_strict`, which
 * would stop writes instead).
 */
function patroniConfig(node: HaNode, etcd: string): object {
  return {
    scope: 'rr-ha',
    name: node.name,
    log: { level: 'INFO' },
    restapi: {
      listen: `127.0.0.1:${node.apiPort}`,
      connect_address: `127.0.0.1:${node.apiPort}`,
    },
    etcd3: { hosts: etcd },
    bootstrap: {
      dcs: {
        ...PATRONI_TEST_TIMING,
        maximum_lag_on_failover: 1048576,
        synchronous_mode: true,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            max_connections: 400,
            hot_standby_feedback: 'on',
            wal_keep_size: '256MB',
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, 'data-checksums', { auth: 'scram-sha-256' }],
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: path.join(node.dir, 'data'),
      bin_dir: PG_BIN,
      pgpass: path.join(node.dir, 'pgpass'),
      authentication: {
        superuser: { username: SUPERUSER, password: SUPERUSER_PASSWORD },
        replication: { username: 'replicator', password: 'ha-test-replication' },
        rewind: { username: 'rewinder', password: 'ha-test-rewind' },
      },
      parameters: { unix_socket_directories: node.dir },
      pg_hba: [
        'local all all trust',
        'host replication replicator 127.0.0.1/32 scram-sha-256',
        'host all all 127.0.0.1/32 scram-sha-256',
      ],
    },
  };
}

/**
 * HAProxy: the primary port goes to the node whose Patroni answers `GET /primary` with 200; each
 * replica port to its node while it answers `GET /replica` (a running replica). Checks every
 * half second, down after two failures, and a node marked down has its sessions cut, so no
 * connection stays on a demoted primary or a promoted replica.
 */
function haproxyConfig(primaryPort: number, nodes: HaNode[]): string {
  const server = (n: HaNode) => `  server ${n.name} 127.0.0.1:${n.pgPort} check port ${n.apiPort}`;
  const checks = [
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
  ];
  return [
    'global',
    '  maxconn 4000',
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 30m',
    '  timeout server 30m',
    '  timeout check 1s',
    '  retries 2',
    'listen primary',
    `  bind 127.0.0.1:${primaryPort}`,
    '  option httpchk GET /primary',
    ...checks,
    ...nodes.map(server),
    ...nodes.flatMap((n) => [
      `listen replica_${n.name}`,
      `  bind 127.0.0.1:${n.replicaProxyPort}`,
      '  option httpchk GET /replica',
      ...checks,
      server(n),
    ]),
    '',
  ].join('\n');
}
