// Over 300 lines: one benchmark run against one server process and database that all its scenarios
// share; the helpers above main (HTTP client, CPU accounting, checkpoint follower) serve this
// script only.
/**
 * The write side over HTTP against the real all-in-one server process (`npm run bench:commands`).
 *
 * One database, one run:
 *   baseline     a pgbench-like TPC-B transaction (UPDATE account, SELECT balance, UPDATE teller,
 *                UPDATE branch, INSERT history) from Node with CLIENTS connections, scale CLIENTS
 *   cart add     CLIENTS visitors, each adding tickets to its own cart on its own slots: a new cart
 *                (POST /api/transactions) then four adds (POST .../tickets), then the next cart
 *   crowd        the same with CROWD visitors (BENCH_CROWD, 0: left out), against the same
 *                baseline: on two cores TPC-B gave about as much at 8 to 32 connections as at 16
 *   flow         CLIENTS visitors: new cart, a second ticket, book with personal data
 *   hot slot     HOT_REQUESTS visitors at once create a cart on one slot of capacity HOT_CAPACITY
 *   lag          cart adds at steady rates (BENCH_LAG_RATES, first the target's 200/s), once the
 *                flows' confirmation mails are sent; the time from a command's answer until
 *                every read model's checkpoint has passed its position
 *   rss          the server's resident memory when idle and its peak under the cart-add load
 * Prints each figure with its ratio to the baseline or its target, and writes them to
 * bench-results.json (key "commands"). Exits 1 when a correctness check fails.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { comparePositions, parsePosition, type Position } from '@rr/events';
import { addDays, todayIn } from '@rr/platform';
import { readModelProjections } from '@rr/projections';
import { ensureCompiledServer, spawnService, type ServiceProcess } from '../support/processes.ts';
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
import {
  closedLoop,
  openLoop,
  percentiles,
  positiveNumber,
  printTable,
  round,
  runMain,
  statementStats,
  withBenchDatabase,
  writeResults,
} from './lib.ts';

const SECONDS = positiveNumber('BENCH_SECONDS', 10);
const CLIENTS = Math.round(positiveNumber('BENCH_CLIENTS', 16));
/** The visitors of the crowd's cart adds (0: not measured). */
const CROWD = Number(process.env.BENCH_CROWD ?? 64);
if (!Number.isInteger(CROWD) || CROWD < 0) {
  console.error(`BENCH_CROWD must be a whole number of visitors (0 leaves the crowd out)`);
  process.exit(2);
}
const HOT_REQUESTS = Math.round(positiveNumber('BENCH_HOT_REQUESTS', 500));
const HOT_CAPACITY = Math.round(positiveNumber('BENCH_HOT_CAPACITY', 50));
// The first rate is the target's; the others show where the lag stays low on this machine.
const LAG_RATES = (process.env.BENCH_LAG_RATES ?? '200,150,100').split(',').map((r) => {
  const n = Number(r);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`BENCH_LAG_RATES must list positive numbers, not ${r}`);
    process.exit(2);
  }
  return n;
});
const LAG_RATE = LAG_RATES[0]!;
const WARMUP_SECONDS = Math.min(2, SECONDS / 5);
/** Print PostgreSQL's statistics of the cart adds' statements (pg_stat_statements). */
const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
/** Wait for the flows' mails to be sent before the lag is measured (0: measure at once). */
const DRAIN = process.env.BENCH_LAG_AFTER_MAILS !== '0';
/** Print each lag over 40 ms with its time into the measurement. */
const LAG_TAIL = process.env.BENCH_LAG_TAIL === '1';
const CART_SIZE = 5;
const ADMIN_PASSWORD = BENCH_ADMIN_PASSWORD;
const TIME_ZONE = BENCH_TIME_ZONE;

