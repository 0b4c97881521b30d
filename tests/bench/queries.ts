/**
 * Latency of the visitor calendar and the staff reservations list (`npm run bench:queries`).
 *
 * Starts its own embedded PostgreSQL (or uses DATABASE_URL), writes a realistic log with
 * generate.ts (BENCH_ROOMS=10 rooms x BENCH_DAYS=365 days of slots, BENCH_TICKETS=100,000
 * tickets), rebuilds the read models (`rebuildReadModels`, as `npm run rebuild`), starts the
 * all-in-one app in this process (as the API tests do) and measures with one client, one request
 * after the other, BENCH_REQUESTS (default 300) times each, end to end over HTTP:
 *   baseline        `SELECT 1` from Node through pg (a database round trip)
 *   references      GET /api/healthz without and with the staff session cookie (the HTTP and
 *                   session cost every request pays, no query of its own)
 *   calendar        what the visitor month calendar loads for one room and one month:
 *                   GET /api/rooms/{id} and GET /api/rooms/{id}/booking?fromDate&untilDate
 *   calendar (cart) the same with a cart: GET /api/transactions/{id} and
 *                   GET /api/transactions/{id}/rooms/{roomId}/available-timeslots
 *   reservations    GET /api/admin/tickets sorted by name, page 1 and page 500 (20 a page),
 *                   and page 1 with a search term
 *   insights        GET /api/admin/insights of every room over the generated days
 * Then the scale model (scale-model.ts: BENCH_SCALE_ROOMS=200 rooms x 14 slots a day x a year,
 * 168,000 tickets, written into the read models) for the reads every screen polls: the occupancy
 * display (GET /api/display) and a visitor month calendar, one request at a time (median) and ten
 * at once (the time until all ten answered), with every slot open and again after half the rooms
 * were closed for the year (capacity 0). Then the model's rooms as BENCH_SCALE_SITES=20 sites of
 * 10 rooms: the visitors' site list, the room list of one site against every site's, and a branch
 * admin's first page of reservations against an all-sites admin's.
 * Prints p50/p95/p99 and the ratio of p95 to the baseline's; writes `bench-results.json` key `queries`.
 */
import type { Server } from 'node:http';
import {
  checkInCodes,
  emailKey,
  subjectKey,
  myBookingsLinks,
  waitlistReferences,
  addDays,
  createLogger,
  loadConfig,
  systemClock,
  todayIn,
  whatIfSettingsOf,
  seatPlanLimitsOf,
} from '@rr/platform';
import { createUser, sessionMiddleware } from '@rr/identity';
import { EventNotifier, EventStore, validateEvent } from '@rr/events';
import { calendarImportSettings, defaultLimits } from '@rr/command-service';
import {
  ensureCheckpoint,
  readCheckpoint,
  readModelProjections,
  rebuildReadModels,
  setCheckpoint,
} from '@rr/projections';
import { createApp } from '../../server/src/app.ts';
import {
  outboxReactors,
  projectionSettingsOf,
  readModelNames,
  startProjections,
} from '../../server/src/runtime.ts';
import { generateLog } from './generate.ts';
import { closeHalfTheRooms, writeScaleModel, writeSites } from './scale-model.ts';
import {
  positiveNumber,
  printTable,
  round,
  runMain,
  settle,
  sequential,
  withBenchDatabase,
  writeResults,
  type Percentiles,
} from './lib.ts';

