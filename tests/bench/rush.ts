/**
 * The opening rush against the real server (`npm run bench:rush`): BENCH_RUSH_VISITORS (1,000)
 * visitors arrive evenly over BENCH_RUSH_SECONDS (30) for the 300 seats of one day whose booking
 * window has just opened (3 rooms x 4 slots x 25 seats), each walking the SPA's journey
 * (tests/support/rush.ts). Open loop: arrivals do not wait for earlier visitors.
 *
 * Deployments on one PostgreSQL, each on a database of its own: the all-in-one process
 * (`SERVICE_ROLE=all`, as `npm start` runs it) and the split one behind the gateway (two command
 * processes, two query processes, a projector); on request (`--deployments balancer`) the same
 * split processes behind HAProxy (deploy/balancer/haproxy.cfg, tests/support/balancer.ts), which
 * also prints whether its goal holds: no request waiting 5 s, each step's p99 under 1 s; and
 * (`--deployments two-hosts`, as root) the split deployment on two hosts behind HAProxy
 * (tests/support/two-hosts.ts: network namespaces, a Patroni cluster of its own with its primary
 * on host A and the synchronous standby on host B), with the same goal. Before them, the TPC-B
 * baseline of the benchmark's PostgreSQL (as bench:commands; the two hosts' cluster is another).
 *
 * Prints per step p50/p95/p99/max, 5xx, shed load (503) and whether it was asked again after its
 * Retry-After, other errors, seats booked (in the answers and in the log, none lost or doubled),
 * the time until the last seat was taken, how stale the calendars were, CPU ms per journey of the
 * server processes and PostgreSQL, and the machine's load; then, on the same deployment, cart
 * adds/s of CLIENTS clients on slots of their own (closed loop, as bench:commands) and their ratio
 * to the TPC-B baseline of the run. Writes bench-results.json key "rush" (the target's crowd, at
 * most 1,000 visitors in 30 s) or "rushOverload" (a larger crowd: `-- --visitors 5000`), with
 * "Balancer" added to the key for a run of `--deployments balancer` alone ("TwoHosts" for
 * `--deployments two-hosts` alone). Exits 1
 * when a check fails: seats booked not exactly the seats (when demand exceeds them), a booking
 * lost or doubled, a 5xx, a visitor not answered, a request waiting 10 s or longer.
 *
 * Live availability as an A/B of the same rush: every other visitor follows its room month's
 * stream of server-sent events while it is on the calendar (BENCH_RUSH_LIVE, on by default; 0:
 * none does) and drops a slot an event reports full from its choices; each visitor looks at a
 * calendar for about BENCH_RUSH_THINK_MS (1,000 ms, ±50 %) before it chooses. Printed and written:
 * the share of stale adds of the visitors following it and of those who do not.
 *
 * Flags after `--` override the settings: `--visitors N`, `--seconds S`,
 * `--deployments all,split,balancer,two-hosts`.
 */
import type { SlotSeats } from '../../query-service/src/live-availability.ts';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { comparePositions, parsePosition, START } from '@rr/events';
import { addDays, ensureDatabase, todayIn } from '@rr/platform';
import { readModelProjections } from '@rr/projections';
import { runAsAdmin } from '../support/pg-admin.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import { startBalancer, startSplitDeployment, type Balancer } from '../support/balancer.ts';
import { startTwoHosts } from '../support/two-hosts.ts';
import {
  checkRushLog,
  createRushRooms,
  rushSender,
  signInAsAdmin,
  type RushLayout,
} from '../support/rush-setup.ts';
import {
  RUSH_STEPS,
  runRush,
  type RushAnswer,
  type RushMoment,
  type RushOutcome,
  type RushSend,
  type RushWatch,
} from '../support/rush.ts';
import {
  closedLoop,
  percentiles,
  type LoadResult,
  positiveNumber,
  printTable,
  round,
  runMain,
  settle,
  withBenchDatabase,
  writeResults,
} from './lib.ts';
import {
  CartFiller,
  cpuPerOperation,
  cpuSeconds,
  createTpcbTables,
  statFields,
  tpcb,
  type CartAnswer,
  benchServerEnv,
  BENCH_ADMIN_PASSWORD,
  BENCH_TIME_ZONE,
} from './server-load.ts';

// `npm run bench:rush -- --visitors 5000`: the flags win over the environment.
const { values: flags } = parseArgs({
  options: {
    visitors: { type: 'string' },
    seconds: { type: 'string' },
    deployments: { type: 'string' },
  },
});
for (const [flag, name] of [
  ['visitors', 'BENCH_RUSH_VISITORS'],
  ['seconds', 'BENCH_RUSH_SECONDS'],
  ['deployments', 'BENCH_RUSH_DEPLOYMENTS'],
] as const) {
  if (flags[flag] !== undefined) process.env[name] = flags[flag];
}