// --- HTTP --------------------------------------------------------------------------------------

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what}: ${status} ${body.slice(0, 300)}`);
  }
  get code(): string | undefined {
    try {
      return (JSON.parse(this.body) as { error?: string }).error;
    } catch {
      return undefined;
    }
  }
}

let baseUrl = '';
let adminCookie = '';

// node:http with keep-alive: the benchmark's own client shares the two cores with the server and
// PostgreSQL, and costs a fraction of what fetch costs per request.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | null,
): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(baseUrl + url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          headers: res.headers,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

async function call<T>(
  method: string,
  url: string,
  body?: unknown,
  expected = [200, 201],
): Promise<T> {
  const payload = body === undefined ? null : JSON.stringify(body);
  const res = await send(
    method,
    url,
    {
      'X-Requested-With': 'XMLHttpRequest',
      ...(payload === null
        ? {}
        : {
            'Content-Type': 'application/json',
            'Content-Length': String(Buffer.byteLength(payload)),
          }),
      ...(url.startsWith('/api/admin') ? { Cookie: adminCookie } : {}),
    },
    payload,
  );
  if (!expected.includes(res.status)) throw new HttpError(res.status, res.text, `${method} ${url}`);
  return (res.text ? JSON.parse(res.text) : {}) as T;
}

async function login(): Promise<void> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  adminCookie = res.headers.get('set-cookie')!.split(';')[0]!;
}

async function createRoom(name: string, capacity: number): Promise<string> {
  const r = await call<{ id: string }>('POST', '/api/admin/rooms', {
    name,
    description: 'Benchmark room',
    capacity,
    openStartValue: 1,
    openStartType: 'DAY',
    openEndValue: 60,
    openEndType: 'DAY',
  });
  return r.id;
}

/** Creates one slot per day from `from` to `until` at the given times; answers their ids by date. */
async function createSlots(
  roomId: string,
  from: string,
  until: string,
  startTime: string,
  endTime: string,
  capacity: number,
): Promise<string[]> {
  await call('POST', `/api/admin/rooms/${roomId}/timeslots`, {
    startTime,
    endTime,
    startDate: from,
    repeatUntil: until === from ? null : until,
    daysOfWeek:
      until === from
        ? []
        : ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'],
    includeHolidays: true,
    capacity,
  });
  // The read model follows the log; wait until every slot shows.
  const days = Math.round((Date.parse(until) - Date.parse(from)) / 86_400_000) + 1;
  for (let i = 0; ; i++) {
    const list = await call<{ content: { id: string; date: string; startTime: string }[] }>(
      'GET',
      `/api/admin/rooms/${roomId}/timeslots?fromDate=${from}&untilDate=${until}`,
    );
    const ids = list.content
      .filter((s) => s.startTime === startTime)
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((s) => s.id);
    if (ids.length === days) return ids;
    if (i > 200) throw new Error(`slots of ${roomId} did not appear: ${ids.length} of ${days}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A visitor who fills carts of CART_SIZE tickets on its own slots, one ticket per call. */
const visitorOn = (slots: string[]) =>
  new CartFiller(slots, (cart, timeSlotId) =>
    cart
      ? call<CartAnswer>('POST', `/api/transactions/${cart}/tickets`, { timeSlotId })
      : call<CartAnswer>('POST', '/api/transactions', { timeSlotId }),
  );

const owner = (n: number) => ({
  salutation: 'MS',
  firstName: 'Bench',
  lastName: `Visitor ${n}`,
  email: `bench.visitor.${n}.${randomUUID().slice(0, 8)}@example.org`,
  phone: '+431234567',
  accessibility: false,
  language: 'de',
});

// --- memory ------------------------------------------------------------------------------------

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return round(kb / 1024, 1);
}