const ROOMS = Math.round(positiveNumber('BENCH_ROOMS', 10));
const DAYS = Math.round(positiveNumber('BENCH_DAYS', 365));
const TICKETS = Math.round(positiveNumber('BENCH_TICKETS', 100_000));
const REQUESTS = Math.round(positiveNumber('BENCH_REQUESTS', 300));
const KEY_SECRET = 'bench-visitor-key-secret';
const SCALE_ROOMS = Math.round(positiveNumber('BENCH_SCALE_ROOMS', 200));
const SCALE_SLOTS_PER_DAY = Math.round(positiveNumber('BENCH_SCALE_SLOTS_PER_DAY', 14));
const SCALE_TICKETS = Math.round(positiveNumber('BENCH_SCALE_TICKETS', 168_000));
const SCALE_REQUESTS = Math.round(positiveNumber('BENCH_SCALE_REQUESTS', 30));
/** The scale model's rooms as this many sites (a library system's branches). */
const SITES = Math.round(positiveNumber('BENCH_SCALE_SITES', 20));
/** The scale model's targets: median per request, and ten requests at once. */
const SCALE_MEDIAN_MS = 100;
const SCALE_TEN_MS = 1000;

interface ScaleFigure {
  what: string;
  one: Percentiles;
  /** Ten requests at once, SCALE_REQUESTS / 10 times: the time until the tenth answered. */
  ten: Percentiles;
  met: boolean;
}

/** One request at a time, then ten at once, against the scale targets. */
async function scaleFigure(
  what: string,
  op: () => Promise<unknown>,
  requests = SCALE_REQUESTS,
): Promise<ScaleFigure> {
  const t0 = performance.now();
  const one = await sequential(requests, () => op().then(() => undefined), 3);
  const ten = await sequential(
    Math.max(3, Math.round(requests / 10)),
    () => Promise.all(Array.from({ length: 10 }, op)).then(() => undefined),
    1,
  );
  console.log(`  ${what}: ${round((performance.now() - t0) / 1000, 1)} s`);
  return { what, one, ten, met: one.p50 < SCALE_MEDIAN_MS && ten.p50 < SCALE_TEN_MS };
}

