import { existsSync } from 'node:fs';
import path from 'node:path';
import { commandRoutes, existingSiteIds, type CommandDeps } from '@rr/command-service';
import {
  AVAILABILITY_STREAM_PATH,
  LiveAvailability,
  minPositionGate,
  queryRoutes,
} from '@rr/query-service';
import type { EventNotifier } from '@rr/events';
import { insightsRoutes } from '@rr/insights';
import {
  apiNotFound,
  buildOpenApi,
  express,
  limitRequests,
  shedLoad,
  mountRoutes,
  jsonBodies,
  problemHandler,
  requestLogger,
  requireXhrHeader,
  securityHeaders,
  webPushSettingsOf,
  walletsConfigured,
  type Config,
  type Logger,
  type Pool,
  type ReadPools,
  type RouteDef,
} from '@rr/platform';
import {
  APPLE_WEB_SERVICE_PATH,
  appleWebServiceRoutes,
  calendarFeedRoutes,
  outboundPolicyOf,
  pushPolicyOf,
  pushSubscriptionRoutes,
  PushSubscriptionStore,
  walletRoutes,
  webhookRoutes,
  webhookSigningKey,
  WebhookStore,
} from '@rr/integrations';
import {
  apiTokenRoutes,
  ApiTokenStore,
  authRoutes,
  bearerAuthentication,
  currentStaff,
  queryTokenAuthentication,
  SAML_ACS_PATH,
  SESSION_COOKIE,
  signInLimitsFrom,
  LdapDirectory,
  ldapSettingsFrom,
  OidcProvider,
  oidcSettingsFrom,
  SamlServiceProvider,
  samlSettingsFrom,
  signInPolicyFrom,
  VISITOR_SAML_ACS_PATH,
  visitorAuthRoutes,
  visitorOfRequest,
  visitorSignInSettingsFrom,
} from '@rr/identity';
import type { RequestHandler } from 'express';
import { mountOps } from './ops.ts';
import { currentRelease } from './release.ts';
import { knownSiteSlugs, siteLookup } from './site-lookup.ts';

export type Role = 'all' | 'command' | 'query';

export interface AppOptions {
  role: Role;
  deps: CommandDeps;
  config: Config;
  logger: Logger;
  sessions: RequestHandler;
  readModels: string[];
  serveFrontend: boolean;
  /**
   * Streaming replicas (READ_DATABASE_URL) for the query routes, the read-your-writes gate and
   * readiness; sessions, sign-in and commands keep the primary's pool (`deps.pool`).
   */
  reads?: ReadPools | null;
  /**
   * Notified when the read models moved (the projector's READ_MODELS_CHANNEL): wakes live
   * availability's watcher (LIVE_WAKE), which else learns of it at its next poll.
   */
  readModelsMoved?: EventNotifier | null;
  /**
   * Sessions made in the process that name no account (the demo seed's own caller): their user
   * is taken as it is. Every other app checks each session's account in the database.
   */
  trustedSessions?: boolean;
}