const VISITORS = Math.round(positiveNumber('BENCH_RUSH_VISITORS', 1000));
const SECONDS = positiveNumber('BENCH_RUSH_SECONDS', 30);
const BASELINE_SECONDS = positiveNumber('BENCH_SECONDS', 10);
const CLIENTS = Math.round(positiveNumber('BENCH_CLIENTS', 16));
const DEPLOYMENTS = (process.env.BENCH_RUSH_DEPLOYMENTS ?? 'all,split').split(',');
/** How long a visitor looks at a calendar before choosing a slot (ms, ±50 %). */
const THINK_MS = Number(process.env.BENCH_RUSH_THINK_MS ?? 1000);
/** Whether every other visitor follows live availability (the A/B of the same rush). */
const LIVE = (process.env.BENCH_RUSH_LIVE ?? '1') !== '0';
/**
 * How often (ms) a probe of the benchmark reads where the read models stand during the rush, to
 * time an add's way to them apart from the way on to the streams; 0 (default): no probe (its
 * reads would count in PostgreSQL's CPU and in the checkpoints' reads).
 */
const LAG_PROBE_MS = Number(process.env.BENCH_RUSH_LAG_PROBE_MS ?? 0);
/** The target's crowd (1,000 in 30 s) or a smaller one: "rush"; a denser crowd: "rushOverload". */
const RESULTS_KEY = `${VISITORS / SECONDS > 1000 / 30 ? 'rushOverload' : 'rush'}${
  // A run of the balancer or the two hosts alone keeps its own key, so the others' figures stay
  // beside it.
  DEPLOYMENTS.every((d) => d === 'balancer')
    ? 'Balancer'
    : DEPLOYMENTS.every((d) => d === 'two-hosts')
      ? 'TwoHosts'
      : ''
}`;
/**
 * The all-in-one process, the split deployment behind the gateway, behind HAProxy, or on two
 * hosts behind HAProxy (tests/support/two-hosts.ts: network namespaces, a Patroni cluster of its
 * own; needs root).
 */
const KINDS = ['all', 'split', 'balancer', 'two-hosts'] as const;
type DeploymentKind = (typeof KINDS)[number];
for (const d of DEPLOYMENTS) {
  if (!(KINDS as readonly string[]).includes(d)) {
    console.error(`BENCH_RUSH_DEPLOYMENTS lists ${KINDS.join(', ')}, not ${d}`);
    process.exit(2);
  }
}
const settings = (raw: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (raw ?? '')
      .split(' ')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
/** Settings of the server processes for an A/B, e.g. `PUBLIC_READ_CACHE_MS=0 LOAD_SHED_QUEUE=0`. */
const SERVER_ENV = settings(process.env.BENCH_RUSH_SERVER_ENV);
/**
 * An A/B in one run: each deployment runs once more with these settings added (its figures under
 * "<deployment> B"), right after the run without them.
 */
const AB_ENV = settings(process.env.BENCH_RUSH_AB);
const VARIANTS: { suffix: string; env: Record<string, string> }[] = [
  { suffix: '', env: SERVER_ENV },
  ...(Object.keys(AB_ENV).length ? [{ suffix: ' B', env: { ...SERVER_ENV, ...AB_ENV } }] : []),
];
/** The seats' day is the last of the rooms' booking window: its window opened today. */
const LAYOUT: RushLayout = {
  rooms: 3,
  times: [
    ['08:00', '10:00'],
    ['10:00', '12:00'],
    ['12:00', '14:00'],
    ['14:00', '16:00'],
  ],
  capacity: 25,
  windowDays: 7,
};
const CAPACITY = LAYOUT.capacity;
const SEATS = LAYOUT.rooms * LAYOUT.times.length * CAPACITY;
const WINDOW_DAYS = LAYOUT.windowDays;
const ADMIN_PASSWORD = BENCH_ADMIN_PASSWORD;
const TIME_ZONE = BENCH_TIME_ZONE;
/** Step targets in the all-in-one process. */
const P99_TARGET_MS = 500;
/** No request may wait this long, shed or not (the overload requirement). */
const MAX_WAIT_MS = 10_000;
/**
 * The goal behind HAProxy: no request waits this long, and each step's p99 (of the answers
 * served, shed ones apart) stays under SERVED_P99_GOAL_MS. Printed, not a failing check.
 */
const BALANCER_MAX_WAIT_GOAL_MS = 5_000;
const SERVED_P99_GOAL_MS = 1_000;
/** Cart adds/s over the TPC-B baseline: the requirement, and the goal beyond it. */
const CART_ADD_RATIO_TARGET = 0.35;
const CART_ADD_RATIO_GOAL = 0.5;
/** Days of slots each cart-add client fills a cart on (a cart of this many tickets). */
const CART_DAYS = 5;

/**
 * A visitor's stream of a room month's live availability, on a connection of its own (as each
 * browser has one): resolves once it is open (null when refused); closing it is idempotent.
 */
function watcher(base: string): RushWatch {
  return (roomId, month, onSlots) =>
    new Promise((resolve) => {
      const req = http.get(
        `${base}/api/rooms/${roomId}/availability/stream?month=${month}`,
        { agent: false, headers: { Accept: 'text/event-stream' } },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            resolve(null);
            return;
          }
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (!block.startsWith('event: availability\n')) continue;
              const data = block.slice(block.indexOf('data: ') + 6);
              const event = JSON.parse(data) as { slots: SlotSeats[]; position: string };
              onSlots(event.slots, event.position);
            }
          });
          res.on('error', () => undefined);
          resolve(() => req.destroy());
        },
      );
      req.on('error', () => resolve(null));
    });
}

