import {
  bookingLimitsOf,
  createLogger,
  loadConfig,
  systemClock,
  type Clock,
  type Config,
  listen,
  whatIfSettingsOf,
  seatPlanLimitsOf,
  checkInCodes,
  emailKey,
  subjectKey,
  myBookingsLinks,
  waitlistReferences,
} from '@rr/platform';
import { createUser, sessionMiddleware } from '@rr/identity';
import type { DestinationStream } from 'pino';
import { EventNotifier, EventStore, validateEvent, type Upcasters } from '@rr/events';
import { calendarImportSettings, type CommandDeps } from '@rr/command-service';
import { createApp } from '../../server/src/app.ts';
import {
  groupCommitOf,
  projectionSettingsOf,
  readModelNames,
  startProjections,
  startWebhookSender,
} from '../../server/src/runtime.ts';
import { READ_MODELS_CHANNEL } from '@rr/projections';
import { createTestDatabase as createTestDatabaseForSuite, type TestDatabase } from './db.ts';
import { maxPosition } from '../../frontend/src/lib/position.ts';
import type { ReservedPort } from './ports.ts';
import { budget } from './time-budget.ts';

/** The secret of the e-mail keys and check-in references of the test apps. */
export const TEST_KEY_SECRET = 'test-secret';

export interface TestApp {
  baseUrl: string;
  /** What the app's commands and jobs run with (its store records at the test's clock). */
  deps: CommandDeps;
  config: Config;
  close(): Promise<void>;
}

/** The all-in-one API (commands, queries, projections) in this process, on a free port. */
export interface TestAppOptions {
  /**
   * Configuration variables over the test defaults; also the booking limits (`MAX_CART_TICKETS`,
   * `MAX_TICKETS_PER_DAY`, …), which reach the commands, the calendar and `/api/settings` from
   * the config as in the server.
   */
  env?: Record<string, string>;
  /** Where the app's log lines go (at level info), to check what the logs carry. */
  logTo?: DestinationStream;
  verifyHuman?: (token: string | undefined) => Promise<boolean>;
  /** Upcasters of the app's event store (old event shapes a test writes), none by default. */
  upcasters?: Upcasters;
  /**
   * The port to serve on (a free one by default), for a provider that must know the app's URL:
   * reserved by the test and released just before the app listens.
   */
  port?: ReservedPort;
  /**
   * The key of an address, in place of the app's (`emailKey` with the test secret): an app keying
   * as a previous release did, beside one keying as this one does on the same database.
   */
  emailKey?: (email: string) => string;
}

export async function startTestApp(
  db: TestDatabase,
  clock: Clock = systemClock,
  options: TestAppOptions = {},
): Promise<TestApp> {
  // Rate limits are high here (tests make many requests from one address); the rate-limit test
  // lowers them. Sign-in keeps its defaults: only failures count, and few tests fail a sign-in.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    // A read waits this long for the client's own write: stretched on a slow or busy machine,
    // where the projection may need longer than the server's default.
    READ_YOUR_WRITES_TIMEOUT_MS: String(budget(5000)),
    // Reading a calendar file starts a worker thread first: on a busy machine that alone is slow.
    HOLIDAY_IMPORT_READ_TIMEOUT_MS: String(budget(30_000)),
    RATE_LIMIT_CARTS: '100000',
    RATE_LIMIT_OWNER_LOOKUPS: '100000',
    // Tests fire bursts on a loaded machine: a turn may come late, but it comes (the
    // load-shedding test lowers the limits).
    LOAD_SHED_MAX_WAIT_MS: '60000',
    RATE_LIMIT_MY_BOOKINGS_LINKS: '100000',
    RATE_LIMIT_MY_BOOKINGS_LINKS_PER_ADDRESS: '100000',
    ...options.env,
  });
  const logger = options.logTo
    ? createLogger('info', 'rr-test', options.logTo)
    : createLogger('silent');
  const notifier = new EventNotifier(db.url);
  await notifier.start();
  // The app's own store records its events at the app's clock (db.store may have another).
  const store = new EventStore(db.pool, {
    validate: validateEvent,
    clock,
    upcasters: options.upcasters,
    groupCommit: groupCommitOf(config),
  });
  const deps: CommandDeps = {
    store,
    pool: db.pool,
    clock,
    logger,
    timeZone: 'Europe/Vienna',
    emailKey: options.emailKey ?? ((email: string) => emailKey(TEST_KEY_SECRET, email)),
    subjectKey: (subject: string) => subjectKey(TEST_KEY_SECRET, subject),
    checkInCodes: checkInCodes(TEST_KEY_SECRET),
    waitlistReferences: waitlistReferences(TEST_KEY_SECRET),
    myBookingsLinks: myBookingsLinks(TEST_KEY_SECRET),
    limits: bookingLimitsOf(config),
    calendarImport: calendarImportSettings(config),
    closureMaxDays: config.CLOSURE_MAX_DAYS,
    seatPlans: seatPlanLimitsOf(config),
    whatIf: whatIfSettingsOf(config, db.url),
    staffSignInRecordDays: config.STAFF_SIGN_IN_RECORD_DAYS,
    verifyHuman: options.verifyHuman ?? (() => Promise.resolve(true)),
  };
  const runner = startProjections(
    {
      pool: db.pool,
      store,
      notifier,
      deps,
      projectionSettings: projectionSettingsOf(config),
      close: () => Promise.resolve(),
    },
    logger,
  );
  // The webhook delivery job, as beside the projections in the server (due by the app's clock).
  const webhooks = startWebhookSender({ pool: db.pool, deps }, config, logger);
  const sessions = await sessionMiddleware(db.pool, { secureCookie: false });
  // Live availability's watcher woken by the projections, as in the server.
  const readModelsMoved = config.LIVE_WAKE ? new EventNotifier(db.url, READ_MODELS_CHANNEL) : null;
  await readModelsMoved?.start();
  const app = createApp({
    role: 'all',
    deps,
    config,
    logger,
    sessions,
    readModels: readModelNames,
    serveFrontend: false,
    readModelsMoved,
  });
  options.port?.release();
  const server = await listen(app, options.port?.port ?? 0, '127.0.0.1');
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    deps,
    config,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await webhooks.stop();
      await runner.stop();
      await notifier.stop();
      await readModelsMoved?.stop();
      sessions.close();
    },
  };
}

