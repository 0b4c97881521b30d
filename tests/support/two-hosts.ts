import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { parse, stringify } from 'yaml';
import { makeClusterDir } from '@rr/platform';
import {
  spawnSplitProcess,
  startBalancer,
  startSplitDeployment,
  type Balancer,
  type SplitDeployment,
  type SplitPlacement,
} from './balancer.ts';
import {
  httpStatus,
  missingHaPackages,
  PATRONI_TEST_TIMING,
  postmasterOf,
  waitUntil,
} from './ha-cluster.ts';
import { createNetwork, type Network } from './machines.ts';
import {
  databaseHaproxyConfig,
  PATRONI_CONFIG,
  patroniRoleAt,
  preparePatroniHome,
  startPatroniOn,
} from './patroni-machines.ts';
import type { ServiceProcess } from './processes.ts';
import { budget } from './time-budget.ts';

/**
 * The split deployment on two hosts (docs/architecture.md, Two hosts), each a machine of a test
 * network (tests/support/machines.ts): each host runs a command process, a query process and a
 * projector, a PostgreSQL node under Patroni (deploy/ha/patroni.yml; `patroni1` on host A,
 * `patroni2` on host B, synchronous replication) and HAProxy for the database
 * (deploy/ha/haproxy.cfg: the processes reach the primary on 127.0.0.1:5000, the nodes for reads
 * on :5001 and :5002). A third, small machine in front runs the front door (HAProxy with
 * deploy/balancer/haproxy.cfg over both hosts' processes), the gateway serving the SPA, and
 * etcd: the witness that lets either host's Patroni lead alone once the other is gone (an etcd on
 * one of the two hosts would die with it and take the failover along). Killing a host kills
 * every process on it. Shared by tests/topology/two-hosts.ha.test.ts and
 * `npm run bench:rush -- --deployments two-hosts`. Needs root, iproute2 and Debian's patroni,
 * etcd-server, haproxy and postgresql-15.
 */

export const HOSTS = ['host-a', 'host-b'] as const;
export type Host = (typeof HOSTS)[number];
/** The Patroni node of each host (the names of deploy/ha/haproxy.cfg's servers). */
const NODE: Record<Host, string> = { 'host-a': 'patroni1', 'host-b': 'patroni2' };
const FRONT = 'front';
/** The application's role and database, made by deploy/ha/patroni.yml's post_bootstrap. */
const DATABASE = 'rr:rr@127.0.0.1:5000/reading_rooms';
const PORTS = { command: 8080, query: 8081, gateway: 8082 } as const;

export interface TwoHosts {
  network: Network;
  /** The front door (HAProxy): what visitors reach. */
  url: string;
  balancer: Balancer;
  split: SplitDeployment;
  /** The product's processes on a host. */
  processesOn(host: Host): ServiceProcess[];
  /** What a host's Patroni says of its node. */
  roleOf(host: Host): Promise<'primary' | 'replica' | 'sync' | 'down'>;
  /** The primary through a host's database HAProxy (as that host's processes reach it). */
  databaseUrl(host: Host): string;
  /** The postmaster's PID of a host's PostgreSQL, while it runs. */
  postmasterOf(host: Host): number | null;
  /** kill -9 of every process on the host (its power cut). */
  kill(host: Host): void;
  /**
   * A killed host powered on again: its Patroni on the node's data folder (it rejoins as a
   * replica, rewound where it had gone ahead), its database HAProxy, and its command, query and
   * projector processes, answering before this returns (they replace the dead ones in `split`).
   */
  restart(host: Host): Promise<void>;
  /** The tails of the machines' logs, for a failure's message. */
  logs(): string;
  stop(): Promise<void>;
}

/** Waits for a probe within a budget, the machines' logs in the failure's message. */
const until = (what: string, ms: number, probe: () => Promise<boolean>, logs: () => string) =>
  waitUntil(what, budget(ms), probe, logs);