/**
 * Cart adds/s on this deployment, as bench:commands measures them: CLIENTS clients, each with a
 * room of its own and a slot on each of CART_DAYS days, filling carts one ticket per command in a
 * closed loop for BASELINE_SECONDS (after an untimed warm-up); with the CPU ms per command.
 */
async function cartAdds(
  admin: RushSend,
  send: RushSend,
  today: string,
  cpu: () => ReturnType<typeof cpuSeconds>,
) {
  const from = addDays(today, 1);
  const until = addDays(from, CART_DAYS - 1);
  const slotsOf: string[][] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const room = await admin('POST', '/api/admin/rooms', {
      name: `Cart-add room ${c + 1}`,
      description: 'Cart adds',
      capacity: 100,
      openStartValue: 1,
      openStartType: 'DAY',
      openEndValue: WINDOW_DAYS,
      openEndType: 'DAY',
    });
    if (room.status !== 201) throw new Error(`room: ${room.status} ${JSON.stringify(room.body)}`);
    const roomId = (room.body as { id: string }).id;
    const series = await admin('POST', `/api/admin/rooms/${roomId}/timeslots`, {
      startTime: '06:00',
      endTime: '06:30',
      startDate: from,
      repeatUntil: until,
      daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'],
      includeHolidays: true,
      capacity: 99_999,
    });
    if (series.status !== 201) throw new Error(`slots: ${series.status}`);
    for (let i = 0; ; i++) {
      const list = await admin(
        'GET',
        `/api/admin/rooms/${roomId}/timeslots?fromDate=${from}&untilDate=${until}`,
      );
      const slots =
        list.status === 200
          ? (list.body as { content: { id: string; date: string }[] }).content
          : [];
      if (slots.length === CART_DAYS) {
        slotsOf.push(slots.sort((a, b) => a.date.localeCompare(b.date)).map((x) => x.id));
        break;
      }
      if (i > 400) throw new Error(`the slots of ${roomId} do not show`);
      await new Promise((res) => setTimeout(res, 25));
    }
  }
  const ok = async (a: Promise<RushAnswer>) => {
    const answer = await a;
    if (answer.status !== 200 && answer.status !== 201)
      throw new Error(`cart add: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as CartAnswer;
  };
  const clients = slotsOf.map(
    (slots) =>
      new CartFiller(slots, (cart, timeSlotId) =>
        ok(
          cart
            ? send('POST', `/api/transactions/${cart}/tickets`, { timeSlotId })
            : send('POST', '/api/transactions', { timeSlotId }),
        ),
      ),
  );
  const op = (w: number) => clients[w]!.addTicket().then(() => undefined);
  await closedLoop({ clients: CLIENTS, seconds: Math.min(2, BASELINE_SECONDS / 5), op });
  const before = cpu();
  const load = await closedLoop({ clients: CLIENTS, seconds: BASELINE_SECONDS, op });
  return { ...load, cpuMsPerCommand: cpuPerOperation(before, cpu(), load.operations) };
}

/**
 * Reads where the read models stand (the least of their checkpoints, as a stream's event names
 * it) every `everyMs` on a connection of its own, until stopped: the moments it moved.
 */
function probeReadModels(url: string, everyMs: number): () => Promise<RushMoment[]> {
  const moments: RushMoment[] = [];
  const client = new pg.Client({ connectionString: url });
  let stopped = false;
  const names = readModelProjections.map((p) => p.name);
  const running = (async () => {
    await client.connect();
    let last = '';
    while (!stopped) {
      const r = await client.query<{ p: string }>(
        `SELECT last_tx::text || '_' || last_gp::text AS p FROM projection_checkpoints
          WHERE name = ANY($1) ORDER BY last_tx, last_gp LIMIT 1`,
        [names],
      );
      const position = r.rows[0]?.p ?? '0_0';
      if (position !== last) moments.push({ roomId: '', at: performance.now(), position });
      last = position;
      await new Promise((res) => setTimeout(res, everyMs));
    }
  })();
  return async () => {
    stopped = true;
    await running.finally(() => client.end());
    return moments;
  };
}

/**
 * Per successful add, the time from its answer to the first moment at or past its position (in
 * its room when the moments are a room's, as the streams' events are): how late live
 * availability tells of a seat taken. Adds no moment follows (nobody watched the room after it)
 * are counted apart.
 */
function delaysAfter(
  added: readonly RushMoment[],
  moments: readonly RushMoment[],
  sameRoom: boolean,
): { delaysMs: number[]; none: number } {
  const pos = (p: string) => parsePosition(p) ?? START;
  const sorted = [...moments]
    .sort((a, b) => a.at - b.at)
    .map((m) => ({ ...m, p: pos(m.position) }));
  const delaysMs: number[] = [];
  let none = 0;
  for (const add of added) {
    const p = pos(add.position);
    const first = sorted.find(
      (m) => (!sameRoom || m.roomId === add.roomId) && comparePositions(m.p, p) >= 0,
    );
    if (first) delaysMs.push(first.at - add.at);
    else none += 1;
  }
  return { delaysMs, none };
}

/** The delays of live availability of a rush: see DeploymentFigures.liveDelay. */
function liveDelayOf(outcome: RushOutcome, applied: readonly RushMoment[] | null) {
  const events = delaysAfter(outcome.live.added, outcome.live.arrived, true);
  const readModels = applied ? delaysAfter(outcome.live.added, applied, false) : null;
  return {
    eventAfterAnswerMs: percentiles(events.delaysMs),
    addsWithoutEvent: events.none,
    ...(readModels ? { readModelsAfterAnswerMs: percentiles(readModels.delaysMs) } : {}),
    staleFull: outcome.live.staleFull,
    staleEventAfterSendMs: percentiles(outcome.live.staleEventAfterSendMs),
  };
}

interface Deployment {
  base: string;
  pids: number[];
  processes: ServiceProcess[];
  /** Stops what runs in front of the processes (HAProxy). */
  stop?: () => Promise<void>;
  /** HAProxy's own figures of the run so far. */
  balancer?: () => Promise<BalancerFigures>;
  /**
   * A database of the deployment's own (the two hosts' cluster) instead of the benchmark's: for
   * the log's check, and its primary's postmaster for PostgreSQL's CPU.
   */
  database?: { url: string; postmaster: number };
  /** One process per network namespace the deployment uses (default: this one's). */
  namespaces?: number[];
}

/**
 * Where the waits were, as HAProxy saw them (its statistics since its start, which the rush is
 * most of): per backend the longest wait in its queue and the longest answer of a process
 * (qtime_max and rtime_max in ms; the averages are of the last 1,024 requests; its total time
 * would hold a kept-alive connection's idle time too, so it is left out), the
 * longest queue, and how often a health check took a process out.
 */
interface BalancerFigures {
  [backend: string]: {
    queueMax: number;
    queueWaitMaxMs: number;
    serverMaxMs: number;
    queueWaitAvgMs: number;
    serverAvgMs: number;
    markedDown: number;
  };
}

async function balancerFigures(b: Balancer): Promise<BalancerFigures> {
  const out: BalancerFigures = {};
  for (const backend of ['command', 'query']) {
    const row = await b.stat(backend, 'BACKEND');
    const n = (k: string) => Number(row[k] ?? 0);
    const servers = await Promise.all([1, 2].map((i) => b.stat(backend, `${backend}${i}`)));
    out[backend] = {
      queueMax: n('qmax'),
      queueWaitMaxMs: n('qtime_max'),
      serverMaxMs: n('rtime_max'),
      queueWaitAvgMs: n('qtime'),
      serverAvgMs: n('rtime'),
      markedDown: servers.reduce((sum, r) => sum + Number(r.chkdown ?? 0), 0),
    };
  }
  return out;
}

async function start(
  kind: DeploymentKind,
  url: string,
  dataDir: string,
  serverEnv: Record<string, string>,
): Promise<Deployment> {
  const env: Record<string, string> = {
    ...benchServerEnv(url, dataDir),
    // The rooms of the rush only: the demo's rooms would take visitors (and seats) elsewhere.
    SEED_DEMO_DATA: 'false',
    ...serverEnv,
  };
  if (kind === 'all') {
    const all = await spawnService('all', env);
    return { base: all.url, pids: [all.child.pid!], processes: [all] };
  }
  if (kind === 'two-hosts') {
    // Its own cluster: the benchmark's database is not reachable from the hosts' network.
    const { DATABASE_URL: _benchDatabase, ...onHosts } = env;
    const hosts = await startTwoHosts(onHosts);
    const postmaster = hosts.postmasterOf('host-a');
    if (postmaster === null) throw new Error(`host A's PostgreSQL is not running\n${hosts.logs()}`);
    return {
      base: hosts.url,
      pids: [...hosts.split.processes.map((p) => p.child.pid!), hosts.balancer.pid],
      processes: hosts.split.processes,
      stop: () => hosts.stop(),
      balancer: () => balancerFigures(hosts.balancer),
      database: { url: hosts.databaseUrl('host-a'), postmaster },
      namespaces: [hosts.balancer.pid, ...hosts.split.commands.map((p) => p.child.pid!)],
    };
  }
  // Behind the gateway or HAProxy, as deployed: the client address is the proxy's X-Forwarded-For.
  const split = await startSplitDeployment(env, { LOG_LEVEL: 'error', ...serverEnv });
  const pids = split.processes.map((p) => p.child.pid!);
  if (kind === 'split') return { base: split.gateway.url, pids, processes: split.processes };
  const balancer = await startBalancer(
    [split.commands[0].url, split.commands[1].url],
    [split.queries[0].url, split.queries[1].url],
    split.gateway.url,
  );
  return {
    base: balancer.url,
    pids: [...pids, balancer.pid],
    processes: split.processes,
    stop: () => balancer.stop(),
    balancer: () => balancerFigures(balancer),
  };
}

