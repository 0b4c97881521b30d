// Over 300 lines: one scenario on one cluster that takes a minute to start; the profile's reading,
// its machines, a partition and a kill share it.
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeClusterDir } from '@rr/platform';
import { Client } from '../support/app.ts';
import {
  BookingLoad,
  confirmationsOncePerBooking,
  createLoadRoom,
  now,
  REQUEST_TIMEOUT_MS,
  switchFigures,
  waitFor,
  type Outcome,
} from '../support/booking-load.ts';
import { sleep } from '../support/wait-for.ts';
import { httpStatus, missingHaPackages } from '../support/ha-cluster.ts';
import {
  databaseHaproxyConfig,
  patroniRoleAt,
  preparePatroniHome,
  startPatroniOn,
} from '../support/patroni-machines.ts';
import { createNetwork, type Network } from '../support/machines.ts';

/**
 * The `ha` profile of docker-compose.yml, run as written but without a Docker engine:
 * every container of the profile is a machine (a network namespace named after the service, on
 * one bridge, each naming the others in its hosts file as Docker's network does), running what
 * its image would run, from Debian's packages:
 *   - etcd with the service's command line (its data folder, a volume, moved into the test's);
 *   - each Patroni node as `postgres` with deploy/ha/patroni.yml and the service's environment,
 *     its volume bind-mounted on /var/lib/postgresql and its own /tmp and socket folder;
 *   - HAProxy with deploy/ha/haproxy.cfg: `haproxy -c` passes on the file as it is; it runs
 *     without the file's `resolvers docker` (Docker's DNS at 127.0.0.11 exists only in a Docker
 *     network; the machine's hosts file names the nodes instead);
 *   - each service of the image (`build: .`) with the Dockerfile's ENV and CMD and the service's
 *     environment (plus its own DATA_DIR, as a container's own disk, and no cart rate limit for
 *     the load).
 * Differences that remain: Debian's patroni 3.0, etcd 3.4 and HAProxy 2.6 instead of the images'
 * versions; the services start once the cluster is up (compose restarts them until it is).
 * Shown: the profile bootstraps (post_bootstrap creates the application's role and database), the
 * services book through its gateway and read on the replicas; a network partition of the primary
 * and, later, kill -9 of the new primary's machine each switch the primary with Patroni's timing
 * of the file (ttl 30 s); meanwhile requests are answered 503 problem+json, none hangs and none
 * is answered otherwise; no acknowledged booking is lost; the cut-off node steps down and
 * rejoins as the synchronous standby once the partition heals.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const ADMIN_PASSWORD = 'compose-admin-password';
const WORKERS = 3;

interface Service {
  image?: string;
  build?: string;
  command?: string[] | string;
  environment?: Record<string, string>;
  volumes?: string[];
  deploy?: { replicas?: number };
  profiles?: string[];
}

/**
 * A container of the profile. A service of one container is named after the service; each
 * replica of `deploy.replicas` is `<project>-<service>-<n>`, known by the service's name too, as
 * Docker Compose names and resolves them (the project is the folder's name).
 */
interface Container {
  name: string;
  aliases: string[];
  service: Service;
}

const project = path
  .basename(root)
  .toLowerCase()
  .replace(/[^a-z0-9_-]/g, '');
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), {
  merge: true,
}) as { services: Record<string, Service> };
const containers: Container[] = Object.entries(compose.services)
  .filter(([, s]) => s.profiles?.includes('ha'))
  .flatMap(([name, service]) => {
    const replicas = service.deploy?.replicas ?? 1;
    return replicas === 1
      ? [{ name, aliases: [], service }]
      : Array.from({ length: replicas }, (_, i) => ({
          name: `${project}-${name}-${i + 1}`,
          aliases: [name],
          service,
        }));
  });
const isEtcd = (c: Container) => c.service.image?.includes('etcd') ?? false;
const isPatroni = (c: Container) => c.service.image?.startsWith('postgres:') ?? false;
const isHaproxy = (c: Container) => c.service.image?.startsWith('haproxy:') ?? false;
const roleOf = (c: Container) =>
  c.service.build ? c.service.environment?.SERVICE_ROLE : undefined;

/** The compose file's `${NAME:-default}` in a value, from the test's settings. */
const interpolate = (value: string) =>
  String(value).replace(/\$\{(\w+):-([^}]*)\}/g, (_, name: string, fallback: string) =>
    name === 'ADMIN_PASSWORD' ? ADMIN_PASSWORD : fallback,
  );