async function main(): Promise<void> {
  await withBenchDatabase({ poolSize: 12 }, async ({ url, pool, server: postgres }) => {
    console.log(
      `generating ${ROOMS} rooms x ${DAYS} days of slots and ${TICKETS.toLocaleString('en')} tickets ...`,
    );
    const g = await generateLog(pool, {
      rooms: ROOMS,
      days: DAYS,
      tickets: TICKETS,
      keySecret: KEY_SECRET,
    });
    console.log(
      `log: ${g.events.toLocaleString('en')} events, ${g.slots.toLocaleString('en')} slots, ${g.tickets.toLocaleString('en')} tickets (${g.ticketsByStatus.BOOKED.toLocaleString('en')} booked), ${g.personalData.toLocaleString('en')} with personal data (${round(g.seconds, 1)} s)`,
    );
    const store = new EventStore(pool, { validate: validateEvent });
    let t0 = performance.now();
    await rebuildReadModels(pool, store, readModelProjections);
    console.log(`read models rebuilt in ${round((performance.now() - t0) / 1000, 1)} s`);
    // The generated history counts as reacted to when it happened (its mails sent, its webhooks
    // and passes updated), as in a service that ran through it: the outboxes' reactors start
    // where the rebuilt read models stand. Started at the log's beginning they would read the
    // whole log (about a minute on two cores) while the first scenarios are measured.
    const head = await readCheckpoint(pool, readModelProjections[0]!.name);
    for (const reactor of outboxReactors) {
      await ensureCheckpoint(pool, reactor.name);
      await setCheckpoint(pool, reactor.name, head);
    }
    await settle(pool);

    // The all-in-one app in this process, as tests/support/app.ts starts it.
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_CARTS: '100000',
      RATE_LIMIT_OWNER_LOOKUPS: '100000',
      // The queries themselves: every request computes its answer (the shared answers of the
      // public reads are measured beside, on a second app, in the scale model).
      PUBLIC_READ_CACHE_MS: '0',
    });
    const logger = createLogger('silent');
    const notifier = new EventNotifier(url);
    await notifier.start();
    const deps = {
      store,
      pool,
      clock: systemClock,
      logger,
      timeZone: 'Europe/Vienna',
      emailKey: (email: string) => emailKey(KEY_SECRET, email),
      subjectKey: (subject: string) => subjectKey(KEY_SECRET, subject),
      checkInCodes: checkInCodes(KEY_SECRET),
      waitlistReferences: waitlistReferences(KEY_SECRET),
      myBookingsLinks: myBookingsLinks(KEY_SECRET),
      limits: defaultLimits,
      calendarImport: calendarImportSettings(config),
      closureMaxDays: config.CLOSURE_MAX_DAYS,
      seatPlans: seatPlanLimitsOf(config),
      whatIf: whatIfSettingsOf(config, url),
      staffSignInRecordDays: config.STAFF_SIGN_IN_RECORD_DAYS,
      verifyHuman: () => Promise.resolve(true),
    };
    const runner = startProjections(
      {
        pool,
        store,
        notifier,
        deps,
        projectionSettings: projectionSettingsOf(config),
        close: () => Promise.resolve(),
      },
      logger,
    );
    const app = createApp({
      role: 'all',
      deps,
      config,
      logger,
      sessions: await sessionMiddleware(pool, { secureCookie: false }),
      readModels: readModelNames,
      serveFrontend: false,
    });
    const httpServer = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const addr = httpServer.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/api`;
    // The same app with the public reads' shared answers on (the default PUBLIC_READ_CACHE_MS).
    const sharedServer = await new Promise<Server>((resolve) => {
      const s = createApp({
        role: 'all',
        deps,
        config: { ...config, PUBLIC_READ_CACHE_MS: 1000 },
        logger,
        sessions: (_req, _res, next) => next(),
        readModels: readModelNames,
        serveFrontend: false,
      }).listen(0, '127.0.0.1', () => resolve(s));
    });
    const sharedAddr = sharedServer.address();
    const sharedBase = `http://127.0.0.1:${typeof sharedAddr === 'object' && sharedAddr ? sharedAddr.port : 0}/api`;
    try {
      await createUser(pool, 'bench', 'bench password', ['admin']);
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ username: 'bench', password: 'bench password' }),
      });
      if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const get = async (path: string, headers: Record<string, string> = {}): Promise<unknown> => {
        const res = await fetch(base + path, {
          headers: { 'X-Requested-With': 'XMLHttpRequest', ...headers },
        });
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
        return res.json();
      };
      const staffGet = (path: string) => get(path, { Cookie: cookie });

      // The insights of every room over the generated year (the longest period is 400 days).
      const insightsUntil = [g.lastDate, addDays(g.firstDate, 399)].sort()[0]!;
      const insightsPath = `/admin/insights?fromDate=${g.firstDate}&untilDate=${insightsUntil}`;
      const insights = (await staffGet(insightsPath)) as { weeks: unknown[] };
      if (insights.weeks.length < Math.floor(DAYS / 7))
        throw new Error(`the insights show ${insights.weeks.length} weeks of ${DAYS} days`);

      // Measured first as well, and printed at once: the figure does not depend on the visitor
      // scenarios below.
      {
        const base = await sequential(REQUESTS, () => pool.query('SELECT 1').then(() => undefined));
        const ins = await sequential(REQUESTS, () => staffGet(insightsPath).then(() => undefined));
        console.log(
          `  insights (all ${ROOMS} rooms, ${DAYS} days): p50 ${ins.p50} ms, p95 ${ins.p95} ms, p99 ${ins.p99} ms; SELECT 1 p95 ${base.p95} ms; ratio ${round(ins.p95 / base.p95, 1)}`,
        );
      }

      // The visitor's month: next month (fully inside the booking window), of the busiest room.
      const today = todayIn(new Date(), 'Europe/Vienna');
      const next = addDays(`${today.slice(0, 7)}-01`, 40).slice(0, 7);
      const fromDate = `${next}-01`;
      const untilDate = addDays(`${addDays(fromDate, 40).slice(0, 7)}-01`, -1);
      const room = g.rooms[0]!;
      const monthQuery = `fromDate=${fromDate}&untilDate=${untilDate}`;
      const slots = (await get(`/rooms/${room.id}/booking?${monthQuery}`)) as {
        id: string;
        ticketCount: number;
        capacity: number;
      }[];
      if (slots.length < 15)
        throw new Error(`expected the month to show slots, got ${slots.length}`);
      const free = slots.find((s) => s.ticketCount < s.capacity);
      if (!free) throw new Error('no free slot in the month');
      // A cart holding one seat of that month, for the calendar a visitor sees after the first add.
      const cartRes = await fetch(`${base}/transactions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ timeSlotId: free.id }),
      });
      if (cartRes.status !== 201)
        throw new Error(`cart: ${cartRes.status} ${await cartRes.text()}`);
      const cart = (await cartRes.json()) as { transactionId: string; position: string };
      // Wait for the read models to show the cart (read-your-writes), then measure without the header.
      // On a busy machine the projections, just started after the rebuild, can take longer than
      // the gate's timeout: ask again until the cart shows.
      for (let tries = 0; ; tries++) {
        const res = await fetch(`${base}/transactions/${cart.transactionId}`, {
          headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-Min-Position': cart.position },
        });
        if (res.status === 200) break;
        if (tries === 30) throw new Error(`the cart does not show: ${res.status}`);
      }

      const searchTerm = g.lastNames[0]!.slice(0, 4).toLowerCase();
      const list = (page: number, search?: string) =>
        `/admin/tickets?sort=name:ASC&limit=20&offset=${(page - 1) * 20}${search ? `&searchTerm=${encodeURIComponent(search)}` : ''}`;
      const page500 = (await staffGet(list(500))) as { content: unknown[]; totalCount: number };
      if (page500.content.length !== 20)
        throw new Error(`page 500 has ${page500.content.length} rows (of ${page500.totalCount})`);
      const searched = (await staffGet(list(1, searchTerm))) as { totalCount: number };
      if (searched.totalCount === 0) throw new Error(`no reservation matches ${searchTerm}`);

      const scenarios: {
        key: string;
        label: string;
        op: () => Promise<unknown>;
        target?: number;
      }[] = [
        { key: 'baseline', label: 'baseline: SELECT 1', op: () => pool.query('SELECT 1') },
        // References, not targets: what any request costs before its own work.
        { key: 'httpFloor', label: 'reference: GET /api/healthz', op: () => get('/healthz') },
        {
          key: 'httpFloorSignedIn',
          label: 'reference: GET /api/healthz signed in',
          op: () => staffGet('/healthz'),
        },
        {
          // The target is the month's slots query (below), as bench:summary holds it; the whole
          // calendar page, with and without a cart, is reported beside it.
          key: 'calendar',
          label: 'visitor month calendar (room + slots)',
          op: () =>
            Promise.all([get(`/rooms/${room.id}`), get(`/rooms/${room.id}/booking?${monthQuery}`)]),
        },
        {
          key: 'calendarSlots',
          label: '  GET rooms/{id}/booking (month)',
          target: 10,
          op: () => get(`/rooms/${room.id}/booking?${monthQuery}`),
        },
        {
          key: 'calendarWithCart',
          label: 'visitor month calendar with a cart',
          op: () =>
            Promise.all([
              get(`/rooms/${room.id}`),
              get(`/transactions/${cart.transactionId}`),
              get(
                `/transactions/${cart.transactionId}/rooms/${room.id}/available-timeslots?${monthQuery}`,
              ),
            ]),
        },
        {
          key: 'reservationsPage1',
          label: 'reservations by name, page 1',
          target: 30,
          op: () => staffGet(list(1)),
        },
        {
          key: 'reservationsPage500',
          label: 'reservations by name, page 500',
          target: 30,
          op: () => staffGet(list(500)),
        },
        {
          key: 'reservationsSearch',
          label: `reservations by name, search "${searchTerm}"`,
          target: 30,
          op: () => staffGet(list(1, searchTerm)),
        },
        {
          key: 'reservationsSearchPage5',
          label: `  ... page 5 of the search`,
          target: 30,
          op: () => staffGet(list(5, searchTerm)),
        },
        {
          key: 'insights',
          label: `insights, all ${ROOMS} rooms over ${DAYS} days`,
          target: 300,
          op: () => staffGet(insightsPath),
        },
      ];
      const results: Record<string, Percentiles> = {};
      for (const s of scenarios) {
        t0 = performance.now();
        results[s.key] = await sequential(REQUESTS, () => s.op().then(() => undefined));
        console.log(`  ${s.label}: ${round((performance.now() - t0) / 1000, 1)} s`);
      }
      const baseP95 = results.baseline!.p95;
      console.log();
      printTable(
        ['scenario', 'p50 ms', 'p95 ms', 'p99 ms', 'p95/baseline', 'target p95'],
        scenarios.map((s) => {
          const r = results[s.key]!;
          return [
            s.label,
            r.p50,
            r.p95,
            r.p99,
            round(r.p95 / baseP95, 1),
            s.target ? `< ${s.target} ms ${r.p95 < s.target ? 'met' : 'NOT met'}` : '',
          ];
        }),
      );

      // The scale model: the public reads at a large library's size.
      console.log(
        `\nscale model: ${SCALE_ROOMS} rooms x ${SCALE_SLOTS_PER_DAY} slots a day x 365 days, ${SCALE_TICKETS.toLocaleString('en')} tickets ...`,
      );
      t0 = performance.now();
      const model = await writeScaleModel(pool, {
        rooms: SCALE_ROOMS,
        slotsPerDay: SCALE_SLOTS_PER_DAY,
        days: 365,
        tickets: SCALE_TICKETS,
        today,
      });
      await settle(pool);
      console.log(
        `  ${model.slots.toLocaleString('en')} slots, ${model.tickets.toLocaleString('en')} tickets written in ${round((performance.now() - t0) / 1000, 1)} s`,
      );
      const openRoom = model.roomIds[0]!;
      const calendarOf = (roomId: string) => () =>
        Promise.all([get(`/rooms/${roomId}`), get(`/rooms/${roomId}/booking?${monthQuery}`)]);
      const display = (await get('/display')) as { rooms: unknown[] };
      if (display.rooms.length !== ROOMS + SCALE_ROOMS)
        throw new Error(`the display shows ${display.rooms.length} rooms`);
      const scale: Record<string, ScaleFigure> = {
        displayAllOpen: await scaleFigure('display, every slot open', () => get('/display')),
        calendarAllOpen: await scaleFigure(
          'visitor calendar, every slot open',
          calendarOf(openRoom),
        ),
      };
      const closed = await closeHalfTheRooms(pool, model);
      await settle(pool);
      scale.displayHalfClosed = await scaleFigure('display, half the rooms closed', () =>
        get('/display'),
      );
      scale.calendarHalfClosed = await scaleFigure(
        'visitor calendar, half the rooms closed',
        calendarOf(openRoom),
      );
      scale.calendarClosedRoom = await scaleFigure(
        'visitor calendar of a closed room',
        calendarOf(closed[0]!),
      );
      // A/B in this run: a crowd's reads with the answers shared while nothing changes.
      const sharedGet = async (path: string): Promise<unknown> => {
        const res = await fetch(sharedBase + path, {
          headers: { 'X-Requested-With': 'XMLHttpRequest' },
        });
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
        return res.json();
      };
      scale.displayHalfClosedShared = await scaleFigure(
        'display, half closed, shared answers (1 s)',
        () => sharedGet('/display'),
      );
      scale.calendarHalfClosedShared = await scaleFigure(
        'visitor calendar, half closed, shared answers (1 s)',
        () =>
          Promise.all([
            sharedGet(`/rooms/${openRoom}`),
            sharedGet(`/rooms/${openRoom}/booking?${monthQuery}`),
          ]),
      );
      // A/B in this run: the display as it was before the partial index of open slots.
      await pool.query('DROP INDEX rm_time_slots_open_room_date');
      await pool.query('ANALYZE rm_time_slots');
      scale.displayHalfClosedWithoutIndex = await scaleFigure(
        'display, half closed, without the open-slot index',
        () => get('/display'),
        Math.max(3, Math.round(SCALE_REQUESTS / 3)),
      );
      // Sites: the scale model's rooms as 20 sites of 10 rooms (a library system's branches),
      // the public reads of one site against the whole library's, and a branch admin's
      // reservations list against an all-sites admin's.
      const siteSlugs = await writeSites(pool, model, SITES);
      const branch = siteSlugs[Math.floor(SITES / 2)]!;
      await createUser(pool, 'bench-branch', 'bench password', [`admin@${branch}`]);
      const branchLogin = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ username: 'bench-branch', password: 'bench password' }),
      });
      if (branchLogin.status !== 200) throw new Error(`sign-in failed: ${branchLogin.status}`);
      const branchCookie = branchLogin.headers.get('set-cookie')!.split(';')[0]!;
      const sitesAnswer = (await get('/sites')) as { content: unknown[] };
      if (sitesAnswer.content.length !== SITES + 1)
        throw new Error(`GET /sites lists ${sitesAnswer.content.length} sites`);
      scale.sitesList = await scaleFigure(`sites list (${SITES + 1} sites)`, () => get('/sites'));
      scale.roomsAll = await scaleFigure('room list, every site', () => get('/rooms'));
      scale.roomsOfSite = await scaleFigure('room list of one site', () =>
        get(`/rooms?site=${branch}`),
      );
      scale.reservationsAllSites = await scaleFigure('reservations page 1, all-sites admin', () =>
        staffGet(list(1)),
      );
      scale.reservationsBranch = await scaleFigure('reservations page 1, admin of one site', () =>
        get(list(1), { Cookie: branchCookie }),
      );
      console.log();
      printTable(
        ['scale model', 'p50 ms', 'p95 ms', '10 at once p50 ms', '10 at once max ms', 'target'],
        Object.values(scale).map((f) => [
          f.what,
          f.one.p50,
          f.one.p95,
          f.ten.p50,
          f.ten.max,
          `p50 < ${SCALE_MEDIAN_MS}, 10 < ${SCALE_TEN_MS} ${f.met ? 'met' : 'NOT met'}`,
        ]),
      );
      await writeResults('queries', {
        postgres,
        data: {
          rooms: ROOMS,
          days: DAYS,
          events: g.events,
          slots: g.slots,
          tickets: g.tickets,
          ticketsByStatus: g.ticketsByStatus,
          personalData: g.personalData,
        },
        requestsPerScenario: REQUESTS,
        unit: 'milliseconds per request, one client, sequential, end to end over HTTP (in-process app)',
        month: { roomId: room.id, fromDate, untilDate, slots: slots.length },
        scaleModel: {
          rooms: model.rooms,
          slotsPerDay: model.slotsPerDay,
          days: model.days,
          slots: model.slots,
          tickets: model.tickets,
          closedRooms: closed.length,
          sites: SITES,
          requestsPerFigure: SCALE_REQUESTS,
          targets: { medianMs: SCALE_MEDIAN_MS, tenAtOnceMs: SCALE_TEN_MS },
          figures: scale,
        },
        searchTerm,
        insights: { path: insightsPath },
        scenarios: Object.fromEntries(
          scenarios.map((s) => [
            s.key,
            {
              what: s.label.trim(),
              ...results[s.key],
              p95ToBaseline: round(results[s.key]!.p95 / baseP95, 2),
              ...(s.target ? { targetP95: s.target, met: results[s.key]!.p95 < s.target } : {}),
            },
          ]),
        ),
      });
    } finally {
      sharedServer.closeAllConnections();
      await new Promise<void>((r) => sharedServer.close(() => r()));
      httpServer.closeAllConnections();
      await new Promise<void>((r) => httpServer.close(() => r()));
      await runner.stop();
      await notifier.stop();
    }
  });
}

runMain(main);