interface DeploymentFigures {
  steps: Record<string, ReturnType<typeof percentiles>>;
  outcome: Omit<RushOutcome, 'latencies' | 'statuses' | 'bookedOwners' | 'live'> & {
    statuses: Record<string, number>;
    /** The timelines apart (see liveDelay). */
    live: Omit<RushOutcome['live'], 'added' | 'arrived' | 'staleEventAfterSendMs'>;
  };
  seatsInLog: number;
  /** What the log holds against the booking answers. */
  log: {
    /** Owners whose confirmed booking the log lacks, or holds with fewer tickets. */
    lost: number;
    /** Tickets booked twice, owners with more tickets than confirmed, slots over capacity. */
    doubled: number;
    /** Bookings in the log whose answer never came (the request had no answer). */
    unanswered: number;
  };
  staleShare: number;
  /** The stale adds' share of the visitors following live availability and of the others. */
  liveStaleShare: { following: number; notFollowing: number };
  /**
   * How late live availability told of seats taken: from a successful add's answer to the first
   * event of its room at or past its position (and, with the probe, to the read models standing
   * there); the followers' stale adds by when their slot was reported full, and from the add's
   * sending to that event.
   */
  liveDelay?: ReturnType<typeof liveDelayOf>;
  cpuMsPerJourney: { server: number; bench: number; postgres: number };
  /** Reads of the read models' checkpoints (the read-your-writes gate, projections) per journey. */
  checkpointReadsPerJourney: number;
  /** Connections dropped at full accept queues during the rush (listenOverflows). */
  droppedConnections: number;
  /** The machine's load average (1 minute) before and after the rush: other work on it. */
  loadAverage: { before: number; after: number };
  /** Cart adds/s after the rush, with the TPC-B baseline measured just before them. */
  cartAdd: Awaited<ReturnType<typeof cartAdds>> & {
    baselinePerSecond: number;
    ratioToBaseline: number;
    loadAverage: number;
  };
  checks: Record<string, boolean>;
  /** Behind HAProxy: the goal's parts, met or not (not a failing check). */
  goals?: Record<string, boolean>;
  balancer?: BalancerFigures;
}

