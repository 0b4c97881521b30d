import express, { type Request, type Response, type NextFunction, type Router } from 'express';
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import helmet from 'helmet';
import {
  OpenApiGeneratorV31,
  OpenAPIRegistry,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from './validation.ts';
import { parseOrThrow, unstorableTextErrors } from './validation.ts';
import { Problem, problems } from './problem.ts';
import type { Logger } from './logger.ts';

import { routeOf } from './problem-handler.ts';

export { problemHandler } from './problem-handler.ts';

/** Staff roles: everything, the reports only, and the check-in screen only. */
export const STAFF_ROLES = ['admin', 'reports', 'checkin'] as const;
export type Role = (typeof STAFF_ROLES)[number];

/** Who may use the check-in screen and its endpoints: admins and check-in staff. */
export const CHECK_IN_ROLES: Role[] = ['admin', 'checkin'];

export interface SessionUser {
  username: string;
  roles: Role[];
  /** Set when a machine's API token (`Authorization: Bearer rr_…`) made the request. */
  token?: { id: string; name: string };
}

declare module 'express-session' {
  interface SessionData {
    /** The signed-in staff user (@rr/identity's sessions.ts keeps the rest of the session). */
    user?: SessionUser;
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The staff user of a valid API token (@rr/identity's api-tokens.ts), before any session. */
    apiTokenUser?: SessionUser;
  }
}

/** Who may call a route: anyone, any signed-in user, or a signed-in user holding one of the roles. */
export type Access = 'public' | 'signed-in' | Role[];

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  user: SessionUser | undefined;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteDef {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI-style path below /api, e.g. `/admin/rooms/{id}`. */
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Multipart form fields documented in OpenAPI; the handler parses the upload itself. */
  multipart?: z.ZodObject;
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /**
   * What a path with malformed params names as not found (404 instead of 400): ids from links in
   * mails (owner ids) are unknown when damaged, which is what the pages reading them tell apart.
   */
  malformedPathNotFound?: string;
  handler: (ctx: HandlerContext<any, any, any>) => Promise<Reply | void>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each route's own zod schemas type its handler; see defineRoute
}

/**
 * Declares a route once: its zod schemas validate the request at the edge and document it in the
 * OpenAPI file; its access rule is checked on the server before the handler runs.
 */
export function defineRoute<
  P extends z.ZodObject = z.ZodObject<Record<string, never>>,
  Q extends z.ZodObject = z.ZodObject<Record<string, never>>,
  B extends z.ZodType = z.ZodUndefined,
>(def: {
  method: RouteDef['method'];
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  multipart?: z.ZodObject;
  responses: RouteDef['responses'];
  malformedPathNotFound?: string;
  handler: (ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>) => Promise<Reply | void>;
}): RouteDef {
  return def;
}

const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number(),
    error: z.string(),
    payload: z.array(z.string()),
    values: z.record(z.string(), z.string()).optional().openapi({
      description:
        'What the message names, beside the payload, for a code whose message key has no payload (timeslot__overlapping: date)',
    }),
    errors: z
      .array(z.object({ field: z.string(), rule: z.string(), message: z.string() }))
      .optional(),
  })
  .openapi('Problem');

function checkAccess(access: Access, user: SessionUser | undefined): void {
  if (access === 'public') return;
  if (!user) throw problems.unauthorized();
  if (access === 'signed-in') return;
  if (!access.some((r) => user.roles.includes(r))) throw problems.forbidden();
}

/** A body the parser refused on a link route, kept until the route has looked at its path. */
const deferredBodyErrors = new WeakMap<Request, unknown>();

/**
 * The JSON body parser of the API. A body it cannot read is answered 400 at once, except on a
 * route with `malformedPathNotFound`: there the route looks at its path first, so a damaged id
 * of a mail link answers 404 whatever body came with it, and a body error only after that.
 */
export function jsonBodies(routes: RouteDef[], limit: string) {
  const parse = express.json({ limit });
  const isLink = linkPathMatcher(routes.filter((r) => r.malformedPathNotFound !== undefined));
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (err?: unknown) => {
      if (err !== undefined && isLink(req).length > 0) {
        deferredBodyErrors.set(req, err);
        next();
        return;
      }
      next(err);
    });
}

export function mountRoutes(router: Router, routes: RouteDef[]): void {
  const links = routes.filter((r) => r.malformedPathNotFound !== undefined);
  if (links.length) router.use(undecodableLinkPaths(links));
  for (const route of routes) {
    const expressPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    router[route.method](expressPath, async (req: Request, res: Response) => {
      const user = req.apiTokenUser ?? req.session?.user;
      checkAccess(route.access, user);
      if (route.malformedPathNotFound && !validPath(route, req.params))
        throw problems.notFound(route.malformedPathNotFound);
      if (deferredBodyErrors.has(req)) throw deferredBodyErrors.get(req);
      // Text PostgreSQL cannot store is refused in every part of every request, schema or not.
      const unstorable = [
        ...unstorableTextErrors(req.params, 'path'),
        ...unstorableTextErrors(req.query, 'query'),
        ...unstorableTextErrors(req.body, 'body'),
      ];
      if (unstorable.length) throw problems.validation(unstorable);
      const params = route.params ? parseOrThrow(route.params, req.params) : {};
      const query = route.query ? parseOrThrow(route.query, req.query) : {};
      const body = route.body ? parseOrThrow(route.body, req.body ?? undefined) : undefined;
      const reply = await route.handler({ params, query, body, req, res, user });
      if (!reply || res.headersSent) return;
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
      const status = reply.status ?? 200;
      if (reply.body === undefined) res.status(status).end();
      else res.status(status).json(reply.body);
    });
  }
}

