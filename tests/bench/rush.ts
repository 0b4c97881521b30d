/**
 * The opening rush against the real server (`npm run bench:rush`): BENCH_RUSH_VISITORS (1,000)
 * visitors arrive evenly over BENCH_RUSH_SECONDS (30) for the 300 seats of one day whose booking
 * window has just opened (3 rooms x 4 slots x 25 seats), each walking the SPA's journey
 * (tests/support/rush.ts). Open loop: arrivals do not wait for earlier visitors.
 *
 * Two deployments on one PostgreSQL, each on a database of its own: the all-in-one process
 * (`SERVICE_ROLE=all`, as `npm start` runs it) and the split one behind the gateway (two command
 * processes, two query processes, a projector). Before them, the TPC-B baseline of the same
 * PostgreSQL (as bench:commands).
 *
 * Prints per step p50/p95/p99/max, 5xx, shed load (503), other errors, seats booked (in the
 * answers and in the log), the time until the last seat was taken, how stale the calendars were,
 * and CPU ms per journey of the server processes and PostgreSQL; writes bench-results.json key
 * "rush". Exits 1 when a check fails: seats booked not exactly the seats (when demand exceeds
 * them), a 5xx, a visitor not answered.
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { addDays, ensureDatabase, todayIn } from '@rr/platform';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import { RUSH_STEPS, runRush, type RushOutcome, type RushSend } from '../support/rush.ts';
import {
  percentiles,
  positiveNumber,
  printTable,
  round,
  runMain,
  withBenchDatabase,
  writeResults,
} from './lib.ts';
import { cpuPerOperation, cpuSeconds, createTpcbTables, statFields, tpcb } from './server-load.ts';

const VISITORS = Math.round(positiveNumber('BENCH_RUSH_VISITORS', 1000));
const SECONDS = positiveNumber('BENCH_RUSH_SECONDS', 30);
const BASELINE_SECONDS = positiveNumber('BENCH_SECONDS', 10);
const CLIENTS = Math.round(positiveNumber('BENCH_CLIENTS', 16));
const DEPLOYMENTS = (process.env.BENCH_RUSH_DEPLOYMENTS ?? 'all,split').split(',');
for (const d of DEPLOYMENTS) {
  if (d !== 'all' && d !== 'split') {
    console.error(`BENCH_RUSH_DEPLOYMENTS lists all and/or split, not ${d}`);
    process.exit(2);
  }
}
/** Settings of the server processes for an A/B, e.g. `PUBLIC_READ_CACHE_MS=0 LOAD_SHED_QUEUE=0`. */
const SERVER_ENV = Object.fromEntries(
  (process.env.BENCH_RUSH_SERVER_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const ROOMS = 3;
const TIMES = [
  ['08:00', '10:00'],
  ['10:00', '12:00'],
  ['12:00', '14:00'],
  ['14:00', '16:00'],
] as const;
const CAPACITY = 25;
const SEATS = ROOMS * TIMES.length * CAPACITY;
/** The seats' day is the last of the rooms' booking window: its window opened today. */
const WINDOW_DAYS = 7;
/** A request longer than this has no answer (counted with the 5xx). */
const REQUEST_TIMEOUT_MS = 30_000;
const ADMIN_PASSWORD = 'bench-admin-password';
const TIME_ZONE = 'Europe/Vienna';
/** Step targets in the all-in-one process. */
const P99_TARGET_MS = 500;

const agent = new http.Agent({ keepAlive: true, maxSockets: 4096 });

/** node:http with keep-alive (fetch costs the benchmark's client several times as much CPU). */
function sender(base: string, cookie = ''): RushSend {
  return (method, url, body, headers = {}) =>
    new Promise((resolve) => {
      const payload = body === undefined ? null : JSON.stringify(body);
      const req = http.request(
        base + url,
        {
          method,
          agent,
          timeout: REQUEST_TIMEOUT_MS,
          headers: {
            'X-Requested-With': 'XMLHttpRequest',
            ...(cookie ? { Cookie: cookie } : {}),
            ...(payload === null
              ? {}
              : {
                  'Content-Type': 'application/json',
                  'Content-Length': String(Buffer.byteLength(payload)),
                }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              // not JSON: kept as text
            }
            const retryAfter = res.headers['retry-after'];
            resolve({
              status: res.statusCode ?? 0,
              body: parsed,
              retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            });
          });
          res.on('error', () => resolve({ status: 0, body: null, retryAfter: null }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve({ status: 0, body: null, retryAfter: null }));
      req.end(payload ?? undefined);
    });
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/** The rooms and slots of the rush, created by staff; answers the slot ids once visitors see them. */
async function setUp(base: string, day: string, month: string): Promise<string[]> {
  const admin = sender(base, await signIn(base));
  const slotIds: string[] = [];
  for (let r = 0; r < ROOMS; r++) {
    const room = await admin('POST', '/api/admin/rooms', {
      name: `Rush room ${r + 1}`,
      description: 'Opening rush',
      capacity: CAPACITY,
      openStartValue: 1,
      openStartType: 'DAY',
      openEndValue: WINDOW_DAYS,
      openEndType: 'DAY',
    });
    if (room.status !== 201) throw new Error(`room: ${room.status} ${JSON.stringify(room.body)}`);
    const roomId = (room.body as { id: string }).id;
    for (const [startTime, endTime] of TIMES) {
      const slot = await admin('POST', `/api/admin/rooms/${roomId}/timeslots`, {
        startTime,
        endTime,
        startDate: day,
        repeatUntil: day,
        daysOfWeek: [],
        includeHolidays: true,
        capacity: CAPACITY,
      });
      if (slot.status !== 201) throw new Error(`slot: ${slot.status}`);
    }
    // The read models follow the log: wait until visitors see the room's slots.
    for (let i = 0; ; i++) {
      const slots = await admin('GET', `/api/rooms/${roomId}/booking?${month}`);
      const ids = slots.status === 200 ? (slots.body as { id: string }[]).map((s) => s.id) : [];
      if (ids.length === TIMES.length) {
        slotIds.push(...ids);
        break;
      }
      if (i > 400) throw new Error(`the slots of ${roomId} do not show`);
      await new Promise((res) => setTimeout(res, 25));
    }
  }
  return slotIds;
}

interface Deployment {
  base: string;
  pids: number[];
  processes: ServiceProcess[];
}

async function start(kind: 'all' | 'split', url: string, dataDir: string): Promise<Deployment> {
  const env = {
    DATABASE_URL: url,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    DATA_DIR: dataDir,
    TIME_ZONE,
    RATE_LIMIT_CARTS: '1000000',
    RATE_LIMIT_OWNER_LOOKUPS: '1000000',
    LOG_LEVEL: 'error',
    // The rooms of the rush only: the demo's rooms would take visitors (and seats) elsewhere.
    SEED_DEMO_DATA: 'false',
    ...SERVER_ENV,
  };
  if (kind === 'all') {
    const all = await spawnService('all', env);
    return { base: all.url, pids: [all.child.pid!], processes: [all] };
  }
  // The first command process migrates and creates the admin; the others start beside it.
  // Behind the gateway, as deployed: the client address is the gateway's X-Forwarded-For.
  const behind = { ...env, TRUST_PROXY: 'loopback' };
  const commandA = await spawnService('command', behind);
  const [commandB, queryA, queryB, projector] = await Promise.all([
    spawnService('command', behind),
    spawnService('query', behind),
    spawnService('query', behind),
    spawnService('projector', env),
  ]);
  const gateway = await spawnService('gateway', {
    GATEWAY_COMMAND_URLS: `${commandA.url},${commandB.url}`,
    GATEWAY_QUERY_URLS: `${queryA.url},${queryB.url}`,
    LOG_LEVEL: 'error',
  });
  const processes = [commandA, commandB, queryA, queryB, projector, gateway];
  return { base: gateway.url, pids: processes.map((p) => p.child.pid!), processes };
}

interface DeploymentFigures {
  steps: Record<string, ReturnType<typeof percentiles>>;
  outcome: Omit<RushOutcome, 'latencies' | 'statuses'> & { statuses: Record<string, number> };
  seatsInLog: number;
  staleShare: number;
  cpuMsPerJourney: { server: number; bench: number; postgres: number };
  checks: Record<string, boolean>;
}

async function rushOn(
  kind: 'all' | 'split',
  url: string,
  postmaster: number,
): Promise<DeploymentFigures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rr-bench-rush-'));
  let deployment: Deployment | null = null;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    console.log(`\n${kind}: starting ...`);
    deployment = await start(kind, url, dataDir);
    const today = todayIn(new Date(), TIME_ZONE);
    const day = addDays(today, WINDOW_DAYS);
    const fromDate = `${day.slice(0, 7)}-01`;
    const untilDate = addDays(`${addDays(fromDate, 40).slice(0, 7)}-01`, -1);
    const month = `fromDate=${fromDate}&untilDate=${untilDate}`;
    const slotIds = await setUp(deployment.base, day, month);
    const send = sender(deployment.base);
    // Warm-up: the reads of the journey (compiled paths, pools filled), no seat taken.
    for (let i = 0; i < 30; i++) {
      await Promise.all([
        send('GET', '/api/rooms?limit=999&offset=0&sort=order:ASC'),
        send('GET', `/api/transactions/00000000-0000-4000-8000-000000000000`),
      ]);
    }
    console.log(`${kind}: ${VISITORS} visitors over ${SECONDS} s for ${SEATS} seats on ${day}`);
    const before = cpuSeconds(deployment.pids, postmaster);
    const outcome = await runRush({
      visitors: VISITORS,
      seconds: SECONDS,
      fromDate,
      untilDate,
      day,
      send,
    });
    const cpu = cpuPerOperation(before, cpuSeconds(deployment.pids, postmaster), VISITORS);
    const log = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE event_type = 'TicketBooked' AND stream_id = ANY($1)`,
      [slotIds.map((id) => `timeslot-${id}`)],
    );
    const seatsInLog = log.rows[0]!.n;
    const steps = Object.fromEntries(RUSH_STEPS.map((s) => [s, percentiles(outcome.latencies[s])]));
    // Seats wanted: one each, a second for every third visitor.
    const demandExceeds = VISITORS + Math.ceil(VISITORS / 3) > SEATS;
    const checks = {
      exactSeats: !demandExceeds || (outcome.seatsBooked === SEATS && seatsInLog === SEATS),
      noServerErrors: outcome.serverErrors === 0,
      everyVisitorAnswered: outcome.answered === VISITORS,
      noRequestOver10s: outcome.slowestRequestMs < 10_000,
    };
    const { latencies: _latencies, statuses, ...rest } = outcome;
    return {
      steps,
      outcome: { ...rest, statuses: Object.fromEntries(statuses) },
      seatsInLog,
      staleShare: outcome.adds ? round(outcome.staleAdds / outcome.adds, 3) : 0,
      cpuMsPerJourney: cpu,
      checks,
    };
  } finally {
    await pool.end();
    for (const p of deployment?.processes ?? []) {
      const out = p.output();
      await p.kill();
      if (/error/i.test(out)) console.log(`${p.role} output:\n${out.slice(-2000)}`);
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

function print(kind: string, f: DeploymentFigures, baselinePerSecond: number): void {
  console.log(`\n${kind === 'all' ? 'all-in-one process' : 'split deployment behind the gateway'}`);
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
      ['503 shed (asked again after Retry-After)', o.shed],
      ['other errors', o.otherErrors],
      ['last seat taken after (s)', round(o.lastSeatMs / 1000, 1)],
      [
        'stale calendars: adds refused on a slot shown free',
        `${o.staleAdds} of ${o.adds} adds (${round(f.staleShare * 100, 1)} %)`,
      ],
      ['slowest request (ms)', round(o.slowestRequestMs)],
      [
        'CPU ms per journey: server / PostgreSQL / bench',
        `${f.cpuMsPerJourney.server} / ${f.cpuMsPerJourney.postgres} / ${f.cpuMsPerJourney.bench}`,
      ],
      ['TPC-B baseline of this run (tx/s)', baselinePerSecond],
      ...Object.entries(f.checks).map(([k, v]): [string, string] => [
        `check: ${k}`,
        v ? 'yes' : 'NO',
      ]),
    ],
  );
}

/** Drops a database of this run (with DATABASE_URL it would outlive the run). */
async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => admin.end());
}

async function main(): Promise<void> {
  await withBenchDatabase(
    { poolSize: CLIENTS + 4 },
    async ({ url, adminUrl, pool, server: postgres }) => {
      await createTpcbTables(pool, CLIENTS);
      await tpcb(pool, CLIENTS, Math.min(2, BASELINE_SECONDS / 5), CLIENTS);
      const baseline = await tpcb(pool, CLIENTS, BASELINE_SECONDS, CLIENTS);
      console.log(`baseline: ${Math.round(baseline.perSecond)} TPC-B transactions/s`);
      const backend = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const postmaster = Number(statFields(backend.rows[0]!.pid)![1]);
      const results: Record<string, DeploymentFigures> = {};
      const dbName = new URL(url).pathname.slice(1);
      for (const kind of DEPLOYMENTS as ('all' | 'split')[]) {
        // Each deployment on a database of its own (the first is the benchmark's).
        const dbUrl =
          kind === DEPLOYMENTS[0] ? url : await ensureDatabase(adminUrl, `${dbName}_${kind}`);
        try {
          results[kind] = await rushOn(kind, dbUrl, postmaster);
        } finally {
          if (dbUrl !== url) await dropDatabase(adminUrl, `${dbName}_${kind}`);
        }
        print(kind, results[kind], baseline.perSecond);
      }
      await writeResults('rush', {
        postgres,
        serverEnv: SERVER_ENV,
        visitors: VISITORS,
        seconds: SECONDS,
        seats: SEATS,
        layout: { rooms: ROOMS, slotsPerRoom: TIMES.length, capacity: CAPACITY },
        baseline: { kind: `TPC-B-like, scale ${CLIENTS}, ${CLIENTS} clients`, ...baseline },
        p99TargetMs: P99_TARGET_MS,
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
