/**
 * The what-if replay at the cap (`npm run bench:what-if`, docs/product.md#insights): one room's
 * generated history of `BENCH_WHAT_IF_EVENTS` events (200,000: the default WHAT_IF_MAX_EVENTS),
 * replayed with another most tickets per visitor and day (so the carts' and visitors' streams are
 * read too: nearly the room's whole history). Measures
 *
 *   replay alone    one replay through the worker (`replayInWorker`): its time, the events read,
 *                   the worker's heap at its fullest, the server process's RSS growth
 *   visitor reads   the visitor month calendar (GET /api/rooms/{id}/booking), one request after
 *                   the other, without replays and during `BENCH_WHAT_IF_REPLAYS` (10) replays
 *                   sent at once over HTTP (WHAT_IF_CONCURRENCY 2 at a time, the rest waiting:
 *                   WHAT_IF_QUEUE is raised so that none is turned away): p50/p99/max
 *
 * The app runs in this process, as a server does; no projection runs during the measurements
 * (the read models the reads need are rebuilt once after the log is written).
 */
import { EventStore, validateEvent } from '@rr/events';
import { readModelProjections, rebuildReadModels } from '@rr/projections';
import { replayInWorker } from '@rr/insights';
import { addDays, systemClock } from '@rr/platform';
import { createUser } from '@rr/identity';
import { startTestApp } from '../support/app.ts';
import { generateLog } from './generate.ts';
import {
  percentiles,
  positiveNumber,
  printTable,
  round,
  runMain,
  settle,
  withBenchDatabase,
  writeResults,
  type Percentiles,
} from './lib.ts';

const EVENTS = positiveNumber('BENCH_WHAT_IF_EVENTS', 200_000);
const REPLAYS = positiveNumber('BENCH_WHAT_IF_REPLAYS', 10);
const REQUESTS = positiveNumber('BENCH_REQUESTS', 300);
const KEY_SECRET = 'bench-visitor-key-secret';
/** The read models the visitor calendar and the replay read. */
const NEEDED = new Set(['rooms', 'holidays', 'timeslots', 'tickets', 'insights']);
const MB = 1024 * 1024;

