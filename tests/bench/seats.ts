/**
 * A large seat plan (`npm run bench:seats`, docs/product.md#seat-plans): a room of BENCH_SEATS
 * (1,000) seats with BENCH_SEAT_BOOKINGS (300) bookings, beside a room without a plan with as many
 * bookings (the baseline of the same run). Starts the real server process on its own embedded
 * PostgreSQL (as the browser tests do, tests/e2e/harness.ts; needs `npm run build`) and measures,
 * one request after the other, BENCH_REQUESTS (200) times each, end to end over HTTP:
 *   baseline        GET /api/rooms/{id}/booking of the room without a plan (its day's slots)
 *   slot seats      GET /api/rooms/{id}/timeslots/{timeSlotId}/seats of the plan's slot
 *   calendar        GET /api/rooms/{id}/booking of the plan's room
 * and in Chromium (playwright-core) the time from the tap on "Platz wählen" to all the seats drawn
 * on the plan, BENCH_DRAWS (5) times after a first opening that loads the seat picker's code.
 * Targets: a median under 50 ms for each read, the plan drawn in under 1 s. Prints the figures
 * and whether each target is met (a benchmark never fails a build by its timing); writes
 * `bench-results.json` key `seats`.
 */
import { Client } from '../support/app.ts';
import { EventStore, validateEvent } from '@rr/events';
import { createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { E2E_ADMIN, launchBrowser, newContext, startServer } from '../e2e/harness.ts';
import {
  percentiles,
  positiveNumber,
  printTable,
  round,
  runMain,
  sequential,
  withBenchDatabase,
  writeResults,
  type BenchDatabase,
  type Percentiles,
} from './lib.ts';

const SEATS = Math.round(positiveNumber('BENCH_SEATS', 1000));
const BOOKINGS = Math.round(positiveNumber('BENCH_SEAT_BOOKINGS', 300));
const REQUESTS = Math.round(positiveNumber('BENCH_REQUESTS', 200));
const DRAWS = Math.round(positiveNumber('BENCH_DRAWS', 5));
const READ_MEDIAN_MS = 50;
const DRAW_MS = 1000;

/** The seats in a grid of 40 a row, labelled by row letter pair and number (`AA01`). */
function planSeats(count: number) {
  const perRow = 40;
  const rows = Math.ceil(count / perRow);
  return Array.from({ length: count }, (_, i) => {
    const row = Math.floor(i / perRow);
    const letters = String.fromCharCode(65 + Math.floor(row / 26), 65 + (row % 26));
    return {
      label: `${letters}${String((i % perRow) + 1).padStart(2, '0')}`,
      attributes: i % 10 === 0 ? ['power'] : [],
      x: round(1 + ((i % perRow) * 98) / perRow, 2),
      y: round(1 + (row * 98) / rows, 2),
      rotation: 0,
    };
  });
}

/** The machine's local date in `days` days (the server's zone is the machine's, as in e2e). */
function localDay(days: number): { iso: string; date: Date } {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    iso: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    date,
  };
}

async function book(admin: Client, roomId: string, slotId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
      { json: { salutation: 'MS', firstName: 'Bench', lastName: `Reader ${i}`, language: 'en' } },
    );
    if (res.status !== 201) throw new Error(`not booked: ${res.status} ${await res.text()}`);
  }
}