function sampleRss(pid: number): { stop(): number } {
  let peak = rssMiB(pid);
  const t = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  return {
    stop() {
      clearInterval(t);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

/** The server's metrics (/api/metrics, Prometheus' text format). */
async function serverMetrics(): Promise<string> {
  return (await send('GET', '/api/metrics', {}, null)).text;
}

/** What each of the server's counters (by name) grew by between two readings. */
const grownBy = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));

/** The server's commit group counters (rr_commit_group… of its metrics), by name. */
function commitGroupCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^rr_commit_(?:group_)?(\w+)_total (\d+)/gm))
    counts[m[1]!] = Number(m[2]);
  return counts;
}

/**
 * How the server grouped the commands between two readings of its metrics: its counters' growth,
 * and the commands per group of two or more.
 */
function commitGrouping(before: string, after: string) {
  const counts = grownBy(commitGroupCounts(before), commitGroupCounts(after));
  return { counts, perGroup: round((counts.grouped ?? 0) / Math.max(1, counts.groups ?? 0)) };
}

/**
 * The server's garbage collection pauses so far, seconds by kind (minor: the young generation's
 * scavenges; major, incremental: the old generation's), from its default metrics.
 */
function gcPauseSeconds(text: string): Record<string, number> {
  const seconds: Record<string, number> = {};
  for (const m of text.matchAll(
    /^nodejs_gc_duration_seconds_sum\{[^}]*kind="(\w+)"[^}]*\} (\S+)/gm,
  ))
    seconds[m[1]!] = Number(m[2]);
  return seconds;
}

// --- projection lag ----------------------------------------------------------------------------

/**
 * Watches for the longest-running transaction that holds a transaction id (every 30 ms, until
 * `stop`): the read models' projector reads no event committed after such a transaction began
 * until it ends, so one long writer, even one that appends no event, delays them all (unless it
 * is one of the projector's own outbox transactions, which it knows append none). Answers its
 * length and its last statement (null: none over 50 ms).
 */