export function routesFor(
  role: Role,
  deps: CommandDeps,
  config: Config,
  readPool: Pool = deps.pool,
  live?: LiveAvailability,
): RouteDef[] {
  const routes: RouteDef[] = [];
  // API tokens on the primary in every role: a revocation holds at once, replica lag or not.
  const tokens = apiTokenRoutes(
    new ApiTokenStore(deps.pool, deps.clock),
    deps.clock,
    knownSiteSlugs(deps.pool),
  );
  // Webhook endpoints on the primary too: the delivery job reads them there.
  let signingKey: Promise<string> | null = null;
  const webhooks = webhookRoutes(
    new WebhookStore({
      pool: deps.pool,
      clock: deps.clock,
      policy: outboundPolicyOf(config),
      knownSites: (ids) => existingSiteIds(deps.store, ids),
      signingKey: () =>
        (signingKey ??= webhookSigningKey(deps.pool, config).catch((err: unknown) => {
          signingKey = null;
          throw err;
        })),
    }),
  );
  if (role !== 'query') {
    const ldap = ldapSettingsFrom(config);
    const oidc = oidcSettingsFrom(config);
    const saml = samlSettingsFrom(config);
    const auth = {
      clock: deps.clock,
      signInLimits: signInLimitsFrom(config),
      logger: deps.logger,
      policy: signInPolicyFrom(config),
      ldap: ldap ? new LdapDirectory(ldap) : null,
      oidc: oidc ? new OidcProvider(oidc, deps.clock) : null,
      saml: saml ? new SamlServiceProvider(saml, deps.pool, deps.clock) : null,
      sessionSecret: config.SESSION_SECRET,
      knownSiteSlugs: knownSiteSlugs(deps.pool),
    };
    const visitors = visitorSignInSettingsFrom(config);
    routes.push(
      ...authRoutes(deps.pool, auth),
      ...visitorAuthRoutes({
        pool: deps.pool,
        clock: deps.clock,
        logger: deps.logger,
        oidc: visitors.oidc ? new OidcProvider(visitors.oidc, deps.clock) : null,
        saml: visitors.saml ? new SamlServiceProvider(visitors.saml, deps.pool, deps.clock) : null,
        sessionMs: visitors.sessionMs,
      }),
      ...tokens.writes,
      ...webhooks.writes,
      ...pushSubscriptionRoutes(
        new PushSubscriptionStore({
          pool: deps.pool,
          clock: deps.clock,
          policy: pushPolicyOf(config),
          enabled: webPushSettingsOf(config) !== null,
        }),
      ),
      // Apple Wallet's web service writes registrations: on the primary, beside the commands.
      ...appleWebServiceRoutes({
        pool: deps.pool,
        clock: deps.clock,
        logger: deps.logger,
        timeZone: deps.timeZone,
        checkInCodes: deps.checkInCodes,
        libraryName: config.LIBRARY_NAME,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        config,
      }),
      ...commandRoutes(deps),
    );
  }
  if (role !== 'command')
    routes.push(
      ...tokens.reads,
      ...webhooks.reads,
      ...calendarFeedRoutes({ pool: readPool, clock: deps.clock, timeZone: deps.timeZone }),
      ...walletRoutes({
        pool: readPool,
        clock: deps.clock,
        timeZone: deps.timeZone,
        checkInCodes: deps.checkInCodes,
        libraryName: config.LIBRARY_NAME,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        writePool: deps.pool,
        config,
      }),
      ...queryRoutes({
        ...deps,
        pool: readPool,
        sharedReadMs: config.PUBLIC_READ_CACHE_MS,
        contactEmail: config.LIBRARY_CONTACT_EMAIL,
        libraryName: config.LIBRARY_NAME,
        webPushPublicKey: webPushSettingsOf(config)?.publicKey,
        wallets: walletsConfigured(config),
        visitorSignIn: [
          ...(config.VISITOR_OIDC_ISSUER ? (['oidc'] as const) : []),
          ...(config.VISITOR_SAML_IDP_METADATA ? (['saml'] as const) : []),
        ],
        visitorBaseUrl: config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}/`,
        ...(live ? { live } : {}),
      }),
      ...insightsRoutes({ ...deps, pool: readPool, libraryName: config.LIBRARY_NAME }),
    );
  return routes;
}

export function openApiDocument(deps: CommandDeps, config: Config): object {
  return buildOpenApi(routesFor('all', deps, config), {
    title: 'Reading-room reservations API',
    version: '0.1.0',
  });
}

export function createApp(options: AppOptions): express.Express {
  const { config, logger, deps } = options;
  const app = express();
  app.disable('x-powered-by');
  if (config.TRUST_PROXY) app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'simple');
  app.use(securityHeaders(config.CSP_EXTRA_ORIGINS));

  const readPool = options.reads?.pool ?? deps.pool;
  // The process's streams of live availability and their one watcher (query processes only).
  const live =
    options.role === 'command'
      ? undefined
      : new LiveAvailability(readPool, deps.clock, {
          maxStreams: config.LIVE_STREAMS_MAX,
          pollMs: config.LIVE_POLL_MS,
          wakeGapMs: config.LIVE_WAKE_GAP_MS,
          heartbeatMs: config.LIVE_HEARTBEAT_MS,
          readModels: options.readModels,
        });
  if (live && config.LIVE_WAKE) options.readModelsMoved?.on('wake', () => live.wake());
  const api = express.Router();
  const ops = mountOps(
    api,
    options.role === 'command' ? deps.pool : readPool,
    options.readModels,
    config.READY_MAX_LAG,
    currentRelease(),
    live,
    deps.store,
  );
  api.use(ops.observe);
  api.use(requestLogger(logger));
  // A crowd gets a quick 503 with Retry-After rather than waits without bound; health and
  // readiness answer however busy the process is (a load balancer must not take it for dead).
  // An event stream would hold its turn for as long as it is open: streams have their own bound
  // (LIVE_STREAMS_MAX).
  api.use(
    shedLoad({
      concurrency: config.LOAD_SHED_CONCURRENCY,
      queue: config.LOAD_SHED_QUEUE,
      maxWaitMs: config.LOAD_SHED_MAX_WAIT_MS,
      retryAfterSeconds: config.LOAD_SHED_RETRY_AFTER_SECONDS,
      retryAfterSpread: config.LOAD_SHED_RETRY_AFTER_SPREAD,
      exempt: (req) => OPS_PATHS.has(req.path) || AVAILABILITY_STREAM_PATH.test(req.path),
    }),
  );
  const routes = routesFor(options.role, deps, config, readPool, live);
  api.use(jsonBodies(routes, '100kb'));
  // The SAML identity provider posts its answer as a form (signed XML, base64: larger).
  api.post(
    ['/auth/saml/acs', VISITOR_SAML_ACS_PATH],
    express.urlencoded({ extended: false, limit: '1mb' }),
  );
  // A machine's API token (Authorization: Bearer rr_…) is checked on the primary by every
  // process; its requests need no CSRF header and never load a session.
  const tokenStore = new ApiTokenStore(deps.pool, deps.clock);
  api.use(bearerAuthentication(tokenStore));
  // Calendar feeds also take a reports token as ?token= (calendar applications send no header).
  api.use(queryTokenAuthentication(tokenStore, /^\/admin\/rooms\/[^/]+\/calendar\.ics$/));
  api.use(requireXhrHeader([SAML_ACS_PATH, VISITOR_SAML_ACS_PATH], [`${APPLE_WEB_SERVICE_PATH}/`]));
  // Sessions only where one can exist: sign-in and sign-out (staff's and visitors'), and requests carrying the session
  // cookie. Without the cookie there is no signed-in user, so a visitor's request skips the
  // session machinery (an empty session object per request that is never saved). A request with
  // an API token is its token's: a cookie beside it is not read.
  api.use((req, res, next) => {
    const cookie = !req.apiTokenUser && hasSessionCookie(req.headers.cookie);
    if (req.path.startsWith('/auth/') || req.path.startsWith('/visitor-auth/') || cookie) {
      options.sessions(req, res, next);
    } else next();
  });
  // The signed-in account as the database has it now, in every process (roles, removal, ended
  // sessions), on the primary like the sessions themselves.
  if (!options.trustedSessions)
    api.use(currentStaff(deps.pool, { clock: deps.clock, policy: signInPolicyFrom(config) }));
  // The visitor signed in with the campus identity, for the members' rules of rooms.
  api.use(visitorOfRequest(deps.clock));
  // Guessing: new carts and owner-id lookups are limited per client (in the process); failed
  // sign-ins delay further attempts across processes (authRoutes, identity/src/sign-in-limit.ts).
  // New carts, waitlist joins and offers taken count together (each may start a hold or a mail).
  const newCarts = limitRequests({ windowMs: 60_000, limit: config.RATE_LIMIT_CARTS });
  api.post('/transactions', newCarts);
  api.post(['/timeslots/:timeSlotId/waitlist', '/timeslots/:timeSlotId/waitlist/*rest'], newCarts);
  // A walk-in at a seat books at once: it counts with new carts.
  api.post('/rooms/:roomId/seats/:seatId/walk-in', newCarts);
  // Owner ids and "my bookings" links are secrets in a path: their lookups count together, and so
  // do the checks of a booking number and address at a seat (a guess of a booking's pair).
  const ownerLookups = limitRequests({ windowMs: 60_000, limit: config.RATE_LIMIT_OWNER_LOOKUPS });
  api.use(['/owners', '/my-bookings'], ownerLookups);
  api.post(
    ['/rooms/:roomId/seats/:seatId/check-in', '/rooms/:roomId/seats/:seatId/check-in/undo'],
    ownerLookups,
  );
  // A "my bookings" link mail per hour: so many per client, and so many per address (by its key,
  // so the counter holds no address), however many clients ask for it.
  api.post(
    '/my-bookings/link',
    limitRequests({ windowMs: 3_600_000, limit: config.RATE_LIMIT_MY_BOOKINGS_LINKS }),
    limitRequests({
      windowMs: 3_600_000,
      limit: config.RATE_LIMIT_MY_BOOKINGS_LINKS_PER_ADDRESS,
      key: (req) => `address:${deps.emailKey(emailOf(req.body))}`,
    }),
  );
  if (options.role !== 'command') {
    // One server per request for the gate and the read (a replica, see platform/src/read-pools.ts).
    if (options.reads) api.use(options.reads.pin);
    const gate = minPositionGate(readPool, options.readModels, config.READ_YOUR_WRITES_TIMEOUT_MS);
    api.use((req, res, next) => (req.method === 'GET' ? gate(req, res, next) : next()));
  }
  const release = currentRelease();
  api.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', version: release.version, commit: release.commit });
  });
  const document = openApiDocument(deps, config);
  api.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  // Staff routes check the sites of what they touch for users whose roles are for some sites.
  mountRoutes(api, routes, siteLookup(deps.pool));
  api.use(apiNotFound);
  api.use(problemHandler(logger));
  app.use('/api', api);

  if (options.serveFrontend) mountFrontend(app, config.FRONTEND_DIST);
  app.use(problemHandler(logger));
  return app;
}

const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** The address a request's body names (its key is what the per-address limit counts). */
function emailOf(body: unknown): string {
  const email = typeof body === 'object' && body !== null && 'email' in body ? body.email : '';
  return typeof email === 'string' ? email : '';
}

const hasSessionCookie = (cookie: string | undefined) =>
  cookie !== undefined && cookie.includes(`${SESSION_COOKIE}=`);

/**
 * The built SPA: visitor app at /, admin app at /admin/, the occupancy display at /display/
 * (and at a site's own address, /s/{slug}/display); unknown paths, a site's own pages
 * (/s/{slug}/...) among them, fall back to the visitor app.
 */
export function mountFrontend(app: express.Express, dist: string): void {
  const visitorHtml = path.join(dist, 'index.html');
  const adminHtml = path.join(dist, 'admin', 'index.html');
  const displayHtml = path.join(dist, 'display', 'index.html');
  app.use(express.static(dist, { index: false, maxAge: '1h', setHeaders: noCacheHtml }));
  const send = (file: string) => (_req: express.Request, res: express.Response) => {
    if (!existsSync(file)) {
      res
        .status(503)
        .type('text/plain')
        .send('The frontend is not built yet: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(file);
  };
  app.get(['/admin', '/admin/{*rest}'], send(adminHtml));
  app.get(
    ['/display', '/display/{*rest}', '/s/:slug/display', '/s/:slug/display/{*rest}'],
    send(displayHtml),
  );
  app.get('/{*rest}', send(visitorHtml));
}

/**
 * Files whose address stays the same from release to release: the pages, the service worker
 * (a browser checks it for a new release on each visit) and the web app manifest are revalidated
 * on every use; the assets' names change with their content.
 */
const SAME_ADDRESS_FILES = /(\.html|[\\/]sw\.js|[\\/]manifest\.webmanifest)$/;

function noCacheHtml(res: express.Response, file: string): void {
  if (SAME_ADDRESS_FILES.test(file)) res.setHeader('Cache-Control', 'no-cache');
}
