import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from './ports.ts';
import { spawnService, type ServiceProcess, type SpawnOptions } from './processes.ts';
import { budget } from './time-budget.ts';

/**
 * The split deployment behind HAProxy as plain processes on loopback: two command processes, two
 * query processes, the projector, the gateway (serving the SPA's files) and Debian's HAProxy
 * (`apt-get install haproxy`) running deploy/balancer/haproxy.cfg as it is checked in, its
 * addresses and limits given in the environment. Shared by the balancer's tests and
 * `npm run bench:rush -- --deployments balancer`.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
export const BALANCER_CONFIG = path.join(root, 'deploy', 'balancer', 'haproxy.cfg');
export const HAPROXY = '/usr/sbin/haproxy';

/** HAProxy's limits: the environment of deploy/balancer/haproxy.cfg. */
export interface BalancerLimits {
  /** Requests one command process takes at a time; the rest wait in the backend's queue. */
  commandMaxconn: number;
  /** Requests one query process takes at a time. */
  queryMaxconn: number;
  /** Requests a backend's queue holds; one more is answered 503 at once. */
  maxQueue: number;
  /** How long a request waits in the queue at most before it is answered 503 (HAProxy's time, e.g. `3s`). */
  queueTimeout: string;
}

/** The limits of the compose profile `split` (docker-compose.yml). */
export const BALANCER_LIMITS: BalancerLimits = {
  commandMaxconn: 8,
  queryMaxconn: 8,
  maxQueue: 200,
  queueTimeout: '500ms',
};

export interface Balancer {
  url: string;
  /** HAProxy's process id (its CPU time counts with the servers' in the benchmark). */
  pid: number;
  /** HAProxy's CSV statistics (one row per frontend, server and backend). */
  statsUrl: string;
  /** A server's row of the statistics by backend and server name (`query`, `query1`). */
  stat(backend: string, server: string): Promise<Record<string, string>>;
  output(): string;
  stop(): Promise<void>;
}

/** Where HAProxy runs: on loopback, or on a machine of a test network (tests/support/machines.ts). */
export interface BalancerPlace {
  /** The program it runs under, e.g. `ip netns exec <namespace>`. */
  prefix: string[];
  /** The address it binds and is reached at. */
  host: string;
}