export interface AdminSuite {
  db: TestDatabase;
  app: TestApp;
  /** Signed in as `boss` with the admin role. */
  admin: Client;
  close(): Promise<void>;
}

/** A test file's own database and app, with an admin signed in: the usual setup of an API test. */
export async function openAdminSuite(
  clock?: Clock,
  options: TestAppOptions = {},
): Promise<AdminSuite> {
  const db = await createTestDatabaseForSuite(clock);
  const app = await startTestApp(db, clock, options);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  const admin = new Client(app.baseUrl);
  const res = await admin.login('boss', 'correct horse');
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status}`);
  return {
    db,
    app,
    admin,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

export async function addUser(
  db: TestDatabase,
  username: string,
  password: string,
  /** As written: `admin` for all sites, `admin@jura` for one. */
  roles: readonly string[],
): Promise<void> {
  await createUser(db.pool, username, password, roles);
}

/** A fetch client with a cookie jar, the XHR header and read-your-writes, like the SPA. */
export class Client {
  private cookie = '';
  lastPosition: string | null = null;

  constructor(readonly baseUrl: string) {}

  async request(
    method: string,
    path: string,
    options: {
      json?: unknown;
      form?: FormData;
      /** A body of another type than JSON (a CSV upload), as it is. */
      raw?: { body: string | Uint8Array<ArrayBuffer>; type: string };
      headers?: Record<string, string>;
      xhr?: boolean;
      /** 'manual' to see a redirect (sign-in with an identity provider) instead of following it. */
      redirect?: 'follow' | 'manual';
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.xhr !== false) headers['X-Requested-With'] = 'XMLHttpRequest';
    if (this.cookie) headers.Cookie = this.cookie;
    if (method === 'GET' && this.lastPosition) headers['X-Min-Position'] = this.lastPosition;
    let body: RequestInit['body'];
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) body = options.form;
    else if (options.raw) {
      headers['Content-Type'] = options.raw.type;
      body = options.raw.body;
    }
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      body,
      redirect: options.redirect,
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    if (res.ok && method !== 'GET' && res.headers.get('content-type')?.includes('json')) {
      const data = (await res.clone().json()) as { position?: string };
      // The highest position seen, as the browser keeps it: an answer that wrote nothing
      // (position 0_0) does not lower what the next read waits for.
      this.lastPosition = maxPosition(this.lastPosition, data.position);
    }
    return res;
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, headers ? { headers } : {});
  }

  /**
   * Takes the session cookie of an answer to another request (a form the browser posted, such
   * as an identity provider's answer), as the browser would.
   */
  takeCookie(res: Response): this {
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    return this;
  }

  /** Uses the session of another client (sessions live in PostgreSQL: any instance knows them). */
  shareSession(other: Client): this {
    this.cookie = other.cookie;
    return this;
  }

  async login(username: string, password: string): Promise<Response> {
    return this.request('POST', '/api/auth/login', { json: { username, password } });
  }
}