function watchLongestTransaction(pool: pg.Pool): {
  stop(): Promise<{ ms: number; query: string } | null>;
} {
  let longest: { ms: number; query: string } | null = null;
  let watching = true;
  const loop = (async () => {
    while (watching) {
      const r = await pool.query<{ ms: number; query: string }>(
        `SELECT round(extract(epoch FROM clock_timestamp() - xact_start) * 1000)::int AS ms,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
           FROM pg_stat_activity
          WHERE backend_xid IS NOT NULL AND clock_timestamp() - xact_start > interval '50 ms'
          ORDER BY xact_start LIMIT 1`,
      );
      const row = r.rows[0];
      if (row && (longest === null || row.ms > longest.ms)) longest = row;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await loop;
      return longest;
    },
  };
}

/**
 * Waits until no mail is pending or in its first attempt's lease for two looks a second apart
 * (the mail outbox reactor may still be adding some), at most two minutes; answers how many were
 * sent meanwhile, how long it took and whether they were all out.
 */
async function mailsDrained(
  pool: pg.Pool,
): Promise<{ sent: number; seconds: number; out: boolean }> {
  const started = performance.now();
  const counts = async () =>
    (
      await pool.query<{ pending: number; sent: number }>(
        `SELECT count(*) FILTER (WHERE status = 'pending' AND attempts = 0)::int AS pending,
                count(*) FILTER (WHERE status = 'sent')::int AS sent
           FROM mail_outbox`,
      )
    ).rows[0]!;
  const before = await counts();
  let quietLooks = 0;
  let now = before;
  while (quietLooks < 2 && performance.now() - started < 120_000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    now = await counts();
    quietLooks = now.pending === 0 ? quietLooks + 1 : 0;
  }
  return {
    sent: now.sent - before.sent,
    seconds: round((performance.now() - started) / 1000),
    out: quietLooks === 2,
  };
}

/**
 * The checkpoints PostgreSQL has made so far, and the time spent writing and syncing them: one
 * during a lag measurement stalls commits while it syncs the data files.
 */
async function databaseCheckpoints(
  pool: pg.Pool,
): Promise<{ count: number; writeMs: number; syncMs: number }> {
  const r = await pool.query<{ count: string; write_ms: number; sync_ms: number }>(
    `SELECT checkpoints_timed + checkpoints_req AS count, checkpoint_write_time AS write_ms,
            checkpoint_sync_time AS sync_ms FROM pg_stat_bgwriter`,
  );
  const row = r.rows[0]!;
  return { count: Number(row.count), writeMs: row.write_ms, syncMs: row.sync_ms };
}

/**
 * Follows the read models' checkpoints through a trigger that notifies on every checkpoint move
 * (installed for the benchmark only). `reached(p)` resolves when every read model has passed p.
 */
async function followCheckpoints(url: string, pool: pg.Pool) {
  // The read models only: the outbox reactors write their checkpoints now and then when a batch
  // holds nothing for them (Projection.quietCheckpoint), so theirs may stay behind for good.
  const names = readModelProjections.map((p) => p.name).sort();
  await pool.query(`
    CREATE FUNCTION bench_checkpoint_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('bench_checkpoint', NEW.name || ' ' || NEW.last_tx::text || ' ' || NEW.last_gp::text);
      RETURN NEW;
    END $$;
    CREATE TRIGGER bench_checkpoint_moved AFTER UPDATE ON projection_checkpoints
      FOR EACH ROW EXECUTE FUNCTION bench_checkpoint_moved();`);
  const current = new Map<string, Position>();
  const waiters: { position: Position; resolve: () => void }[] = [];
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  const passed = (p: Position) =>
    names.every((n) => {
      const at = current.get(n);
      return at !== undefined && comparePositions(at, p) >= 0;
    });
  listener.on('notification', (msg) => {
    const [name, tx, gp] = (msg.payload ?? '').split(' ');
    if (!name || !names.includes(name)) return;
    current.set(name, { tx: BigInt(tx!), gp: BigInt(gp!) });
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (passed(waiters[i]!.position)) {
        waiters[i]!.resolve();
        waiters.splice(i, 1);
      }
    }
  });
  await listener.query('LISTEN bench_checkpoint');
  const snapshot = await pool.query<{ name: string; tx: string; gp: string }>(
    'SELECT name, last_tx::text AS tx, last_gp::text AS gp FROM projection_checkpoints',
  );
  for (const r of snapshot.rows) {
    if (!current.has(r.name)) current.set(r.name, { tx: BigInt(r.tx), gp: BigInt(r.gp) });
  }
  return {
    names,
    reached(position: Position): Promise<void> {
      if (passed(position)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ position, resolve }));
    },
    close: () => listener.end(),
  };
}