const validPath = (route: RouteDef, params: Request['params']) =>
  unstorableTextErrors(params, 'path').length === 0 &&
  (route.params?.safeParse(params).success ?? true);

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

/**
 * The router refuses a path segment that is not percent-encoded UTF-8 before any route sees it
 * (problem-handler.ts: 400). Paths of routes with `malformedPathNotFound` are looked at first,
 * undecoded, so such a segment in one of their params is an unknown id there too.
 */
function undecodableLinkPaths(routes: RouteDef[]) {
  const linksOf = linkPathMatcher(routes);
  return (req: Request, _res: Response, next: NextFunction) => {
    for (const link of linksOf(req))
      if (link.segments.some((s, i) => link.param(i) && !decodes(s)))
        throw problems.notFound(link.what);
    next();
  };
}

/**
 * Which of these routes a request's method and path (undecoded) name: per route its
 * `malformedPathNotFound`, the path's segments and which of them are params.
 */
function linkPathMatcher(routes: RouteDef[]) {
  const templates = routes.map((r) => ({
    method: r.method.toUpperCase(),
    segments: r.path.toLowerCase().split('/'),
    what: r.malformedPathNotFound ?? 'Resource',
  }));
  return (req: Request) => {
    const segments = req.path.replace(/(.)\/$/, '$1').split('/');
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const found: { what: string; segments: string[]; param: (i: number) => boolean }[] = [];
    for (const t of templates) {
      if (t.method !== method || t.segments.length !== segments.length) continue;
      const param = (i: number) => t.segments[i]!.startsWith('{');
      if (segments.every((s, i) => param(i) || s.toLowerCase() === t.segments[i]))
        found.push({ what: t.what, segments, param });
    }
    return found;
  };
}

export function buildOpenApi(routes: RouteDef[], info: { title: string; version: string }): object {
  const registry = new OpenAPIRegistry();
  registry.register('Problem', problemSchema);
  for (const route of routes) {
    const responses: RouteConfig['responses'] = {};
    for (const [status, r] of Object.entries(route.responses)) {
      responses[status] = r.schema
        ? {
            description: r.description,
            content: { [r.contentType ?? 'application/json']: { schema: r.schema } },
          }
        : { description: r.description };
    }
    responses['400'] ??= {
      description: 'Invalid request',
      content: { 'application/problem+json': { schema: problemSchema } },
    };
    if (route.access !== 'public') {
      responses['401'] ??= {
        description: 'Not signed in',
        content: { 'application/problem+json': { schema: problemSchema } },
      };
      responses['403'] ??= {
        description: 'Role missing',
        content: { 'application/problem+json': { schema: problemSchema } },
      };
    }
    const request: RouteConfig['request'] = {};
    if (route.params) request.params = route.params;
    if (route.query) request.query = route.query;
    if (route.body)
      request.body = { content: { 'application/json': { schema: route.body } }, required: true };
    if (route.multipart)
      request.body = { content: { 'multipart/form-data': { schema: route.multipart } } };
    registry.registerPath({
      method: route.method,
      path: `/api${route.path}`,
      summary: route.summary,
      tags: route.tags,
      request,
      responses,
      ...(route.access === 'public' ? {} : { security: [{ session: [] }, { bearer: [] }] }),
      ...(Array.isArray(route.access) ? { 'x-roles': route.access } : {}),
      ...(route.malformedPathNotFound
        ? { 'x-malformed-path-not-found': route.malformedPathNotFound }
        : {}),
    });
  }
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'rr.sid',
  });
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'rr_…',
    description:
      'An API token an admin created (POST /api/admin/api-tokens): the roles given to it, no ' +
      'X-Requested-With header needed. A revoked, expired or unknown token answers 401.',
  });
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({ openapi: '3.1.0', info });
}

/**
 * State-changing requests must carry X-Requested-With: XMLHttpRequest (CSRF defence). A request
 * authenticated by an API token needs none: a browser never attaches a bearer token by itself.
 */