/**
 * Scans of the read models' checkpoints in this database so far (PostgreSQL's statistics, which
 * a backend reports within a second: read after a pause).
 */
async function checkpointReads(pool: pg.Pool): Promise<number> {
  await new Promise((r) => setTimeout(r, 1500));
  const r = await pool.query<{ n: string }>(
    `SELECT (seq_scan + coalesce(idx_scan, 0))::text AS n FROM pg_stat_user_tables
      WHERE relname = 'projection_checkpoints'`,
  );
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Connections the kernel dropped because a listening socket's accept queue was full (TcpExt
 * ListenOverflows of this network namespace, other programs' too): requests that waited outside
 * any line of the product, the client sending its SYN again after 1, 3, 7, 15, 31 s.
 */
function listenOverflows(namespaces: number[] = [process.pid]): number {
  let sum = 0;
  // A process's /proc/<pid>/net is its network namespace's: one process per namespace.
  for (const pid of namespaces) {
    const lines = readFileSync(`/proc/${pid}/net/netstat`, 'utf8').split('\n');
    for (let i = 0; i + 1 < lines.length; i += 2) {
      const names = lines[i]!.split(' ');
      if (names[0] !== 'TcpExt:') continue;
      const at = names.indexOf('ListenOverflows');
      sum += at < 0 ? 0 : Number(lines[i + 1]!.split(' ')[at]);
    }
  }
  return sum;
}

async function rushOn(
  kind: DeploymentKind,
  url: string,
  postmaster: number,
  measureBaseline: () => Promise<LoadResult>,
  serverEnv: Record<string, string>,
): Promise<DeploymentFigures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rr-bench-rush-'));
  let deployment: Deployment | null = null;
  let pool: pg.Pool | null = null;
  try {
    console.log(`\n${kind}: starting ...`);
    deployment = await start(kind, url, dataDir, serverEnv);
    pool = new pg.Pool({ connectionString: deployment.database?.url ?? url, max: 2 });
    const pids = deployment.pids;
    const cpu = () => cpuSeconds(pids, deployment?.database?.postmaster ?? postmaster);
    const namespaces = deployment.namespaces;
    const today = todayIn(new Date(), TIME_ZONE);
    const day = addDays(today, WINDOW_DAYS);
    const fromDate = `${day.slice(0, 7)}-01`;
    const untilDate = addDays(`${addDays(fromDate, 40).slice(0, 7)}-01`, -1);
    const month = `fromDate=${fromDate}&untilDate=${untilDate}`;
    const admin = rushSender(deployment.base, await signInAsAdmin(deployment.base, ADMIN_PASSWORD));
    const slotIds = await createRushRooms(admin, LAYOUT, day, month);
    const send = rushSender(deployment.base);
    // Warm-up: the reads of the journey (compiled paths, pools filled), no seat taken.
    for (let i = 0; i < 30; i++) {
      await Promise.all([
        send('GET', '/api/rooms?limit=999&offset=0&sort=order:ASC'),
        send('GET', `/api/transactions/00000000-0000-4000-8000-000000000000`),
      ]);
    }
    const loadBefore = round(os.loadavg()[0]!, 1);
    console.log(
      `${kind}: ${VISITORS} visitors over ${SECONDS} s for ${SEATS} seats on ${day} (load average ${loadBefore})`,
    );
    const readsBefore = await checkpointReads(pool);
    const overflowsBefore = listenOverflows(namespaces);
    const probe =
      LIVE && LAG_PROBE_MS > 0
        ? probeReadModels(deployment.database?.url ?? url, LAG_PROBE_MS)
        : null;
    const before = cpu();
    const outcome = await runRush({
      visitors: VISITORS,
      seconds: SECONDS,
      fromDate,
      untilDate,
      day,
      send,
      thinkMs: THINK_MS,
      ...(LIVE ? { watch: watcher(deployment.base) } : {}),
    });
    const cpuPerJourney = cpuPerOperation(before, cpu(), VISITORS);
    const applied = probe ? await probe() : null;
    const balancer = await deployment.balancer?.();
    const droppedConnections = listenOverflows(namespaces) - overflowsBefore;
    const checkpointReadsPerJourney = round(
      ((await checkpointReads(pool)) - readsBefore) / VISITORS,
      1,
    );
    const loadAfter = round(os.loadavg()[0]!, 1);
    const { seatsInLog, log } = await checkRushLog(pool, slotIds, outcome.bookedOwners, CAPACITY);
    const steps = Object.fromEntries(RUSH_STEPS.map((s) => [s, percentiles(outcome.latencies[s])]));
    // Seats wanted: one each, a second for every third visitor.
    const demandExceeds = VISITORS + Math.ceil(VISITORS / 3) > SEATS;
    // The baseline again right before the cart adds: the machine's other work changes by the minute.
    const baseline = await measureBaseline();
    console.log(
      `${kind}: TPC-B baseline ${Math.round(baseline.perSecond)}/s; cart adds of ${CLIENTS} clients for ${BASELINE_SECONDS} s ...`,
    );
    const adds = await cartAdds(admin, send, today, cpu);
    const checks = {
      exactSeats: !demandExceeds || (outcome.seatsBooked === SEATS && seatsInLog === SEATS),
      noneLostOrDoubled: log.lost === 0 && log.doubled === 0,
      noServerErrors: outcome.serverErrors === 0,
      everyVisitorAnswered: outcome.answered === VISITORS,
      noRequestOver10s: outcome.slowestRequestMs < MAX_WAIT_MS,
    };
    const goals =
      kind === 'balancer' || kind === 'two-hosts'
        ? {
            noRequestOver5s: outcome.slowestRequestMs < BALANCER_MAX_WAIT_GOAL_MS,
            servedStepsP99Under1s: Object.values(steps).every((p) => p.p99 < SERVED_P99_GOAL_MS),
          }
        : undefined;
    const {
      latencies: _latencies,
      statuses,
      bookedOwners: _owners,
      live: { added: _added, arrived: _arrived, staleEventAfterSendMs: _late, ...live },
      ...rest
    } = outcome;
    return {
      steps,
      outcome: { ...rest, live, statuses: Object.fromEntries(statuses) },
      seatsInLog,
      log,
      staleShare: outcome.adds ? round(outcome.staleAdds / outcome.adds, 3) : 0,
      liveStaleShare: {
        following: share(outcome.live.following),
        notFollowing: share(outcome.live.notFollowing),
      },
      ...(LIVE ? { liveDelay: liveDelayOf(outcome, applied) } : {}),
      cpuMsPerJourney: cpuPerJourney,
      checkpointReadsPerJourney,
      droppedConnections,
      loadAverage: { before: loadBefore, after: loadAfter },
      cartAdd: {
        ...adds,
        baselinePerSecond: baseline.perSecond,
        ratioToBaseline: round(adds.perSecond / baseline.perSecond, 3),
        loadAverage: round(os.loadavg()[0]!, 1),
      },
      checks,
      ...(goals ? { goals } : {}),
      ...(balancer ? { balancer } : {}),
    };
  } finally {
    await pool?.end();
    await deployment?.stop?.();
    for (const p of deployment?.processes ?? []) {
      const out = p.output();
      await p.kill();
      if (/error/i.test(out)) console.log(`${p.role} output:\n${out.slice(-2000)}`);
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

const share = (g: { adds: number; staleAdds: number }) =>
  g.adds ? round(g.staleAdds / g.adds, 3) : 0;

function print(
  name: string,
  env: Record<string, string>,
  f: DeploymentFigures,
  baselinePerSecond: number,
): void {
  const kind = name.startsWith('all')
    ? 'all-in-one process'
    : name.startsWith('balancer')
      ? 'split deployment behind HAProxy (deploy/balancer/haproxy.cfg)'
      : name.startsWith('two-hosts')
        ? 'split deployment on two hosts behind HAProxy, Patroni primary on host A, its synchronous standby on host B'
        : 'split deployment behind the gateway';
  const set = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  console.log(`\n${name}: ${kind}${set.length ? ` with ${set.join(' ')}` : ''}`);
  printTable(
    ['step', 'requests', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', `p99 < ${P99_TARGET_MS}`],
    Object.entries(f.steps).map(([step, p]) => [
      step,
      p.count,
      p.p50,
      p.p95,
      p.p99,
      p.max,
      p.p99 < P99_TARGET_MS ? 'yes' : 'NO',
    ]),
  );
  const o = f.outcome;
  printTable(
    ['figure', 'value'],
    [
      ['seats booked (answers / log)', `${o.seatsBooked} / ${f.seatsInLog} of ${SEATS}`],
      ['bookings, visitors who gave up', `${o.bookings}, ${o.gaveUp}`],
      ['visitors answered', `${o.answered} of ${VISITORS}`],
      ['5xx and no answer', o.serverErrors],
      [
        '503 shed / asked again after its Retry-After / still 503 after the retries',
        `${o.shed} / ${o.retriedAfterWait} / ${o.shedGaveUp}`,
      ],
      ['404 from read models behind the own write, asked again', o.staleNotFound],
      ['other errors', o.otherErrors],
      ['last seat taken after (s)', round(o.lastSeatMs / 1000, 1)],
      [
        'stale calendars: adds refused on a slot shown free',
        `${o.staleAdds} of ${o.adds} adds (${round(f.staleShare * 100, 1)} %)`,
      ],
      ...(LIVE
        ? ([
            [
              'stale adds, visitors following live availability / the others',
              `${o.live.following.staleAdds} of ${o.live.following.adds} (${round(f.liveStaleShare.following * 100, 1)} %) / ${o.live.notFollowing.staleAdds} of ${o.live.notFollowing.adds} (${round(f.liveStaleShare.notFollowing * 100, 1)} %)`,
            ],
            [
              'live streams opened / refused, events, slots dropped as full before an add',
              `${o.live.streams} / ${o.live.refusedStreams}, ${o.live.events}, ${o.live.droppedFull}`,
            ],
            ...liveDelayRows(f),
          ] as [string, string][])
        : []),
      [`slowest request (ms, < ${MAX_WAIT_MS})`, round(o.slowestRequestMs)],
      [
        'log: bookings lost / doubled / without an answer',
        `${f.log.lost} / ${f.log.doubled} / ${f.log.unanswered}`,
      ],
      [
        'CPU ms per journey: server / PostgreSQL / bench',
        `${f.cpuMsPerJourney.server} / ${f.cpuMsPerJourney.postgres} / ${f.cpuMsPerJourney.bench}`,
      ],
      ['reads of the checkpoints per journey', f.checkpointReadsPerJourney],
      ['connections dropped at a full accept queue (SYN sent again)', f.droppedConnections],
      [
        'machine load average before / after the rush',
        `${f.loadAverage.before} / ${f.loadAverage.after}`,
      ],
      [
        'TPC-B baseline of this run, at its start / before the cart adds (tx/s)',
        `${baselinePerSecond} / ${f.cartAdd.baselinePerSecond}`,
      ],
      [
        `cart adds/s, ${CLIENTS} clients, own slots (p99 ms; load average)`,
        `${f.cartAdd.perSecond} (${f.cartAdd.latencyMs.p99}; ${f.cartAdd.loadAverage})`,
      ],
      [
        `cart adds/s over the TPC-B baseline (>= ${CART_ADD_RATIO_TARGET}, goal ${CART_ADD_RATIO_GOAL})`,
        f.cartAdd.ratioToBaseline,
      ],
      [
        'CPU ms per cart add: server / PostgreSQL / bench',
        `${f.cartAdd.cpuMsPerCommand.server} / ${f.cartAdd.cpuMsPerCommand.postgres} / ${f.cartAdd.cpuMsPerCommand.bench}`,
      ],
      ...Object.entries(f.checks).map(([k, v]): [string, string] => [
        `check: ${k}`,
        v ? 'yes' : 'NO',
      ]),
      ...Object.entries(f.balancer ?? {}).map(([backend, b]): [string, string] => [
        `HAProxy ${backend}: longest queue; wait in it max / avg ms; process max / avg ms; checks down`,
        `${b.queueMax}; ${b.queueWaitMaxMs} / ${b.queueWaitAvgMs}; ${b.serverMaxMs} / ${b.serverAvgMs}; ${b.markedDown}`,
      ]),
      ...Object.entries(f.goals ?? {}).map(([k, v]): [string, string] => [
        `goal: ${k}`,
        v ? 'yes' : 'NO',
      ]),
    ],
  );
}

const spread = (p: ReturnType<typeof percentiles>) => `${p.p50} / ${p.p95} / ${p.p99} / ${p.max}`;

function liveDelayRows(f: DeploymentFigures): [string, string][] {
  const d = f.liveDelay;
  if (!d) return [];
  return [
    [
      "live event after a seat's add answered, ms p50 / p95 / p99 / max (adds no event followed)",
      `${spread(d.eventAfterAnswerMs)} (${d.addsWithoutEvent})`,
    ],
    ...(d.readModelsAfterAnswerMs
      ? ([
          [
            `read models at the add's position after its answer, ms p50 / p95 / p99 / max (probe every ${LAG_PROBE_MS} ms)`,
            spread(d.readModelsAfterAnswerMs),
          ],
        ] as [string, string][])
      : []),
    [
      "followers' stale adds: slot reported full while adding / after the answer / not while on the month",
      `${d.staleFull.whileAdding} / ${d.staleFull.afterAnswer} / ${d.staleFull.notOnMonth}`,
    ],
    [
      "followers' stale adds reported full: that event after the add's sending, ms p50 / p95 / p99 / max",
      spread(d.staleEventAfterSendMs),
    ],
  ];
}

async function main(): Promise<void> {
  await withBenchDatabase(
    { poolSize: CLIENTS + 4 },
    async ({ url, adminUrl, pool, server: postgres }) => {
      await createTpcbTables(pool, CLIENTS);
      await tpcb(pool, CLIENTS, Math.min(2, BASELINE_SECONDS / 5), CLIENTS);
      const baseline = await tpcb(pool, CLIENTS, BASELINE_SECONDS, CLIENTS);
      const baselineLoad = round(os.loadavg()[0]!, 1);
      console.log(
        `baseline: ${Math.round(baseline.perSecond)} TPC-B transactions/s (load average ${baselineLoad})`,
      );
      const backend = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const postmaster = Number(statFields(backend.rows[0]!.pid)![1]);
      const results: Record<string, DeploymentFigures> = {};
      const dbName = new URL(url).pathname.slice(1);
      let n = 0;
      for (const kind of DEPLOYMENTS as DeploymentKind[]) {
        for (const variant of VARIANTS) {
          const name = `${kind}${variant.suffix}`;
          // Each run on a database of its own (the first is the benchmark's).
          const db = `${dbName}_${n}`;
          // What the baselines and the runs before left dirty is written out first, so that its
          // checkpoint does not fall into this run (the first run's database holds the TPC-B tables).
          await settle(pool);
          const dbUrl = n++ === 0 ? url : await ensureDatabase(adminUrl, db);
          try {
            results[name] = await rushOn(
              kind,
              dbUrl,
              postmaster,
              () => tpcb(pool, CLIENTS, BASELINE_SECONDS, CLIENTS),
              variant.env,
            );
          } finally {
            // A database of this run (with DATABASE_URL it would outlive the run).
            if (dbUrl !== url)
              await runAsAdmin(adminUrl, `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
          }
          print(name, variant.env, results[name], baseline.perSecond);
        }
      }
      await writeResults(RESULTS_KEY, {
        postgres,
        serverEnv: SERVER_ENV,
        abEnv: AB_ENV,
        visitors: VISITORS,
        seconds: SECONDS,
        thinkMs: THINK_MS,
        live: LIVE,
        seats: SEATS,
        layout: { rooms: LAYOUT.rooms, slotsPerRoom: LAYOUT.times.length, capacity: CAPACITY },
        baseline: {
          kind: `TPC-B-like, scale ${CLIENTS}, ${CLIENTS} clients`,
          ...baseline,
          loadAverage: baselineLoad,
        },
        p99TargetMs: P99_TARGET_MS,
        maxWaitMs: MAX_WAIT_MS,
        cartAddRatio: { target: CART_ADD_RATIO_TARGET, goal: CART_ADD_RATIO_GOAL },
        deployments: results,
      });
      const failed = Object.entries(results).flatMap(([kind, f]) =>
        Object.entries(f.checks)
          .filter(([, ok]) => !ok)
          .map(([k]) => `${kind}: ${k}`),
      );
      if (failed.length) throw new Error(`checks failed: ${failed.join(', ')}`);
    },
  );
}

runMain(main);
