import express, { type Request, type Response, type NextFunction, type Router } from 'express';
import { parseOrThrow, unstorableTextErrors, z } from './validation.ts';
import { problems } from './problem.ts';
import { checkAccess, siteSlugsFor, type Access, type SessionUser } from './access.ts';

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  user: SessionUser | undefined;
  /**
   * The ids of the sites the user reaches on this route (a route whose `sites` is 'filter' shows
   * only theirs); null: every site (a role held for all sites, or a public route).
   */
  sites: readonly string[] | null;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * What a path parameter or a body field names, by which the sites of a request are found: a
 * room, a time slot (its room's), a ticket (its room's), a reservation (a ticket's id: the rooms
 * of every ticket of its owner, the booking staff see and change as a whole), a site, a site by
 * its slug (the site filter `site={slug}`: a slug no site has is none of hers), or a holiday (its
 * site's; a holiday of every site is of none of hers).
 */
export type SiteKind = 'room' | 'slot' | 'ticket' | 'reservation' | 'site' | 'slug' | 'holiday';

/**
 * Which sites a staff route touches (docs/product.md#roles), checked for a user whose roles on
 * the route are held for some sites only: the site of each resource its path parameters (and
 * body fields) name must be one of hers, else 403; or 'filter': the route shows every site's
 * data and its handler keeps only her sites' (`HandlerContext.sites`). A staff route that
 * declares none refuses such a user (403), so a new route shows no other site's data by mistake.
 */
export type SiteRule =
  | 'filter'
  /** The library's own data, of no site (its holidays): every site's staff reads it. */
  | 'library'
  | {
      path?: Readonly<Record<string, SiteKind>>;
      /**
       * Query parameters (one id or a list); one left out names every site's: refused (a site
       * left out too when 'site-or-all': a holiday import for every site).
       */
      query?: Readonly<Record<string, SiteKind | 'site-or-all'>>;
      /**
       * Body fields (one id or a list). A site left out names none (a room updated stays where
       * it is), but 'site-or-first' left out is the first site (a room made without one) and
       * 'site-or-all' left out (or null) every site (a holiday of all sites: refused); a room,
       * slot or ticket left out names every site's: refused.
       */
      body?: Readonly<Record<string, SiteKind | 'site-or-first' | 'site-or-all'>>;
      /**
       * A room, slot or ticket left out names every one of hers, not every site's: the handler
       * keeps her sites' data (`HandlerContext.sites`), as a 'filter' route does (the insights
       * of all rooms, or of one).
       */
      leftOutFilters?: true;
    };

/** How the server finds sites: the ids of slugs, and the site of a room, slot, ticket or site. */
export interface SiteLookup {
  siteIdsBySlug(slugs: readonly string[]): Promise<Map<string, string>>;
  /** The sites of the resource; none when there is none of the id. */
  sitesOf(kind: SiteKind, id: string): Promise<string[]>;
  /** The site a body field left out stands for (the first site). */
  readonly defaultSiteId: string;
}

export interface RouteDef {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI-style path below /api, e.g. `/admin/rooms/{id}`. */
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  /** Which sites the route touches (SiteRule); a staff route without one refuses site-limited users. */
  sites?: SiteRule;
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
  /** The largest JSON body of this route, in bytes, when it may be larger than the API's. */
  bodyLimit?: number;
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
  sites?: SiteRule;
  params?: P;
  query?: Q;
  body?: B;
  multipart?: z.ZodObject;
  responses: RouteDef['responses'];
  malformedPathNotFound?: string;
  bodyLimit?: number;
  handler: (ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>) => Promise<Reply | void>;
}): RouteDef {
  return def;
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
  // Routes with a larger body of their own (a room's seats): their parser, by method and path.
  const large = routes.filter((r) => r.bodyLimit !== undefined);
  const largeOf = linkPathMatcher(large);
  const parsers = new Map(large.map((r) => [r.bodyLimit!, express.json({ limit: r.bodyLimit! })]));
  return (req: Request, res: Response, next: NextFunction) =>
    (parsers.get(largeOf(req)[0]?.bodyLimit ?? -1) ?? parse)(req, res, (err?: unknown) => {
      if (err !== undefined && isLink(req).length > 0) {
        deferredBodyErrors.set(req, err);
        next();
        return;
      }
      next(err);
    });
}

