import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type pg from 'pg';
import { API_TOKEN_PREFIX, API_TOKEN_SECRET_PATTERN, apiTokenInput } from '@rr/contracts';
import {
  type Clock,
  defineRoute,
  STAFF_ROLES,
  type RouteDef,
  type SessionUser,
  Problem,
  problems,
  fromContract,
  staffUserOf,
  z,
} from '@rr/platform';
import { refuseUnknownSites } from './site-roles.ts';
import type { KnownSiteSlugs } from './staff-sso.ts';

/**
 * API tokens of machines: an admin gives one a name, some of the staff roles and maybe an expiry;
 * its secret (`rr_` and 32 random bytes) is answered once and kept as its SHA-256 only. The
 * secret is high-entropy, so a plain hash suffices (no salt or slow hash), and a request finds its
 * token by that hash: nothing is compared byte by byte that a timing could reveal.
 */

/**
 * How stale a token's `last_used_at` may be: a process writes it at most this often per token,
 * so a busy integration does not turn every read into a write.
 */
export const API_TOKEN_TOUCH_INTERVAL_MS = 60_000;

export interface ApiToken {
  id: string;
  name: string;
  /** As written: `reports` for all sites, `reports@jura` for one. */
  roles: string[];
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

interface Row {
  id: string;
  name: string;
  roles: string[];
  created_by: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

const tokenOf = (r: Row): ApiToken => ({
  id: r.id,
  name: r.name,
  roles: r.roles,
  createdBy: r.created_by,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at?.toISOString() ?? null,
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
});

const hashOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

export class ApiTokenStore {
  /** When this process last wrote a token's `last_used_at`, by the clock. */
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  /** Makes a token and answers it with its secret, the only time the secret is seen. */
  async create(input: {
    name: string;
    roles: string[];
    expiresAt: Date | null;
    createdBy: string;
  }): Promise<ApiToken & { secret: string }> {
    const secret = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    try {
      const r = await this.pool.query<Row>(
        `INSERT INTO api_tokens (id, name, roles, secret_hash, created_by, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING id, name, roles, created_by, created_at, expires_at, last_used_at`,
        [
          randomUUID(),
          input.name,
          input.roles,
          hashOf(secret),
          input.createdBy,
          this.clock.now(),
          input.expiresAt,
        ],
      );
      return { ...tokenOf(r.rows[0]!), secret };
    } catch (err) {
      if (isUniqueViolation(err))
        throw problems.conflict('api_token__name_taken', 'A token of this name exists', [
          input.name,
        ]);
      throw err;
    }
  }

  /** The tokens not revoked, newest first (expired ones too: they stay until revoked). */
  async list(): Promise<ApiToken[]> {
    const r = await this.pool.query<Row>(
      `SELECT id, name, roles, created_by, created_at, expires_at, last_used_at
         FROM api_tokens WHERE revoked_at IS NULL ORDER BY created_at DESC, name`,
    );
    return r.rows.map(tokenOf);
  }

  /** Revokes a token; false when there is none of that id not revoked yet. */
  async revoke(id: string): Promise<boolean> {
    const r = await this.pool.query(
      'UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL',
      [id, this.clock.now()],
    );
    this.touchedAt.delete(id);
    return (r.rowCount ?? 0) > 0;
  }