const environmentOf = (c: Container) =>
  Object.fromEntries(
    Object.entries(c.service.environment ?? {}).map(([k, v]) => [k, interpolate(v)]),
  );
/** The host file a service mounts on `target` (its volume `./file:target[:ro]`). */
const mountedFile = (c: Container, target: string) => {
  const volume = c.service.volumes?.find((v) => v.split(':')[1] === target);
  if (!volume) throw new Error(`${c.name} mounts nothing on ${target}`);
  return path.resolve(root, volume.split(':')[0]!);
};

/** The Dockerfile's ENV (key=value pairs) and CMD (exec form). */
function dockerfile(): { env: Record<string, string>; cmd: string[] } {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const env: Record<string, string> = {};
  for (const line of text.matchAll(/^ENV (.+)$/gm))
    for (const pair of line[1]!.trim().split(/\s+/)) {
      const [k, ...v] = pair.split('=');
      env[k!] = v.join('=');
    }
  const cmd = JSON.parse(/^CMD (\[.+\])$/m.exec(text)![1]!) as string[];
  return { env, cmd };
}

let network: Network;
let dir: string;
const children: ChildProcess[] = [];
let gatewayUrl: string;
let primaryPool: pg.Pool;
const visitors = new BookingLoad(() => gatewayUrl);
const slots: string[] = [];
const patroniNodes = containers.filter(isPatroni).map((c) => c.name);

const baseEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' });
/** psql on a node as the application's role of the file's post_bootstrap. */
const psqlEnv = {
  PGHOST: '127.0.0.1',
  PGUSER: 'rr',
  PGPASSWORD: 'rr',
  PGDATABASE: 'reading_rooms',
};
const logOf = (name: string) => path.join(dir, `${name}.log`);
const tail = (name: string) => {
  try {
    return readFileSync(logOf(name), 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '';
  }
};

/** What a node's Patroni REST API says, seen from the test's host. */
const patroniRole = (node: string) => patroniRoleAt(network.machine(node).ip);
/** Whether a node's own PostgreSQL takes writes, asked on the node itself (it may be cut off). */
async function writableOnNode(node: string): Promise<boolean | 'down'> {
  try {
    const { stdout } = await promisify(execFile)(
      'ip',
      ['netns', 'exec', network.machine(node).ns, 'psql', '-XAtc', 'SELECT pg_is_in_recovery()'],
      { env: { ...baseEnv(), ...psqlEnv, PGCONNECT_TIMEOUT: '2' }, timeout: 5000 },
    );
    return stdout.trim() === 'f';
  } catch {
    return 'down';
  }
}

function startPatroni(c: Container): void {
  children.push(
    startPatroniOn(network, c.name, path.join(dir, c.name), environmentOf(c), logOf(c.name)),
  );
}

async function startService(c: Container): Promise<void> {
  const image = dockerfile();
  const env: Record<string, string> = {
    ...baseEnv(),
    ...image.env,
    ...environmentOf(c),
    DATA_DIR: path.join(dir, c.name),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_CARTS: '1000000',
  };
  const [program, ...args] = image.cmd;
  expect(program).toBe('node');
  children.push(
    network.run(c.name, [process.execPath, ...args], { env, log: logOf(c.name), cwd: root }),
  );
  if (env.SERVICE_ROLE === 'projector') return;
  const url = `http://${network.machine(c.name).ip}:${env.PORT}/api/healthz`;
  await waitFor(`${c.name} answering`, 60_000, async () =>
    (await httpStatus(url)) === 200 ? true : false,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${tail(c.name)}`);
  });
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const r = await primaryPool.query<{ n: string }>(sql, params);
  return Number(r.rows[0]!.n);
}

/** Owners of the bookings acknowledged in a log that the primary's event log lacks. */
async function acknowledgedMissing(log: Outcome[]): Promise<string[]> {
  const owners = new Set(
    (
      await primaryPool.query<{ owner: string }>(
        `SELECT data->>'ownerId' AS owner FROM events WHERE event_type = 'TransactionBooked'`,
      )
    ).rows.map((r) => r.owner),
  );
  return log
    .filter((o) => o.op === 'book' && o.status === 200 && !owners.has(o.ownerId!))
    .map((o) => o.ownerId!);
}

/**
 * Books under load while `breakPrimary` takes the primary away, until the other node leads and
 * bookings are acknowledged again; prints the switch's figures and asserts its rules (nothing
 * acknowledged lost, 2xx or 503 problem+json only, none hung). Answers which node was the
 * primary, which is now, and when it was promoted.
 */
async function switchUnderLoad(
  what: string,
  breakPrimary: (node: string) => void,
): Promise<{ oldPrimary: string; newPrimary: string; promotedAt: number }> {
  const oldPrimary = await waitFor('one primary', 10_000, async () => {
    for (const n of patroniNodes) if ((await patroniRole(n)) === 'primary') return n;
    return false;
  });
  const newPrimary = patroniNodes.find((n) => n !== oldPrimary)!;
  await waitFor(`${newPrimary} the synchronous standby`, 120_000, async () =>
    (await patroniRole(newPrimary)) === 'sync' ? true : false,
  );
  const log: Outcome[] = [];
  const loadStartedAt = now();
  const load = visitors.start(slots, log, WORKERS);
  await sleep(4000);
  while (visitors.bookingsInFlight === 0) await sleep(1);
  const brokeAt = now();
  breakPrimary(oldPrimary);
  // Patroni's timing of the file: the leader key lives 30 s, looked at every 10 s.
  await waitFor(`${newPrimary} promoted`, 90_000, async () =>
    (await patroniRole(newPrimary)) === 'primary' ? true : false,
  );
  const promotedAt = now();
  const recovered = await waitFor<Outcome>(`a booking acknowledged after the ${what}`, 60_000, () =>
    Promise.resolve(
      log.find((o) => o.op === 'book' && o.status === 200 && o.start > brokeAt) ?? false,
    ),
  );
  await sleep(5000);
  const stoppedAt = now();
  await load.stop();
  const figures = switchFigures(log, {
    loadStartedAt,
    brokeAt,
    promotedAt,
    recoveredAt: recovered.end,
    stoppedAt,
  });
  const missing = await acknowledgedMissing(log);
  console.log(
    `compose profile, ${what}`,
    JSON.stringify({
      ...figures,
      bookings: {
        acknowledged: log.filter((o) => o.op === 'book' && o.status === 200).length,
        acknowledgedMissing: missing.length,
      },
    }),
  );
  expect(missing).toEqual([]);
  expect(log.filter((o) => o.status !== 503 && (o.status < 200 || o.status >= 300))).toEqual([]);
  expect(log.filter((o) => o.status === 503 && !o.problem)).toEqual([]);
  expect(figures.duringSwitch['503']).toBeGreaterThan(0);
  expect(figures.wholeRun.slowestMs).toBeLessThan(REQUEST_TIMEOUT_MS);
  return { oldPrimary, newPrimary, promotedAt };
}

beforeAll(async () => {
  const missing = missingHaPackages();
  if (!['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip'].some((f) => existsSync(f)))
    missing.push('iproute2');
  if (missing.length)
    throw new Error(
      `The HA test needs Debian packages: apt-get install -y ${missing.join(' ')} (.ci/run installs them)`,
    );
  const startedAt = now();
  dir = await makeClusterDir('rr-compose-');
  network = createNetwork(containers);
  // etcd: the service's command line, its data volume in the test's folder.
  for (const c of containers.filter(isEtcd)) {
    const [program, ...args] = c.service.command as string[];
    expect(program).toBe('etcd');
    mkdirSync(path.join(dir, c.name), { mode: 0o700 });
    const flags = args.map((a) =>
      a.startsWith('--data-dir=') ? `--data-dir=${path.join(dir, c.name)}` : a,
    );
    children.push(
      network.run(c.name, ['/usr/bin/etcd', ...flags, '--log-level=warn'], {
        env: baseEnv(),
        log: logOf(c.name),
      }),
    );
    await waitFor('etcd healthy', 20_000, async () =>
      (await httpStatus(`http://${network.machine(c.name).ip}:2379/health`)) === 200 ? true : false,
    );
  }
  // The Patroni nodes side by side, as compose starts them: one bootstraps, the other follows.
  for (const c of containers.filter(isPatroni)) {
    preparePatroniHome(
      path.join(dir, c.name),
      readFileSync(mountedFile(c, '/etc/patroni.yml'), 'utf8'),
    );
    startPatroni(c);
  }
  for (const c of containers.filter(isHaproxy)) {
    const file = mountedFile(c, '/usr/local/etc/haproxy/haproxy.cfg');
    // The file as it is passes HAProxy's check on its machine (the nodes' names resolve there).
    execFileSync('ip', ['netns', 'exec', network.machine(c.name).ns, 'haproxy', '-c', '-f', file], {
      stdio: 'pipe',
    });
    const running = databaseHaproxyConfig(file);
    expect(running).not.toContain('resolvers');
    writeFileSync(path.join(dir, 'haproxy.cfg'), running);
    children.push(
      network.run(c.name, ['/usr/sbin/haproxy', '-db', '-f', path.join(dir, 'haproxy.cfg')], {
        env: baseEnv(),
        log: logOf(c.name),
      }),
    );
  }
  const [haproxy] = containers.filter(isHaproxy);
  const haproxyIp = network.machine(haproxy!.name).ip;
  await waitFor('a primary', 120_000, async () =>
    (await Promise.all(patroniNodes.map(patroniRole))).includes('primary') ? true : false,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${patroniNodes.map(tail).join('\n')}`);
  });
  // The application's role and database, made by the file's post_bootstrap, through HAProxy.
  primaryPool = new pg.Pool({
    connectionString: `postgres://rr:rr@${haproxyIp}:5000/reading_rooms`,
    max: 2,
  });
  primaryPool.on('error', () => undefined);
  await waitFor('HAProxy reaching the primary as rr', 30_000, async () =>
    (await primaryPool.query<{ ro: boolean }>('SELECT pg_is_in_recovery() AS ro')).rows[0]?.ro ===
    false
      ? true
      : false,
  );

  const primaryAt = now();
  // The services of the image: writers, readers and projectors side by side, then the gateway
  // (the standby may still be joining).
  const apps = containers.filter((c) => roleOf(c) !== undefined);
  await Promise.all(apps.filter((c) => roleOf(c) !== 'gateway').map(startService));
  const gateway = apps.find((c) => roleOf(c) === 'gateway')!;
  await startService(gateway);
  gatewayUrl = `http://${network.machine(gateway.name).ip}:${environmentOf(gateway).PORT}`;
  const servicesAt = now();
  await waitFor('the synchronous standby', 120_000, async () =>
    (await Promise.all(patroniNodes.map(patroniRole))).includes('sync') ? true : false,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${patroniNodes.map(tail).join('\n')}`);
  });
  console.log(
    'compose profile, start',
    JSON.stringify({
      primarySeconds: +((primaryAt - startedAt) / 1000).toFixed(1),
      servicesAnsweringSeconds: +((servicesAt - startedAt) / 1000).toFixed(1),
      synchronousStandbySeconds: +((now() - startedAt) / 1000).toFixed(1),
    }),
  );

  const admin = new Client(gatewayUrl);
  expect((await admin.login('admin', ADMIN_PASSWORD)).status).toBe(200);
  slots.push(...(await createLoadRoom(admin, 'Compose room', 3)).slots);
});

afterAll(async () => {
  await primaryPool?.end().catch(() => undefined);
  network?.stop();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
});

describe('the ha profile of docker-compose.yml, run as written', () => {
  it('has the topology of the failover test: etcd, two Patroni nodes, HAProxy, the split services', () => {
    const names = (f: (c: Container) => boolean) => containers.filter(f).map((c) => c.name);
    expect(names(isEtcd)).toEqual(['etcd']);
    expect(patroniNodes).toEqual(['patroni1', 'patroni2']);
    expect(names(isHaproxy)).toEqual(['haproxy']);
    const byRole = (role: string) => names((c) => roleOf(c) === role);
    expect(byRole('command')).toEqual(['ha-command-1', 'ha-command-2']);
    expect(byRole('query')).toEqual(['ha-query-1', 'ha-query-2']);
    expect(byRole('projector')).toEqual([
      `${project}-ha-projections-1`,
      `${project}-ha-projections-2`,
    ]);
    expect(byRole('gateway')).toEqual(['ha-gateway']);
    // Each address the gateway names reaches one container of the network (a replica's own name
    // carries the project's name, which the file cannot know).
    const gateway = environmentOf(containers.find((c) => roleOf(c) === 'gateway')!);
    const urls = [gateway.GATEWAY_COMMAND_URLS!, gateway.GATEWAY_QUERY_URLS!].join(',').split(',');
    for (const url of urls) expect(network.resolve(new URL(url).hostname), url).toHaveLength(1);
  });

  it('books through its gateway and reads on the replicas with read-your-writes', async () => {
    for (let i = 0; i < 6; i++) {
      const o = await visitors.bookOnce(
        slots[i % slots.length]!,
        `plain-${i}-${Math.random()}`,
        [],
      );
      expect(o.status).toBe(200);
      const read = await fetch(`${gatewayUrl}/api/owners/${o.ownerId}/tickets`, {
        headers: { 'X-Min-Position': o.position! },
      });
      expect(read.status).toBe(200);
      expect(read.headers.get('x-read-stale')).toBeNull();
      expect(((await read.json()) as { status: string }[]).map((t) => t.status)).toEqual([
        'BOOKED',
      ]);
    }
    // The readers' sessions are on the standby (HAProxy's replica ports), which cannot write.
    const writable = await Promise.all(patroniNodes.map(writableOnNode));
    const standby = patroniNodes.find((_, i) => writable[i] === false)!;
    expect(standby).toBeDefined();
    const onStandby = execFileSync(
      'ip',
      [
        'netns',
        'exec',
        network.machine(standby).ns,
        'psql',
        '-XAtc',
        `SELECT count(*) FROM pg_stat_activity WHERE datname = 'reading_rooms' AND usename = 'rr'`,
      ],
      { env: { ...baseEnv(), ...psqlEnv } },
    );
    // Our own psql session is one of them.
    expect(Number(onStandby.toString().trim())).toBeGreaterThan(1);
  });

  it('a network partition of the primary: the standby takes over, the cut-off node steps down and rejoins once healed', async () => {
    // From the cut until the heal, the cut-off node is asked on itself, every half second,
    // whether it takes writes (`true`), is read-only (`false`) or has its PostgreSQL stopped.
    let cutAt = 0;
    let steppedDownAt = 0;
    let sampling = true;
    let sampler: Promise<void> = Promise.resolve();
    const seen = { writable: 0, readOnly: 0, down: 0, writableAfterStepDown: 0 };
    const { oldPrimary, promotedAt } = await switchUnderLoad('partition of the primary', (node) => {
      network.cut(node);
      cutAt = now();
      sampler = (async () => {
        while (sampling) {
          const state = await writableOnNode(node);
          if (state === true) {
            seen.writable += 1;
            if (steppedDownAt) seen.writableAfterStepDown += 1;
          } else {
            seen[state === false ? 'readOnly' : 'down'] += 1;
            steppedDownAt ||= now();
          }
          await sleep(500);
        }
      })();
    });
    // Cut off from etcd, the old primary's Patroni demotes it: no second writable primary.
    await waitFor(`${oldPrimary} stepping down while cut off`, 60_000, () =>
      Promise.resolve(steppedDownAt > 0 ? true : false),
    );
    // A few more samples after the step-down: it stays down or read-only until the heal.
    await sleep(3000);
    sampling = false;
    await sampler;
    network.heal(oldPrimary);
    const healedAt = now();
    await waitFor(`${oldPrimary} rejoining as the synchronous standby`, 120_000, async () =>
      (await patroniRole(oldPrimary)) === 'sync' ? true : false,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${tail(oldPrimary)}`);
    });
    console.log(
      'compose profile, after the partition',
      JSON.stringify({
        stepDownSecondsAfterCut: +((steppedDownAt - cutAt) / 1000).toFixed(1),
        samplesWhileCutOff: seen,
        rejoinedSecondsAfterHeal: +((now() - healedAt) / 1000).toFixed(1),
      }),
    );
    // It stepped down before the other node was promoted, and took no writes again until the
    // heal: never two primaries.
    expect(steppedDownAt).toBeLessThan(promotedAt);
    expect(seen.writableAfterStepDown).toBe(0);
    expect(seen.writable).toBeGreaterThan(0);
    expect(await writableOnNode(oldPrimary)).toBe(false);
  });

  it('kill -9 of the primary machine: the other node takes over, nothing acknowledged is lost', async () => {
    await switchUnderLoad('kill of the primary machine', (node) => network.kill(node));
    // Every booking's confirmation queued exactly once across both switches.
    expect(await confirmationsOncePerBooking(primaryPool)).toBe(
      await count(`SELECT count(*) AS n FROM events WHERE event_type = 'TransactionBooked'`),
    );
  });
});