async function read(client: Client, path: string): Promise<void> {
  const res = await client.get(path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  await res.arrayBuffer();
}

/**
 * Run in the page before the tap (as text: this file is not typed for the browser): from the tap
 * to the frame after every seat is on the plan, in the page's own clock (`window.drawn`). It ends
 * in `0`: a script whose value is the promise would be awaited by `evaluate` before the tap.
 */
const drawnScript = (count: number) => `window.drawn = new Promise((resolve, reject) => {
  let start = 0;
  document.addEventListener('click', () => (start = performance.now()), { capture: true, once: true });
  const seats = () => document.querySelectorAll('[role="listbox"] [role="option"]').length;
  const observer = new MutationObserver(() => {
    if (start && seats() >= ${count}) {
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - start));
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  setTimeout(() => {
    const open = [...document.querySelectorAll('dialog[open], [role="dialog"]')]
      .map((d) => (d.textContent ?? '').slice(0, 200));
    reject(new Error('after 20 s ' + seats() + ' seats drawn; dialogs: ' + JSON.stringify(open)));
  }, 20000);
});
0`;

/** Opens the seats of the slot BENCH_DRAWS + 1 times; answers the times to all seats drawn. */
async function drawTimes(baseUrl: string, roomId: string, day: { date: Date }, seats: number) {
  const browser = await launchBrowser();
  try {
    const context = await newContext(browser, { width: 1280, height: 900 }, 'de');
    // As the browser tests' visitor (visitor-pages.ts): the privacy notice accepted already.
    await context.addInitScript("sessionStorage.setItem('privacyAccepted', 'true')");
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('page error:', err.message));
    page.on('console', (m) => {
      if (m.type() === 'error') console.error('page console:', m.text());
    });
    const d = day.date;
    await page.goto(`${baseUrl}/room/${roomId}?year=${d.getFullYear()}&month=${d.getMonth() + 1}`);
    const longDate = new Intl.DateTimeFormat('de', { dateStyle: 'full' }).format(d);
    const times: number[] = [];
    await page
      .locator('main')
      .getByRole('button', { name: new RegExp(`^${longDate}`) })
      .press('Enter');
    // Escape closes the seats and returns to the day's slots: each run opens them from there.
    const dayDialog = page.getByRole('dialog', { name: longDate });
    const choose = dayDialog.getByRole('button', { name: /^Platz wählen / });
    for (let run = 0; run <= DRAWS; run++) {
      await choose.waitFor();
      await page.evaluate(drawnScript(seats));
      // By the keyboard, as the browser tests open it (Enter on a button is its click).
      await choose.press('Enter');
      try {
        times.push(Number(await page.evaluate('window.drawn')));
      } catch (err) {
        throw new Error(`opening ${run + 1} after ${JSON.stringify(times)}: ${String(err)}`);
      }
      await page.keyboard.press('Escape');
      await page.getByRole('listbox').waitFor({ state: 'detached' });
      // The seats' dialog has closed and given the focus back before the next tap (not timed).
      await page.waitForTimeout(500);
    }
    return { first: round(times[0]!), again: percentiles(times.slice(1)) };
  } finally {
    await browser.close();
  }
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

async function main(): Promise<void> {
  await withBenchDatabase({ poolSize: 4 }, run);
}

async function run(db: BenchDatabase): Promise<void> {
  const store = new EventStore(db.pool, { validate: validateEvent });
  // The database is the benchmark's: withBenchDatabase drops it.
  const server = await startServer({ url: db.url, pool: db.pool, store, drop: async () => {} });
  try {
    const admin = new Client(server.baseUrl);
    const login = await admin.login(E2E_ADMIN.username, E2E_ADMIN.password);
    if (login.status !== 200) throw new Error(`no admin session: ${login.status}`);
    const day = localDay(3);
    const planRoom = await createRoom(admin, 'Bench plan room', {
      ...OPEN_FROM_TODAY,
      capacity: SEATS,
    });
    const res = await admin.request('PUT', `/api/admin/rooms/${planRoom}/seats`, {
      json: { seats: planSeats(SEATS) },
    });
    if (res.status !== 200) throw new Error(`no plan: ${res.status} ${await res.text()}`);
    const bareRoom = await createRoom(admin, 'Bench room without a plan', {
      ...OPEN_FROM_TODAY,
      capacity: SEATS,
    });
    const planSlot = await createSlot(admin, planRoom, day.iso, '09:00', '17:00', SEATS);
    const bareSlot = await createSlot(admin, bareRoom, day.iso, '09:00', '17:00', SEATS);
    console.log(`booking ${BOOKINGS} seats in each room …`);
    await book(admin, planRoom, planSlot, BOOKINGS);
    await book(admin, bareRoom, bareSlot, BOOKINGS);

    const visitor = new Client(server.baseUrl);
    const range = `fromDate=${day.iso}&untilDate=${day.iso}`;
    const reads: Record<string, { what: string; latency: Percentiles }> = {};
    const measure = async (key: string, what: string, path: string) => {
      reads[key] = { what, latency: await sequential(REQUESTS, () => read(visitor, path)) };
    };
    await measure(
      'baseline',
      'calendar, room without a plan',
      `/api/rooms/${bareRoom}/booking?${range}`,
    );
    await measure(
      'slotSeats',
      `slot seats, ${SEATS} seats`,
      `/api/rooms/${planRoom}/timeslots/${planSlot}/seats`,
    );
    await measure(
      'calendar',
      `calendar, room of ${SEATS} seats`,
      `/api/rooms/${planRoom}/booking?${range}`,
    );
    const base = reads.baseline!.latency.p50;
    console.log(`\nreads (${REQUESTS} each, one after the other; ms)`);
    printTable(
      ['read', 'p50', 'p95', 'p99', 'p50 / baseline', `target p50 < ${READ_MEDIAN_MS}`],
      Object.values(reads).map(({ what, latency }) => [
        what,
        latency.p50,
        latency.p95,
        latency.p99,
        round(latency.p50 / base),
        met(latency.p50 < READ_MEDIAN_MS),
      ]),
    );

    // The drawing is measured in a real browser; when it cannot be, the reads still stand.
    let draw: Awaited<ReturnType<typeof drawTimes>> | { notMeasured: string };
    try {
      draw = await drawTimes(server.baseUrl, planRoom, day, SEATS);
    } catch (err) {
      draw = { notMeasured: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
    }
    console.log(
      `\nthe plan drawn in Chromium (${SEATS} seats; ms from the tap to every seat drawn)`,
    );
    if ('notMeasured' in draw) console.log(`not measured: ${draw.notMeasured}`);
    else
      printTable(
        ['opening', 'p50', 'p95', 'max', `target < ${DRAW_MS}`],
        [
          [
            'first (loads the picker)',
            draw.first,
            draw.first,
            draw.first,
            met(draw.first < DRAW_MS),
          ],
          [
            `again (${DRAWS} times)`,
            draw.again.p50,
            draw.again.p95,
            draw.again.max,
            met(draw.again.p95 < DRAW_MS),
          ],
        ],
      );
    await writeResults('seats', {
      seats: SEATS,
      bookings: BOOKINGS,
      targets: { readMedianMs: READ_MEDIAN_MS, drawMs: DRAW_MS },
      reads: Object.fromEntries(
        Object.entries(reads).map(([key, r]) => [
          key,
          { ...r, ratioToBaseline: round(r.latency.p50 / base) },
        ]),
      ),
      draw,
    });
  } finally {
    await server.stop();
  }
}

runMain(main);