  /** The staff user a secret stands for: null when unknown, revoked or expired (by the clock). */
  async authenticate(secret: string): Promise<SessionUser | null> {
    if (!API_TOKEN_SECRET_PATTERN.test(secret)) return null;
    const now = this.clock.now();
    const r = await this.pool.query<{ id: string; name: string; roles: string[] }>(
      `SELECT id, name, roles FROM api_tokens
        WHERE secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
      [hashOf(secret), now],
    );
    const row = r.rows[0];
    if (!row) return null;
    await this.touch(row.id, now);
    return staffUserOf(row.name, row.roles, { id: row.id, name: row.name });
  }

  private async touch(id: string, now: Date): Promise<void> {
    const last = this.touchedAt.get(id);
    if (last !== undefined && Math.abs(now.getTime() - last) < API_TOKEN_TOUCH_INTERVAL_MS) return;
    if (this.touchedAt.size >= 10_000) this.touchedAt.clear();
    this.touchedAt.set(id, now.getTime());
    await this.pool.query(
      `UPDATE api_tokens SET last_used_at = $2
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)`,
      [id, now],
    );
  }
}

const isUniqueViolation = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';

const invalidToken = () =>
  new Problem(
    401,
    'auth__invalid_token',
    'The API token is unknown, revoked or expired',
    [],
    undefined,
    {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    },
  );

/**
 * `Authorization: Bearer …` makes the request the token's staff user (`req.apiTokenUser`); a
 * token that is unknown, revoked or expired answers 401 whatever the route. Requests without the
 * header pass untouched, to the session if they carry its cookie.
 */
export function bearerAuthentication(store: ApiTokenStore) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const header = req.get('authorization');
    if (header === undefined || !/^bearer(\s|$)/i.test(header)) {
      next();
      return;
    }
    const secret = /^bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!secret) {
      next(invalidToken());
      return;
    }
    store.authenticate(secret).then((user) => {
      if (!user) {
        next(invalidToken());
        return;
      }
      req.apiTokenUser = user;
      next();
    }, next);
  };
}

/**
 * `?token=rr_…` on the GET routes whose paths match `paths` (the calendar feeds, which calendar
 * applications fetch without headers): the request is the token's, holding at most its `reports`
 * role, whatever else the token holds, so a token in a URL reads and never writes. An invalid
 * token answers 401 as in the header.
 */
export function queryTokenAuthentication(store: ApiTokenStore, paths: RegExp) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const token = req.query.token;
    if (
      req.method !== 'GET' ||
      typeof token !== 'string' ||
      req.apiTokenUser ||
      !paths.test(req.path)
    ) {
      next();
      return;
    }
    if (!API_TOKEN_SECRET_PATTERN.test(token)) {
      // Not the shape of any token: bad input, as any other malformed parameter.
      next(
        problems.validation([
          {
            field: 'token',
            rule: 'invalid_format',
            message: 'Not an API token (rr_ and 43 characters)',
          },
        ]),
      );
      return;
    }
    store.authenticate(token).then((user) => {
      if (!user) {
        next(invalidToken());
        return;
      }
      const reports = user.sites?.reports;
      req.apiTokenUser = {
        username: user.username,
        roles: user.roles.filter((r) => r === 'reports'),
        ...(reports ? { sites: { reports } } : {}),
        ...(user.token ? { token: user.token } : {}),
      };
      next();
    }, next);
  };
}

const ApiTokenSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    roles: z.array(z.string()).openapi({
      description: `As written: ${STAFF_ROLES.join(', ')} for all sites, or for one: reports@jura`,
    }),
    createdBy: z.string(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
  })
  .openapi('ApiToken');

const CreatedApiTokenSchema = ApiTokenSchema.extend({
  secret: z.string().openapi({ description: 'The secret (`rr_…`), answered this once only' }),
}).openapi('CreatedApiToken');

/** Who makes a token: a signed-in admin by name, or another token. */
const creatorOf = (user: SessionUser | undefined) =>
  user?.token ? `token:${user.token.name}` : (user?.username ?? '?');

/**
 * The admin's routes of API tokens: `reads` the list (a GET, which the gateway sends to a query
 * process), `writes` create and revoke.
 */
export function apiTokenRoutes(
  store: ApiTokenStore,
  clock: Clock,
  knownSiteSlugs: KnownSiteSlugs = () => Promise.resolve(new Set()),
) {
  const admin: ['admin'] = ['admin'];
  const CreateBody = fromContract(apiTokenInput(() => clock.now())).openapi('ApiTokenInput');
  const reads: RouteDef[] = [
    defineRoute({
      method: 'get',
      path: '/admin/api-tokens',
      summary: 'The API tokens not revoked (never their secrets)',
      tags: ['api-tokens'],
      access: admin,
      responses: { 200: { description: 'The tokens', schema: z.array(ApiTokenSchema) } },
      handler: async () => ({
        body: await store.list(),
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
  ];
  const writes: RouteDef[] = [
    defineRoute({
      method: 'post',
      path: '/admin/api-tokens',
      summary: 'Create an API token: its secret is answered this once',
      tags: ['api-tokens'],
      access: admin,
      body: CreateBody,
      responses: {
        201: { description: 'The token with its secret', schema: CreatedApiTokenSchema },
        409: { description: 'A token of this name exists (api_token__name_taken)' },
      },
      handler: async ({ body, user }) => {
        await refuseUnknownSites(body.roles, knownSiteSlugs);
        const token = await store.create({
          name: body.name,
          roles: body.roles,
          expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
          createdBy: creatorOf(user),
        });
        return { status: 201, body: token, headers: { 'Cache-Control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/api-tokens/{id}',
      summary: 'Revoke an API token, at once in every process',
      tags: ['api-tokens'],
      access: admin,
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: {
        204: { description: 'Revoked' },
        404: { description: 'No such token, or revoked already' },
      },
      handler: async ({ params }) => {
        if (!(await store.revoke(params.id))) throw problems.notFound('API token');
        return { status: 204 };
      },
    }),
  ];
  return { reads, writes };
}