/**
 * The site ids the user reaches on the route (null: all), after checking the sites of what the
 * request names against them: 403 for another site's, and for a site-limited user on a staff
 * route that declares no sites.
 */
async function reachableSites(
  route: RouteDef,
  user: SessionUser | undefined,
  lookup: SiteLookup | undefined,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
  body: unknown,
): Promise<readonly string[] | null> {
  if (!user || !Array.isArray(route.access)) return null;
  const slugs = siteSlugsFor(route.access, user);
  if (slugs === null) return null;
  if (!route.sites || !lookup) throw problems.forbidden();
  const ids = [...(await lookup.siteIdsBySlug(slugs)).values()];
  if (route.sites === 'filter' || route.sites === 'library') return ids;
  const named: [SiteKind, string][] = [];
  const rule = route.sites;
  const collect = (
    fieldKinds: Readonly<Record<string, SiteKind | 'site-or-first' | 'site-or-all'>> | undefined,
    values: unknown,
  ) => {
    const fields =
      typeof values === 'object' && values !== null ? (values as Record<string, unknown>) : {};
    for (const [field, kind] of Object.entries(fieldKinds ?? {})) {
      const value = fields[field];
      // A list in one parameter is comma-separated (`?roomIds=a,b`): ids hold no comma.
      const as: SiteKind = kind === 'site-or-first' || kind === 'site-or-all' ? 'site' : kind;
      if (typeof value === 'string') for (const id of value.split(',')) named.push([as, id.trim()]);
      else if (Array.isArray(value))
        for (const v of value as unknown[]) named.push([as, typeof v === 'string' ? v : '']);
      else if (kind === 'site-or-first') named.push(['site', lookup.defaultSiteId]);
      else if (kind === 'site-or-all') throw problems.forbidden();
      else if (kind !== 'site' && kind !== 'slug' && !rule.leftOutFilters)
        throw problems.forbidden();
    }
  };
  collect(route.sites.path, params);
  collect(route.sites.query, query);
  collect(route.sites.body, body);
  for (const [kind, id] of named) {
    // A resource of no site (none of the id) is refused too: it is none of hers.
    const sites = kind === 'site' ? [id] : await lookup.sitesOf(kind, id);
    if (!sites.length || sites.some((site) => !ids.includes(site))) throw problems.forbidden();
  }
  return ids;
}

export function mountRoutes(router: Router, routes: RouteDef[], lookup?: SiteLookup): void {
  const links = routes.filter((r) => r.malformedPathNotFound !== undefined);
  if (links.length) router.use(undecodableLinkPaths(links));
  for (const route of routes) {
    const expressPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    router[route.method](expressPath, async (req: Request, res: Response) => {
      const user = req.apiTokenUser ?? req.session?.user;
      checkAccess(route.access, user);
      if (route.malformedPathNotFound && !validPath(route, req.params))
        throw problems.notFound(route.malformedPathNotFound);
      // The sites of what the request names, as sent, before its validation: another site's
      // resource is refused (403) as a missing role is, whatever else is wrong with the request.
      const sites = await reachableSites(route, user, lookup, req.params, req.query, req.body);
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
      const reply = await route.handler({ params, query, body, req, res, user, sites });
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
    bodyLimit: r.bodyLimit,
  }));
  return (req: Request) => {
    const segments = req.path.replace(/(.)\/$/, '$1').split('/');
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const found: {
      what: string;
      segments: string[];
      param: (i: number) => boolean;
      bodyLimit: number | undefined;
    }[] = [];
    for (const t of templates) {
      if (t.method !== method || t.segments.length !== segments.length) continue;
      const param = (i: number) => t.segments[i]!.startsWith('{');
      if (segments.every((s, i) => param(i) || s.toLowerCase() === t.segments[i]))
        found.push({ what: t.what, segments, param, bodyLimit: t.bodyLimit });
    }
    return found;
  };
}