/** The largest resident set of the process while `work` runs (sampled every 20 ms). */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  await withBenchDatabase({ poolSize: 12 }, async ({ url, pool, server: postgres }) => {
    console.log(`generating one room's history of ${EVENTS.toLocaleString('en')} events ...`);
    const g = await generateLog(pool, {
      rooms: 1,
      days: 365,
      events: EVENTS,
      // One command's events per commit, as the command side writes them, would be slower to
      // write; small chunks keep a commit (which the replay takes whole) near a real one.
      chunkEvents: 500,
      keySecret: KEY_SECRET,
    });
    console.log(`log: ${g.events.toLocaleString('en')} events (${round(g.seconds, 1)} s)`);
    let t0 = performance.now();
    await rebuildReadModels(
      pool,
      new EventStore(pool, { validate: validateEvent }),
      readModelProjections.filter((p) => NEEDED.has(p.name)),
    );
    console.log(`read models rebuilt in ${round((performance.now() - t0) / 1000, 1)} s`);
    await settle(pool);

    // The app as the tests run it (tests/support/app.ts), in this process: the replays' worker
    // threads and the visitors' reads share its event loop.
    const app = await startTestApp(
      { url, pool, store: new EventStore(pool, { validate: validateEvent }), drop: async () => {} },
      systemClock,
      { env: { PUBLIC_READ_CACHE_MS: '0', WHAT_IF_QUEUE: String(REPLAYS) } },
    );
    const { deps } = app;
    const base = `${app.baseUrl}/api`;
    try {
      await createUser(pool, 'bench', 'bench password', ['admin']);
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ username: 'bench', password: 'bench password' }),
      });
      if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const room = g.rooms[0]!;
      const request = {
        roomId: room.id,
        fromDate: g.firstDate,
        untilDate: g.lastDate,
        change: { maxTicketsPerDay: 1 },
      };

      // One replay alone, through the worker as the route runs it.
      const rssBefore = process.memoryUsage().rss;
      const alone = await peakRss(() => replayInWorker(deps, request));
      const { stats } = alone.result;
      console.log(
        `replay alone: ${stats.events.toLocaleString('en')} events in ${round(stats.ms / 1000, 2)} s (counted after ${round(stats.countedMs / 1000, 2)} s, ${round(stats.readMs / 1000, 2)} s waiting for batches), worker heap at most ${round(stats.peakHeapBytes / MB, 1)} MB, server RSS +${round((alone.peak - rssBefore) / MB, 1)} MB`,
      );

      if (process.env.BENCH_WHAT_IF_ALONE) return;
      // The visitor month calendar of the room (this month), one request after the other.
      const month = addDays(g.firstDate, Math.floor(365 / 2));
      const calendar = `${base}/rooms/${room.id}/booking?fromDate=${month}&untilDate=${addDays(month, 30)}`;
      const read = async () => {
        const s = performance.now();
        const res = await fetch(calendar, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
        if (res.status !== 200) throw new Error(`calendar: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        return performance.now() - s;
      };
      for (let i = 0; i < 20; i++) await read();
      const quiet: number[] = [];
      for (let i = 0; i < REQUESTS; i++) quiet.push(await read());

      // The same reads while the planners' replays run (they go on until the last replay ends).
      const busyReads: number[] = [];
      const statuses: number[] = [];
      const rssBusy = process.memoryUsage().rss;
      t0 = performance.now();
      const busy = await peakRss(async () => {
        let done = false;
        const replays = Promise.all(
          Array.from({ length: REPLAYS }, async () => {
            const res = await fetch(`${base}/admin/insights/what-if`, {
              method: 'POST',
              headers: {
                'Content-Type': 'application/json',
                'X-Requested-With': 'XMLHttpRequest',
                Cookie: cookie,
              },
              body: JSON.stringify(request),
            });
            await res.arrayBuffer();
            statuses.push(res.status);
          }),
        ).finally(() => {
          done = true;
        });
        while (!done) busyReads.push(await read());
        await replays;
      });
      const replaysSeconds = (performance.now() - t0) / 1000;
      const ok = statuses.filter((s) => s === 200).length;
      const without = percentiles(quiet);
      const during = percentiles(busyReads);
      const row = (what: string, p: Percentiles) => [what, p.count, p.p50, p.p99, p.max];
      console.log('');
      printTable(
        ['visitor calendar (ms)', 'requests', 'p50', 'p99', 'max'],
        [row('without replays', without), row(`during ${REPLAYS} replays`, during)],
      );
      // A replay over its time limit (a busy machine) is answered 400: counted, not hidden.
      console.log(
        `${REPLAYS} replays: ${ok} answered 200 (all: ${statuses.join(', ')}) in ${round(replaysSeconds, 1)} s (${deps.whatIf.concurrency} at a time), server RSS +${round((busy.peak - rssBusy) / MB, 1)} MB at most`,
      );
      await writeResults('whatIf', {
        postgres,
        events: stats.events,
        replayAlone: {
          seconds: round(stats.ms / 1000, 2),
          countedSeconds: round(stats.countedMs / 1000, 2),
          readSeconds: round(stats.readMs / 1000, 2),
          workerPeakHeapMb: round(stats.peakHeapBytes / MB, 1),
          serverRssGrowthMb: round((alone.peak - rssBefore) / MB, 1),
        },
        visitorCalendar: { withoutReplays: without, duringReplays: during },
        replays: {
          count: REPLAYS,
          answered: statuses,
          concurrency: deps.whatIf.concurrency,
          seconds: round(replaysSeconds, 1),
          serverRssGrowthMb: round((busy.peak - rssBusy) / MB, 1),
        },
      });
    } finally {
      await app.close();
    }
  });
}

runMain(main);