/** Starts HAProxy in front of two command processes, two query processes and the gateway. */
export async function startBalancer(
  commandUrls: readonly [string, string],
  queryUrls: readonly [string, string],
  gatewayUrl: string,
  limits: BalancerLimits = BALANCER_LIMITS,
  place: BalancerPlace = { prefix: [], host: '127.0.0.1' },
): Promise<Balancer> {
  if (!existsSync(HAPROXY)) throw new Error('HAProxy is missing: apt-get install haproxy');
  const [port, statsPort] = [await freePort(), await freePort()];
  const hostPort = (url: string) => new URL(url).host;
  let out = '';
  const [program, ...args] = [...place.prefix, HAPROXY, '-db', '-f', BALANCER_CONFIG];
  // `ip netns exec` runs HAProxy in its own place (no fork): the child is HAProxy.
  const child: ChildProcess = spawn(program, args, {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      RR_BIND: `${place.host}:${port}`,
      RR_STATS_BIND: `${place.host}:${statsPort}`,
      RR_COMMAND_1: hostPort(commandUrls[0]),
      RR_COMMAND_2: hostPort(commandUrls[1]),
      RR_QUERY_1: hostPort(queryUrls[0]),
      RR_QUERY_2: hostPort(queryUrls[1]),
      RR_GATEWAY: hostPort(gatewayUrl),
      RR_COMMAND_MAXCONN: String(limits.commandMaxconn),
      RR_QUERY_MAXCONN: String(limits.queryMaxconn),
      RR_MAX_QUEUE: String(limits.maxQueue),
      RR_QUEUE_TIMEOUT: limits.queueTimeout,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const statsUrl = `http://${place.host}:${statsPort}/stats;csv`;
  const stat = async (backend: string, server: string) => {
    const text = await (await fetch(statsUrl)).text();
    const [head, ...rows] = text.trim().split('\n');
    const names = head!.replace(/^# /, '').split(',');
    const row = rows.map((r) => r.split(',')).find((r) => r[0] === backend && r[1] === server);
    if (!row) throw new Error(`HAProxy has no ${backend}/${server}`);
    return Object.fromEntries(names.map((n, i) => [n, row[i] ?? '']));
  };
  const balancer: Balancer = {
    url: `http://${place.host}:${port}`,
    pid: child.pid!,
    statsUrl,
    stat,
    output: () => out,
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
  // Up once every server passed its first checks (the processes answer already).
  const deadline = Date.now() + budget(30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited:\n${out}`);
    const servers = [
      ['command', 'command1'],
      ['command', 'command2'],
      ['query', 'query1'],
      ['query', 'query2'],
      ['spa', 'gateway'],
    ];
    const up = await Promise.all(
      servers.map(([b, s]) =>
        stat(b!, s!).then(
          (r) => r.status === 'UP',
          () => false,
        ),
      ),
    );
    if (up.every(Boolean)) return balancer;
    if (Date.now() > deadline) {
      await balancer.stop();
      throw new Error(`HAProxy's servers are not all up:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface SplitDeployment {
  commands: [ServiceProcess, ServiceProcess];
  queries: [ServiceProcess, ServiceProcess];
  /** The projectors: one works, the others stand by (advisory locks). */
  projectors: ServiceProcess[];
  gateway: ServiceProcess;
  processes: ServiceProcess[];
}

/**
 * Where each process of the split deployment runs: its spawn options by role and number (the
 * first or second command process, say). Unset: all on loopback, one projector.
 */
export interface SplitPlacement {
  place: (role: 'command' | 'query' | 'projector' | 'gateway', n: number) => SpawnOptions;
  projectors: number;
}

/**
 * Starts one command, query or projector process of the split deployment (the `n`th of its
 * role) in its place: at the start, or again after its machine died. The command and query
 * processes trust the proxy on loopback unless `env` says otherwise.
 */
export function spawnSplitProcess(
  role: 'command' | 'query' | 'projector',
  n: number,
  env: Record<string, string>,
  placement: SplitPlacement,
): Promise<ServiceProcess> {
  const behind = role === 'projector' ? env : { TRUST_PROXY: 'loopback', ...env };
  return spawnService(role, behind, placement.place(role, n));
}

/**
 * Starts the split deployment's processes: the first command process migrates and creates the
 * admin, the others start beside it. `env` reaches every process; the command and query
 * processes trust the proxy on loopback unless `env` says otherwise (the client's address is its
 * X-Forwarded-For), and the gateway gets `gatewayEnv` too (FRONTEND_DIST, say).
 */
export async function startSplitDeployment(
  env: Record<string, string>,
  gatewayEnv: Record<string, string> = {},
  placement: SplitPlacement = { place: () => ({}), projectors: 1 },
): Promise<SplitDeployment> {
  const { place } = placement;
  const start = (role: 'command' | 'query' | 'projector', n: number) =>
    spawnSplitProcess(role, n, env, placement);
  const commandA = await start('command', 0);
  const [commandB, queryA, queryB, ...projectors] = await Promise.all([
    start('command', 1),
    start('query', 0),
    start('query', 1),
    ...Array.from({ length: placement.projectors }, (_, n) => start('projector', n)),
  ]);
  const gateway = await spawnService(
    'gateway',
    {
      GATEWAY_COMMAND_URLS: `${commandA.url},${commandB.url}`,
      GATEWAY_QUERY_URLS: `${queryA.url},${queryB.url}`,
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      ...gatewayEnv,
    },
    place('gateway', 0),
  );
  return {
    commands: [commandA, commandB],
    queries: [queryA, queryB],
    projectors,
    gateway,
    processes: [commandA, commandB, queryA, queryB, ...projectors, gateway],
  };
}

/** The sum of a process's `rr_commands_total` (state-changing requests it answered). */
export async function commandsOf(p: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${p.url}/api/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('rr_commands_total{'))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

/** GET requests a process answered (its request-latency histogram's counts). */
export async function readsOf(p: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${p.url}/api/metrics`)).text();
  return text
    .split('\n')
    .filter(
      (l) =>
        l.startsWith('rr_http_request_duration_seconds_count{') &&
        l.includes('method="GET"') &&
        !l.includes('/metrics') &&
        !l.includes('/readyz') &&
        !l.includes('/healthz'),
    )
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}