export function requireXhrHeader(req: Request, _res: Response, next: NextFunction): void {
  const safe = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
  // The SAML identity provider's answer is a form the browser posts across sites: it carries its
  // own proof (a signed assertion answering one of our requests, used once).
  const samlAnswer = req.method === 'POST' && req.path === '/auth/saml/acs';
  if (
    !safe &&
    !samlAnswer &&
    !req.apiTokenUser &&
    req.get('x-requested-with') !== 'XMLHttpRequest'
  ) {
    next(new Problem(403, 'http__access_denied_exception', 'Missing X-Requested-With header'));
    return;
  }
  next();
}

/**
 * Helmet with a strict CSP: scripts only from this origin (the built SPA has no inline script).
 * `extraOrigins` (CSP_EXTRA_ORIGINS) admits the human-check service's script and frames when one
 * is configured (data-recaptcha-src), and nothing else.
 */
export function securityHeaders(extraOrigins: string[] = []) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", ...extraOrigins],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'", ...extraOrigins],
        'frame-src': ["'self'", ...extraOrigins],
        'frame-ancestors': ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}

export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      // Path template only: ids and query strings (e-mail addresses in blacklist paths) stay out.
      logger.info(
        {
          method: req.method,
          route: routeOf(req),
          status: res.statusCode,
          ms: Math.round(ms),
        },
        'request',
      );
    });
    next();
  };
}

/** Unknown /api paths answer problem+json 404 rather than the SPA. */
export function apiNotFound(_req: Request, _res: Response, next: NextFunction): void {
  next(problems.notFound('Endpoint'));
}

export { express };

/**
 * How long the server keeps an idle keep-alive connection. Clients close theirs sooner (fetch
 * after 4 s, proxies and load balancers within a minute); a server that closed first could reset
 * a request a client sent on the connection at that moment (ECONNRESET), most often when a busy
 * event loop fires the timers late.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The open connections of each server `listen` started, with the answers each has under way. */
const connectionsOf = new WeakMap<Server, Map<Socket, Connection>>();
interface Connection {
  /** The answers not yet sent in full. */
  inFlight: Set<ServerResponse>;
  /** When it was accepted (performance.now()). */
  since: number;
}

/**
 * How long a graceful close leaves a connection that has not sent a byte yet: one accepted just
 * before the close, whose request is still on its way (or waits in the kernel while a busy event
 * loop catches up). Closing it would reset a request the server never read.
 */
const FRESH_CONNECTION_GRACE_MS = 2_000;

/**
 * Starts serving `app` on `port` and `host` and answers the listening server. `backlog`: the
 * connections the kernel keeps for the process to accept (Linux caps it at net.core.somaxconn);
 * a crowd's connections beyond it are dropped and the clients send them again only after 1, 3, 7
 * and 15 s.
 */
export function listen(
  app: express.Express,
  port: number,
  host: string,
  backlog = 511,
): Promise<Server> {
  return new Promise<Server>((resolve) => {
    const server = app.listen(port, host, backlog, () => resolve(server));
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Node requires the time to receive a request's headers to outlast the idle time.
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    const open = new Map<Socket, Connection>();
    connectionsOf.set(server, open);
    server.on('connection', (socket: Socket) => {
      open.set(socket, { inFlight: new Set(), since: performance.now() });
      socket.once('close', () => open.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const connection = open.get(req.socket);
      if (!connection) return;
      connection.inFlight.add(res);
      res.once('close', () => connection.inFlight.delete(res));
    });
  });
}

/**
 * Stops accepting connections and resolves once every request in flight has been answered. An
 * idle keep-alive connection would hold the server open for KEEP_ALIVE_TIMEOUT_MS, so idle
 * connections are closed now and again as each request in flight finishes and leaves its
 * connection idle; the answers carry `Connection: close` meanwhile. Node's own `server.close()`
 * would also close, at once, a connection accepted a moment before whose first request has not
 * been read yet (a gateway or load balancer that picked this instance just then would see a
 * reset for a request it cannot know was never read): such a connection gets
 * FRESH_CONNECTION_GRACE_MS to send it.
 */
export function closeGracefully(server: Server): Promise<void> {
  const open = connectionsOf.get(server);
  if (!open) {
    // A server `listen` did not start: Node's close, idle connections closed as they appear.
    return new Promise<void>((resolve) => {
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      server.close(() => {
        clearInterval(sweep);
        resolve();
      });
    });
  }
  return new Promise<void>((resolve) => {
    const closeIdle = () => {
      const now = performance.now();
      for (const [socket, { inFlight, since }] of open) {
        if (inFlight.size > 0) continue;
        if (socket.bytesRead === 0 && now - since < FRESH_CONNECTION_GRACE_MS) continue;
        socket.destroy();
      }
    };
    const sweep = setInterval(closeIdle, 100);
    // Every answer from now on says the connection closes: those under way ...
    for (const { inFlight } of open.values())
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    // ... and those to come, before the app's own listener, which may answer at once.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('Connection', 'close');
    });
    // net's close stops accepting and waits for the open connections, without http's closing
    // of every connection it deems idle, fresh ones included.
    NetServer.prototype.close.call(server, () => {
      clearInterval(sweep);
      resolve();
    });
    closeIdle();
  });
}