/**
 * Starts the three machines, the cluster (host A's node leads, host B's follows as the
 * synchronous standby, with the failover tests' Patroni timing), the product's processes with
 * `env` and the front door.
 */
export async function startTwoHosts(env: Record<string, string>): Promise<TwoHosts> {
  const missing = missingHaPackages();
  if (missing.length)
    throw new Error(`The two hosts need Debian packages: apt-get install -y ${missing.join(' ')}`);
  const dir = await makeClusterDir('rr-two-hosts-');
  const network = createNetwork([
    { name: FRONT, aliases: ['etcd'] },
    ...HOSTS.map((h) => ({ name: h, aliases: [NODE[h]] })),
  ]);
  const ip = (m: string) => network.machine(m).ip;
  const logOf = (name: string) => path.join(dir, `${name}.log`);
  const logFiles = ['etcd', ...HOSTS.flatMap((h) => [NODE[h], `${h}-haproxy`])];
  let split: SplitDeployment | null = null;
  let balancer: Balancer | null = null;
  const logs = () =>
    [
      ...logFiles.map((f) => {
        let text = '';
        try {
          text = readFileSync(logOf(f), 'utf8').split('\n').slice(-30).join('\n');
        } catch {
          // not started
        }
        return `--- ${f}\n${text}`;
      }),
      ...(split?.processes ?? []).map((p) => `--- ${p.role} ${p.url}\n${p.output().slice(-1500)}`),
    ].join('\n');
  const stop = async () => {
    await balancer?.stop().catch(() => undefined);
    await Promise.all((split?.processes ?? []).map((p) => p.kill('SIGKILL')));
    network.stop();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
  try {
    // etcd with the compose profile's flags, on the front machine.
    mkdirSync(path.join(dir, 'etcd'), { mode: 0o700 });
    network.run(
      FRONT,
      [
        '/usr/bin/etcd',
        '--name=etcd',
        `--data-dir=${path.join(dir, 'etcd')}`,
        '--listen-client-urls=http://0.0.0.0:2379',
        '--advertise-client-urls=http://etcd:2379',
        '--listen-peer-urls=http://0.0.0.0:2380',
        '--initial-advertise-peer-urls=http://etcd:2380',
        '--initial-cluster=etcd=http://etcd:2380',
        '--log-level=warn',
      ],
      { env: base, log: logOf('etcd') },
    );
    await until(
      'etcd healthy',
      20_000,
      async () => (await httpStatus(`http://${ip(FRONT)}:2379/health`)) === 200,
      logs,
    );

    // deploy/ha/patroni.yml with the failover tests' timing (the file's ttl of 30 s would keep
    // the rush waiting half a minute longer).
    const config = parse(readFileSync(PATRONI_CONFIG, 'utf8')) as {
      bootstrap: { dcs: Record<string, unknown> };
    };
    Object.assign(config.bootstrap.dcs, PATRONI_TEST_TIMING);
    const startNode = (h: Host) => {
      const home = path.join(dir, NODE[h]);
      preparePatroniHome(home, stringify(config));
      startPatroniOn(
        network,
        h,
        home,
        {
          PATRONI_NAME: NODE[h],
          PATRONI_RESTAPI_CONNECT_ADDRESS: `${NODE[h]}:8008`,
          PATRONI_POSTGRESQL_CONNECT_ADDRESS: `${NODE[h]}:5432`,
        },
        logOf(NODE[h]),
      );
    };
    startNode('host-a');
    await until(
      'host A bootstrapped as the primary',
      90_000,
      async () => (await patroniRoleAt(ip('host-a'))) === 'primary',
      logs,
    );
    startNode('host-b');
    writeFileSync(path.join(dir, 'db-haproxy.cfg'), databaseHaproxyConfig());
    const startDatabaseHaproxy = (h: Host) =>
      network.run(h, ['/usr/sbin/haproxy', '-db', '-f', path.join(dir, 'db-haproxy.cfg')], {
        env: base,
        log: logOf(`${h}-haproxy`),
      });
    for (const h of HOSTS) startDatabaseHaproxy(h);
    const databaseUrl = (h: Host) => `postgres://${DATABASE.replace('127.0.0.1', ip(h))}`;
    /** Whether a host's database HAProxy reaches the primary as rr. */
    const reachesPrimary = async (h: Host) => {
      const c = new pg.Client({ connectionString: databaseUrl(h) });
      c.on('error', () => undefined);
      try {
        await c.connect();
        return (
          (await c.query<{ ro: boolean }>('SELECT pg_is_in_recovery() AS ro')).rows[0]?.ro === false
        );
      } finally {
        await c.end().catch(() => undefined);
      }
    };
    await until(
      "host A's HAProxy reaching the primary as rr",
      30_000,
      () => reachesPrimary('host-a'),
      logs,
    );

    // The processes: the first of each role on host A, the second on host B, the gateway in front.
    const processEnv = {
      DATABASE_URL: `postgres://${DATABASE}`,
      READ_DATABASE_URL: [5001, 5002]
        .map((port) => `postgres://${DATABASE.replace(':5000', `:${port}`)}`)
        .join(','),
      // The front door's address is the client's (X-Forwarded-For) on the hosts' network.
      TRUST_PROXY: 'uniquelocal',
      ...env,
    };
    const placement: SplitPlacement = {
      projectors: 2,
      place: (role, n) => {
        const machine = role === 'gateway' ? FRONT : HOSTS[n]!;
        return {
          prefix: ['ip', 'netns', 'exec', network.machine(machine).ns],
          host: ip(machine),
          ...(role === 'projector' ? {} : { port: PORTS[role] }),
        };
      },
    };
    split = await startSplitDeployment(
      processEnv,
      { LOG_LEVEL: env.LOG_LEVEL ?? 'warn' },
      placement,
    );
    await until(
      'host B the synchronous standby',
      120_000,
      async () => (await patroniRoleAt(ip('host-b'))) === 'sync',
      logs,
    );
    const front = split;
    balancer = await startBalancer(
      [front.commands[0].url, front.commands[1].url],
      [front.queries[0].url, front.queries[1].url],
      front.gateway.url,
      undefined,
      { prefix: ['ip', 'netns', 'exec', network.machine(FRONT).ns], host: ip(FRONT) },
    );
    const onHost = (h: Host) => front.processes.filter((p) => new URL(p.url).hostname === ip(h));
    const restart = async (h: Host) => {
      startNode(h);
      startDatabaseHaproxy(h);
      const n = HOSTS.indexOf(h);
      // Its processes start once the primary answers through its HAProxy (their migrations).
      await until(
        `${h}'s HAProxy reaching the primary again`,
        30_000,
        () => reachesPrimary(h),
        logs,
      );
      const [command, query, projector] = await Promise.all([
        spawnSplitProcess('command', n, processEnv, placement),
        spawnSplitProcess('query', n, processEnv, placement),
        spawnSplitProcess('projector', n, processEnv, placement),
      ]);
      const replace = (list: ServiceProcess[], dead: ServiceProcess, alive: ServiceProcess) =>
        list.splice(list.indexOf(dead), 1, alive);
      replace(front.processes, front.commands[n]!, command);
      replace(front.processes, front.queries[n]!, query);
      replace(front.processes, front.projectors[n]!, projector);
      front.commands[n] = command;
      front.queries[n] = query;
      front.projectors[n] = projector;
    };
    return {
      network,
      url: balancer.url,
      balancer,
      split: front,
      processesOn: onHost,
      roleOf: (h) => patroniRoleAt(ip(h)),
      databaseUrl,
      postmasterOf: (h) => postmasterOf(path.join(dir, NODE[h], 'data', 'pg')),
      kill: (h) => network.kill(h),
      restart,
      logs,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