// --- main --------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = { poolSize: CLIENTS + 4, statementStats: STATEMENTS };
  await withBenchDatabase(options, async ({ url, pool, server: postgres }) => {
    const scale = CLIENTS;
    console.log(`${CLIENTS} clients, ${SECONDS} s per scenario; TPC-B scale ${scale}`);
    await createTpcbTables(pool, scale);
    await tpcb(pool, scale, WARMUP_SECONDS, CLIENTS);
    // The postmaster is the parent of every backend, this one included.
    const backend = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const postmaster = Number(statFields(backend.rows[0]!.pid)![1]);
    const cpu = (serverPid: number) => cpuSeconds(serverPid, postmaster);
    const baseCpu = cpu(process.pid);
    const baseline = await tpcb(pool, scale, SECONDS, CLIENTS);
    // No server in the baseline: the client and PostgreSQL only.
    const { bench: baseClient, postgres: basePostgres } = cpuPerOperation(
      baseCpu,
      cpu(process.pid),
      baseline.operations,
    );
    const baselineCpu = { bench: baseClient, postgres: basePostgres };
    console.log(`baseline CPU ms per transaction: ${JSON.stringify(baselineCpu)}`);
    console.log(`baseline: ${Math.round(baseline.perSecond)} TPC-B transactions/s`);

    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rr-bench-data-'));
    let service: ServiceProcess | null = null;
    try {
      ensureCompiledServer();
      service = await spawnService(
        'all',
        benchServerEnv(url, dataDir),
        // The compiled server, as `npm start` runs it (its resident memory is the target's).
        { compiled: true },
      );
      baseUrl = service.url;
      const pid = service.child.pid!;
      await login();

      // One room per client; each scenario gets fresh slots (a time band of its own) on five days.
      const today = todayIn(new Date(), TIME_ZONE);
      const from = addDays(today, 3);
      const until = addDays(from, CART_SIZE - 1);
      const rooms: string[] = [];
      for (let c = 0; c < CLIENTS; c++) rooms.push(await createRoom(`Bench room ${c + 1}`, 100));
      // Half an hour each, from 06:00: 35 bands end by 23:30 (by default a run takes 11 of them,
      // and 4 for each lag rate).
      let band = 0;
      const freshSlots = async () => {
        const start = 6 * 60 + 30 * band++;
        if (start + 30 > 23 * 60 + 30) throw new Error('the day has no band of slots left');
        const t = (m: number) =>
          `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
        return Promise.all(
          rooms.map((r) => createSlots(r, from, until, t(start), t(start + 30), 99_999)),
        );
      };

      /**
       * `clients` visitors adding tickets on slots of their own, warmed up: the operation of a
       * measured closed loop, each visitor on fresh slots (the warm-up's are left behind).
       */
      const warmCartAdds = async (clients: number) => {
        const visitorsOnFreshSlots = async () => {
          const all: string[][] = [];
          while (all.length < clients) all.push(...(await freshSlots()));
          return all.slice(0, clients).map((s) => visitorOn(s));
        };
        let visitors = await visitorsOnFreshSlots();
        const op = (w: number) => visitors[w]!.addTicket().then(() => undefined);
        await closedLoop({ clients, seconds: WARMUP_SECONDS, op });
        visitors = await visitorsOnFreshSlots();
        return op;
      };

      /**
       * Cart adds by CROWD visitors on slots of their own: group commit shares a transaction among
       * more commands the more arrive together, where TPC-B's transactions each pay their own.
       */
      const crowdCartAdds = async () => {
        const op = await warmCartAdds(CROWD);
        const before = cpu(pid);
        const metricsBefore = await serverMetrics();
        const run = await closedLoop({ clients: CROWD, seconds: SECONDS, op });
        const cpuMsPerOperation = cpuPerOperation(before, cpu(pid), run.operations);
        const { perGroup } = commitGrouping(metricsBefore, await serverMetrics());
        console.log(
          `crowd of ${CROWD}, cart add: ${Math.round(run.perSecond)}/s, p99 ${run.latencyMs.p99} ms; CPU ms per command ${JSON.stringify(cpuMsPerOperation)}; commands per group ${perGroup}`,
        );
        return { ...run, clients: CROWD, cpuMsPerOperation, commandsPerGroup: perGroup };
      };

      await new Promise((r) => setTimeout(r, 3000));
      const idleRss = rssMiB(pid);
      console.log(`server RSS idle: ${idleRss} MiB`);

      // Cart adds on distinct slots.
      const cartAddOp = await warmCartAdds(CLIENTS);
      const rss = sampleRss(pid);
      const metricsBefore = await serverMetrics();
      const statements = statementStats(pool);
      if (STATEMENTS) await statements.reset();
      const cpuBefore = cpu(pid);
      const cartAdd = await closedLoop({ clients: CLIENTS, seconds: SECONDS, op: cartAddOp });
      const cartAddCpu = cpuPerOperation(cpuBefore, cpu(pid), cartAdd.operations);
      const loadRss = rss.stop();
      if (STATEMENTS) await statements.print('cart add', cartAdd.operations);
      console.log(`cart add CPU ms per command: ${JSON.stringify(cartAddCpu)}`);
      const metricsAfter = await serverMetrics();
      // The main thread's pauses: the collector's helper threads work beside it, on the same cores.
      const cartAddGc = Object.fromEntries(
        Object.entries(grownBy(gcPauseSeconds(metricsBefore), gcPauseSeconds(metricsAfter))).map(
          ([kind, s]) => [kind, round((s * 1000) / cartAdd.operations, 4)],
        ),
      );
      console.log(`cart add GC pause ms per command, by kind: ${JSON.stringify(cartAddGc)}`);
      console.log(
        `cart add: ${Math.round(cartAdd.perSecond)}/s, p99 ${cartAdd.latencyMs.p99} ms; RSS peak ${loadRss} MiB`,
      );
      const grouping = commitGrouping(metricsBefore, metricsAfter);
      console.log(
        `cart add commit groups: ${JSON.stringify(grouping.counts)}; commands per group ${grouping.perGroup}`,
      );

      const crowd = CROWD > 0 ? await crowdCartAdds() : null;

      // The whole visitor flow: cart, second ticket, booking.
      const slots = await freshSlots();
      let flows = 0;
      if (STATEMENTS) await statements.reset();
      const flowCpuBefore = cpu(pid);
      const flow = await closedLoop({
        clients: CLIENTS,
        seconds: SECONDS,
        op: async (w, i) => {
          const mine = slots[w]!;
          const a = mine[i % CART_SIZE]!;
          const b = mine[(i + 1) % CART_SIZE]!;
          const cart = await call<CartAnswer>('POST', '/api/transactions', { timeSlotId: a });
          await call('POST', `/api/transactions/${cart.transactionId}/tickets`, {
            timeSlotId: b,
          });
          await call('PUT', `/api/transactions/${cart.transactionId}/booking`, owner(flows++));
        },
      });
      // The server's CPU includes what its reactors did meanwhile for the flows before (the
      // mails, webhooks and wallet passes of each booking): in a steady flow, about its share.
      const flowCpu = cpuPerOperation(flowCpuBefore, cpu(pid), flow.operations);
      if (STATEMENTS) await statements.print('visitor flow', flow.operations, 25);
      console.log(
        `visitor flow: ${flow.perSecond}/s, p99 ${flow.latencyMs.p99} ms; CPU ms per flow ${JSON.stringify(flowCpu)}`,
      );

      // The hot slot: everyone at once, one slot.
      const hotRoom = await createRoom('Bench hot room', HOT_CAPACITY);
      const hotSlot = (await createSlots(hotRoom, from, from, '10:00', '12:00', HOT_CAPACITY))[0]!;
      const outcomes = new Map<string, number>();
      const hotLatencies: number[] = [];
      const hotStart = performance.now();
      await Promise.all(
        Array.from({ length: HOT_REQUESTS }, async () => {
          const t0 = performance.now();
          let outcome = '201';
          try {
            await call('POST', '/api/transactions', { timeSlotId: hotSlot });
          } catch (err) {
            if (!(err instanceof HttpError)) throw err;
            outcome = `${err.status} ${err.code ?? ''}`.trim();
          }
          hotLatencies.push(performance.now() - t0);
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }),
      );
      const hotSeconds = round((performance.now() - hotStart) / 1000);
      const hot = percentiles(hotLatencies);
      const holds = outcomes.get('201') ?? 0;
      const serverErrors = [...outcomes]
        .filter(([k]) => k.startsWith('5'))
        .reduce((n, [, v]) => n + v, 0);
      const heldInLog = Number(
        (
          await pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM events WHERE stream_id = $1 AND event_type = 'TicketHeld'`,
            [`timeslot-${hotSlot}`],
          )
        ).rows[0]!.n,
      );
      console.log(
        `hot slot: ${JSON.stringify(Object.fromEntries(outcomes))} in ${hotSeconds} s, p99 ${hot.p99} ms; ${heldInLog} holds in the log`,
      );

      // Projection lag at steady rates: the target rate first, then the others of the sweep. The
      // flows above left a confirmation mail each to compose and send (up to 100 every
      // MAIL_INTERVAL_MS): the lag is measured once they are out, not against that backlog.
      const drained = DRAIN ? await mailsDrained(pool) : null;
      if (drained)
        console.log(
          `mails of the flows sent: ${drained.sent} in ${drained.seconds} s` +
            (drained.out ? '' : ' (some still pending: the lag is measured beside them)'),
        );
      const checkpoints = await followCheckpoints(url, pool);
      const measureLag = async (rate: number) => {
        // 4 x CLIENTS visitors, each on slots of its own (four fresh time bands).
        const lagSlots: string[][] = [];
        for (let b = 0; b < 4; b++) lagSlots.push(...(await freshSlots()));
        const lagVisitors = lagSlots.map((mine) => visitorOn(mine));
        const queue = lagVisitors.map(() => Promise.resolve());
        const lags: number[] = [];
        /** When each lag's command was answered, ms into the measurement (for LAG_TAIL). */
        const answeredAt: number[] = [];
        const startedAt = performance.now();
        const checkpointsBefore = await databaseCheckpoints(pool);
        const longest = watchLongestTransaction(pool);
        if (STATEMENTS) await statements.reset();
        const before = cpu(pid);
        const run = await openLoop({
          perSecond: rate,
          seconds: SECONDS,
          op: (i) => {
            const v = i % lagVisitors.length;
            // A visitor's commands follow each other (as from one browser); others run alongside.
            const next = queue[v]!.then(async () => {
              const position = parsePosition(await lagVisitors[v]!.addTicket())!;
              const answered = performance.now();
              await checkpoints.reached(position);
              lags.push(performance.now() - answered);
              answeredAt.push(answered - startedAt);
            });
            queue[v] = next;
            return next;
          },
        });
        const result = {
          commandsPerSecond: rate,
          started: run.started,
          latencyMs: percentiles(lags),
          commandLatencyMs: run.latencyMs,
          cpuMsPerCommand: cpuPerOperation(before, cpu(pid), run.started),
        };
        if (LAG_TAIL) {
          const slow = lags
            .map((ms, i) => ({ at: Math.round(answeredAt[i]!), ms: Math.round(ms) }))
            .filter((l) => l.ms > 40)
            .sort((a, b) => a.at - b.at);
          console.log(
            `lags over 40 ms at ${rate}/s (ms into the measurement: lag ms): ` +
              slow.map((l) => `${l.at}:${l.ms}`).join(' '),
          );
        }
        const during = await databaseCheckpoints(pool);
        const heldXid = await longest.stop();
        if (STATEMENTS) await statements.print(`lag at ${rate}/s`, run.started, 25);
        console.log(
          `projection lag at ${rate}/s (${checkpoints.names.join(', ')}): p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms; command p99 ${run.latencyMs.p99} ms; CPU ms per command ${JSON.stringify(result.cpuMsPerCommand)}; PostgreSQL checkpoints meanwhile ${during.count - checkpointsBefore.count} (writing ${during.writeMs - checkpointsBefore.writeMs} ms, syncing ${during.syncMs - checkpointsBefore.syncMs} ms); longest transaction holding an id ${heldXid ? `${heldXid.ms} ms: ${heldXid.query}` : 'none over 50 ms'}`,
        );
        return result;
      };
      const lagSweep = [];
      for (const rate of LAG_RATES) lagSweep.push(await measureLag(rate));
      await checkpoints.close();
      const lagAtTarget = lagSweep[0]!;
      const lag = lagAtTarget.latencyMs;

      const checks = {
        hotSlotExactHolds: holds === HOT_CAPACITY && heldInLog === HOT_CAPACITY,
        hotSlotNoServerErrors: serverErrors === 0,
        lagRateKept: lagSweep.every((l) => l.started === Math.round(l.commandsPerSecond * SECONDS)),
      };

      console.log('');
      const ratio = (n: number) => round(n / baseline.perSecond, 3);
      printTable(
        ['figure', 'measured', 'baseline', 'ratio', 'target', 'met'],
        [
          [
            `cart adds/s, ${CLIENTS} clients, distinct slots`,
            cartAdd.perSecond,
            baseline.perSecond,
            ratio(cartAdd.perSecond),
            '>= 0.5 of baseline',
            ratio(cartAdd.perSecond) >= 0.5 ? 'yes' : 'NO',
          ],
          ...(crowd
            ? [
                [
                  `cart adds/s, a crowd of ${CROWD} clients`,
                  crowd.perSecond,
                  baseline.perSecond,
                  ratio(crowd.perSecond),
                  'report',
                  '-',
                ],
              ]
            : []),
          [
            'visitor flows/s (cart, add, book)',
            flow.perSecond,
            baseline.perSecond,
            ratio(flow.perSecond),
            'report',
            '-',
          ],
          [
            `hot slot p99 ms (${HOT_REQUESTS} adds, cap ${HOT_CAPACITY})`,
            hot.p99,
            '-',
            '-',
            '< 1000, exact holds, 0 5xx',
            hot.p99 < 1000 && checks.hotSlotExactHolds && checks.hotSlotNoServerErrors
              ? 'yes'
              : 'NO',
          ],
          [
            `projection lag p99 ms at ${LAG_RATE}/s`,
            lag.p99,
            '-',
            '-',
            '< 50',
            lag.p99 < 50 ? 'yes' : 'NO',
          ],
          ...lagSweep
            .slice(1)
            .map((l) => [
              `projection lag p99 ms at ${l.commandsPerSecond}/s`,
              l.latencyMs.p99,
              '-',
              '-',
              'sweep',
              '-',
            ]),
          ['server RSS idle MiB', idleRss, '-', '-', '< 250', idleRss < 250 ? 'yes' : 'NO'],
          ['server RSS peak under cart adds MiB', loadRss, '-', '-', 'report', '-'],
        ],
      );

      await writeResults('commands', {
        secondsPerScenario: SECONDS,
        clients: CLIENTS,
        postgres,
        baseline: {
          kind: `TPC-B-like, scale ${scale}, 5 statements per transaction`,
          ...baseline,
          cpuMsPerOperation: baselineCpu,
        },
        cartAdd: {
          ...cartAdd,
          ratioToBaseline: ratio(cartAdd.perSecond),
          // The server's figure includes its projections, which run in the same process.
          cpuMsPerOperation: cartAddCpu,
          gcPauseMsPerOperation: cartAddGc,
        },
        ...(crowd ? { crowdCartAdd: { ...crowd, ratioToBaseline: ratio(crowd.perSecond) } } : {}),
        visitorFlow: {
          ...flow,
          commandsPerSecond: round(flow.perSecond * 3),
          ratioToBaseline: ratio(flow.perSecond),
          cpuMsPerOperation: flowCpu,
        },
        hotSlot: {
          requests: HOT_REQUESTS,
          capacity: HOT_CAPACITY,
          outcomes: Object.fromEntries(outcomes),
          holdsInLog: heldInLog,
          seconds: hotSeconds,
          latencyMs: hot,
        },
        projectionLag: { ...lagAtTarget, readModels: checkpoints.names },
        projectionLagSweep: lagSweep,
        rssMiB: { idle: idleRss, peakUnderCartAdds: loadRss },
        checks,
      });
      const failed = Object.entries(checks).filter(([, ok]) => !ok);
      if (failed.length) throw new Error(`checks failed: ${failed.map(([k]) => k).join(', ')}`);
    } finally {
      if (service) {
        const out = service.output();
        await service.kill();
        if (/error/i.test(out)) console.log(`server output:\n${out.slice(-3000)}`);
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  });
}

runMain(main);
