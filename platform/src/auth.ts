import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import connectPgSimple from 'connect-pg-simple';
import type pg from 'pg';
import { defineRoute, STAFF_ROLES, type RouteDef, type Role, type SessionUser } from './http.ts';
import { Problem, problems } from './problem.ts';
import { SignInInput } from '@rr/contracts';
import { fromContract, z } from './validation.ts';
import type { Logger } from './logger.ts';
import { persistentSecret } from './secrets.ts';
import { systemClock, type Clock } from './clock.ts';
import type { SignInLimits } from './sign-in-limit.ts';
import { clientAddressKey, SignInLimitStore } from './sign-in-limit-store.ts';
import {
  localOnlyPolicy,
  localSignInAllowed,
  noStaffRole,
  rolesForGroups,
  SIGN_IN_METHODS,
  SignInRecords,
  staffAccounts,
  startStaffSession,
  type CampusSignInMethod,
  type StaffSignInPolicy,
} from './staff-sso.ts';
import { ProviderUnavailable, type OidcProvider } from './oidc-sign-in.ts';
import { IdentityProviderUnavailable, type SamlServiceProvider } from './saml-sign-in.ts';
import { DirectoryUnavailable, type LdapDirectory, type LdapResult } from './ldap-sign-in.ts';

const scrypt = promisify(scryptCb) as (
  pw: string,
  salt: Buffer,
  len: number,
  opts: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 64, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Compared against when the user does not exist, so a login takes as long either way.
let dummyHash: Promise<string> | null = null;

/**
 * Creates the account, or sets an existing one's roles and password. A new password ends the
 * account's sessions (its generation rises); its new roles hold from the next request of any.
 * The account is a local one from then on, also one the campus identity had made.
 */
export async function createUser(
  pool: pg.Pool,
  username: string,
  password: string,
  roles: Role[],
): Promise<void> {
  await pool.query(
    `INSERT INTO admin_users (username, password_hash, roles, source) VALUES ($1, $2, $3, 'local')
     ON CONFLICT (username) DO UPDATE SET password_hash = EXCLUDED.password_hash,
       roles = EXCLUDED.roles, source = 'local',
       session_generation = admin_users.session_generation + 1`,
    [username, await hashPassword(password), roles],
  );
}

/** Sets an existing account's roles, keeping its password and sessions; false if there is none. */
export async function setUserRoles(
  pool: pg.Pool,
  username: string,
  roles: Role[],
): Promise<boolean> {
  const r = await pool.query('UPDATE admin_users SET roles = $2 WHERE username = $1', [
    username,
    roles,
  ]);
  return r.rowCount === 1;
}

/** Ends every session of the account in every process; false if there is no such account. */
export async function endUserSessions(pool: pg.Pool, username: string): Promise<boolean> {
  const r = await pool.query(
    'UPDATE admin_users SET session_generation = session_generation + 1 WHERE username = $1',
    [username],
  );
  return r.rowCount === 1;
}

/** Removes the account; its sessions are refused from their next request on. */
export async function removeUser(pool: pg.Pool, username: string): Promise<boolean> {
  const r = await pool.query('DELETE FROM admin_users WHERE username = $1', [username]);
  return r.rowCount === 1;
}

export type CampusAccountResult =
  | { ok: true; user: SessionUser; generation: number }
  | { ok: false; reason: 'no-mapped-group' | 'local-account' };

/**
 * The account of a person the campus identity vouched for, created or updated with the roles
 * its groups map to now (and the source it signed in with). A person in no mapped group gets no
 * account, and an existing one loses its roles and sessions at once. A local account of the
 * same name is never taken over: its password and roles stay its own (remove it first to let
 * the campus identity have the name).
 */
export async function campusAccount(
  pool: pg.Pool,
  clock: Clock,
  policy: StaffSignInPolicy,
  method: CampusSignInMethod,
  username: string,
  groups: readonly string[],
): Promise<CampusAccountResult> {
  const roles = rolesForGroups(groups, policy.roleMap);
  if (roles.length === 0) {
    await pool.query(
      `UPDATE admin_users SET roles = '{}', session_generation = session_generation + 1
       WHERE username = $1 AND source <> 'local'`,
      [username],
    );
    return { ok: false, reason: 'no-mapped-group' };
  }
  const r = await pool.query<{ session_generation: number }>(
    `INSERT INTO admin_users (username, password_hash, roles, source, last_sign_in_at, created_at)
     VALUES ($1, NULL, $2, $3, $4, $4)
     ON CONFLICT (username) DO UPDATE SET roles = EXCLUDED.roles, source = EXCLUDED.source,
       last_sign_in_at = EXCLUDED.last_sign_in_at
     WHERE admin_users.source <> 'local'
     RETURNING session_generation`,
    [username, roles, method, clock.now()],
  );
  const row = r.rows[0];
  if (!row) return { ok: false, reason: 'local-account' };
  return { ok: true, user: { username, roles }, generation: row.session_generation };
}

const isRole = (r: string): r is Role => (STAFF_ROLES as readonly string[]).includes(r);

/**
 * Checks the signed-in account of every request carrying a session against the database, so
 * what changes an account holds in every process from its next request: the roles are the
 * account's current ones, not the copy in the session record, and a session whose account is
 * gone or whose generation is behind the account's (a new password, "end sessions") is
 * destroyed, leaving the request signed out (401 on staff routes). One primary-key read on the
 * primary, never a cache: another process could not invalidate it.
 */
export function currentStaff(
  pool: pg.Pool,
  options: { clock?: Clock; policy?: StaffSignInPolicy } = {},
): RequestHandler {
  const policy = options.policy ?? localOnlyPolicy;
  return async (req, _res, next) => {
    const user = req.session?.user;
    if (!user) {
      next();
      return;
    }
    const r = await pool.query<{ roles: string[]; session_generation: number; source: string }>(
      'SELECT roles, session_generation, source FROM admin_users WHERE username = $1',
      [user.username],
    );
    const row = r.rows[0];
    // A session of the campus identity ends at its time however busy it is; a local account's
    // session ends when its password sign-in is switched off (LOCAL_SIGN_IN).
    const expired =
      req.session.expiresAt !== undefined &&
      (options.clock ?? systemClock).now().getTime() >= req.session.expiresAt;
    const localOff = row?.source === 'local' && !localSignInAllowed(policy, user.username);
    if (!row || row.session_generation !== req.session.generation || expired || localOff) {
      // A fresh, empty session in its place: the stored one is deleted, and sign-in still works.
      await new Promise<void>((resolve, reject) =>
        req.session.regenerate((err) => (err ? reject(err as Error) : resolve())),
      );
      next();
      return;
    }
    const roles = row.roles.filter(isRole);
    if (roles.join() !== user.roles.join()) req.session.user = { username: user.username, roles };
    next();
  };
}

/** On first start, creates the admin from ADMIN_USERNAME/ADMIN_PASSWORD (or a generated password, printed once). */
export async function ensureFirstAdmin(
  pool: pg.Pool,
  username: string,
  password: string | undefined,
  logger: Logger,
): Promise<void> {
  const existing = await pool.query('SELECT 1 FROM admin_users LIMIT 1');
  if (existing.rowCount) return;
  const pw = password ?? randomBytes(12).toString('base64url');
  await createUser(pool, username, pw, ['admin']);
  if (password)
    logger.info({ username }, 'created the first admin user from ADMIN_USERNAME/ADMIN_PASSWORD');
  else {
    // Printed to the console, not the log stream: shown once to whoever started the server.
    console.log(
      `\n  First admin user created: ${username} / ${pw}\n  (set ADMIN_PASSWORD to choose it)\n`,
    );
  }
}

export const SESSION_COOKIE = 'rr.sid';

/**
 * How long a session's stored expiry may lag behind its rolling cookie: the store writes a touch
 * (an UPDATE that waits for the disk) at most this often per session and process, not on every
 * staff request. The server-side expiry of an 8-hour session is then at most a minute early.
 */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/**
 * The sessions' middleware; `close` stops the store's pruning of expired sessions, which runs on
 * a timer until then (before the pool it uses is ended).
 */
export type SessionMiddleware = RequestHandler & { close(): void };

/** Sessions live in PostgreSQL, so every service instance sees the same sign-in. */
export async function sessionMiddleware(
  pool: pg.Pool,
  options: { secret?: string; secureCookie?: boolean },
): Promise<SessionMiddleware> {
  const PgStore = connectPgSimple(session);
  class ThrottledTouchStore extends PgStore {
    private readonly touchedAt = new Map<string, number>();

    override touch(sid: string, sess: session.SessionData, callback?: () => void): void {
      const now = performance.now();
      const last = this.touchedAt.get(sid);
      if (last !== undefined && now - last < SESSION_TOUCH_INTERVAL_MS) {
        callback?.();
        return;
      }
      if (this.touchedAt.size >= 10_000) {
        for (const [id, at] of this.touchedAt)
          if (now - at >= SESSION_TOUCH_INTERVAL_MS) this.touchedAt.delete(id);
      }
      this.touchedAt.set(sid, now);
      super.touch(sid, sess, callback);
    }

    override destroy(sid: string, callback?: (err?: unknown) => void): void {
      this.touchedAt.delete(sid);
      super.destroy(sid, callback);
    }
  }
  const store = new ThrottledTouchStore({
    pool,
    tableName: 'sessions',
    createTableIfMissing: false,
    pruneSessionInterval: 15 * 60,
  });
  const middleware = session({
    name: SESSION_COOKIE,
    secret: await persistentSecret(pool, 'session_secret', options.secret),
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: options.secureCookie ?? 'auto',
      maxAge: 8 * 60 * 60 * 1000,
      path: '/',
    },
  });
  return Object.assign(middleware, { close: () => store.close() });
}

const UserSchema = z
  .object({ username: z.string(), roles: z.array(z.enum(STAFF_ROLES)) })
  .openapi('User');
const LoginBody = fromContract(SignInInput);

/** The origin the browser used (behind TRUST_PROXY, the proxy's). */
const origin = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/**
 * Where a sign-in may return to: a path of the staff app on this origin, nothing else (no other
 * origin, no protocol-relative or backslashed path); null for anything else.
 */
export function staffReturnPath(value: string): string | null {
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://staff.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://staff.invalid') return null;
  if (url.pathname !== '/admin' && !url.pathname.startsWith('/admin/')) return null;
  return url.pathname + url.search + url.hash;
}

export interface AuthOptions {
  /** The time failed sign-ins are counted at. */
  clock: Clock;
  /** How failed sign-ins delay further attempts (config SIGN_IN_*, see signInLimitsFrom). */
  signInLimits: SignInLimits;
  logger?: Logger;
  /** Roles from groups, campus session length, local sign-in (every local account by default). */
  policy?: StaffSignInPolicy;
  /** The directory the sign-in form also asks (LDAP_URL), if any. */
  ldap?: LdapDirectory | null;
  /** The OpenID provider staff may sign in with (OIDC_ISSUER), if any. */
  oidc?: OidcProvider | null;
  /** The SAML identity provider staff may sign in with (SAML_IDP_METADATA), if any. */
  saml?: SamlServiceProvider | null;
  /**
   * SESSION_SECRET (else the one generated and kept in the database): the secret the record of
   * sign-ins keys typed names with.
   */
  sessionSecret?: string;
}

const SignInRecordSchema = z
  .object({
    at: z.string(),
    method: z.enum(SIGN_IN_METHODS),
    username: z.string(),
    outcome: z.enum(['signed-in', 'refused']),
    reason: z.string().nullable(),
  })
  .openapi('StaffSignIn');
const StaffAccountSchema = z
  .object({
    username: z.string(),
    source: z.enum(SIGN_IN_METHODS),
    roles: z.array(z.enum(STAFF_ROLES)),
    lastSignInAt: z.string().nullable(),
  })
  .openapi('StaffAccount');

export function authRoutes(pool: pg.Pool, options: AuthOptions): RouteDef[] {
  const limiter = new SignInLimitStore(pool, options.clock, options.signInLimits);
  const policy = options.policy ?? localOnlyPolicy;
  let secret: Promise<string> | null = null;
  const records = new SignInRecords(pool, options.clock, () =>
    (secret ??= persistentSecret(pool, 'session_secret', options.sessionSecret)).catch(
      (err: unknown) => {
        secret = null;
        throw err;
      },
    ),
  );
  const ldap = options.ldap ?? null;
  const oidcProvider = options.oidc ?? null;
  const samlProvider = options.saml ?? null;
  const wrongCredentials = () =>
    new Problem(401, 'auth__invalid_credentials', 'Wrong user name or password');
  return [
    defineRoute({
      method: 'post',
      path: '/auth/login',
      summary: 'Sign in as staff',
      tags: ['auth'],
      access: 'public',
      body: LoginBody,
      responses: {
        200: { description: 'Signed in', schema: UserSchema },
        401: { description: 'Wrong credentials' },
        429: { description: 'Too many failed sign-ins: wait Retry-After seconds' },
      },
      handler: async ({ body, req }) => {
        // Failed sign-ins delay further attempts per user name and address, per address and per
        // user name; unknown users count like known ones, so a refusal tells nothing either.
        const attempt = await limiter.attempt(body.username, clientAddressKey(req.ip));
        if (!attempt.allowed) {
          options.logger?.warn({ scope: attempt.scope }, 'sign-in refused after repeated failures');
          throw new Problem(
            429,
            'http__too_many_requests',
            'Too many failed sign-ins, please try again later',
            [],
            undefined,
            { 'Retry-After': String(attempt.retryAfterSeconds) },
          );
        }
        const r = await pool.query<{
          password_hash: string | null;
          roles: Role[];
          session_generation: number;
          source: string;
        }>(
          `SELECT password_hash, roles, session_generation, source FROM admin_users
           WHERE username = $1`,
          [body.username],
        );
        const row = r.rows[0];
        const local = row?.source === 'local' ? row : undefined;
        const allowed = localSignInAllowed(policy, body.username);
        // The directory answers for every name that is not a local account allowed to sign in
        // with its password here; without a directory such a name is refused like a wrong one.
        if (ldap && !(local && allowed)) {
          let result: LdapResult;
          try {
            result = await ldap.authenticate(body.username.toLowerCase(), body.password);
          } catch (err) {
            if (!(err instanceof DirectoryUnavailable)) throw err;
            options.logger?.error({ err: err.message }, 'the directory (LDAP) could not be asked');
            throw problems.unavailable();
          }
          const username = body.username.toLowerCase();
          if (!result.ok) {
            await records.record('ldap', username, 'refused', 'wrong-credentials');
            throw wrongCredentials();
          }
          await limiter.succeeded(attempt);
          const account = await campusAccount(
            pool,
            options.clock,
            policy,
            'ldap',
            username,
            result.groups,
          );
          if (!account.ok) {
            await records.record('ldap', username, 'refused', account.reason);
            throw noStaffRole();
          }
          const expiresAt = options.clock.now().getTime() + policy.campusSessionMs;
          await startStaffSession(req, account.user, account.generation, 'ldap', expiresAt);
          await records.record('ldap', username, 'signed-in');
          return { body: account.user };
        }
        dummyHash ??= hashPassword(randomBytes(8).toString('hex'));
        const stored = local && allowed ? local.password_hash : null;
        const ok = await verifyPassword(body.password, stored ?? (await dummyHash));
        if (!local || !stored || !ok) {
          const reason = local && !allowed ? 'local-sign-in-off' : 'wrong-credentials';
          await records.record('local', body.username, 'refused', reason);
          throw wrongCredentials();
        }
        await limiter.succeeded(attempt);
        const user: SessionUser = { username: body.username, roles: local.roles };
        await startStaffSession(req, user, local.session_generation, 'local');
        await pool.query('UPDATE admin_users SET last_sign_in_at = $2 WHERE username = $1', [
          body.username,
          options.clock.now(),
        ]);
        await records.record('local', body.username, 'signed-in');
        return { body: user };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/logout',
      summary: 'Sign out',
      tags: ['auth'],
      access: 'public',
      responses: {
        200: {
          description:
            'Signed out here; the browser goes on to the OpenID provider to end its session too',
          schema: z.object({ endSessionUrl: z.string() }),
        },
        204: { description: 'Signed out' },
      },
      handler: async ({ req, res }) => {
        const { method, idToken } = req.session;
        await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
        res.clearCookie(SESSION_COOKIE, { path: '/' });
        if (method === 'oidc' && idToken && oidcProvider) {
          const url = await oidcProvider.endSessionUrl(idToken, `${origin(req)}/admin/`);
          if (url) return { body: { endSessionUrl: url } };
        }
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/me',
      summary: 'The signed-in user and roles',
      tags: ['auth'],
      access: 'signed-in',
      responses: { 200: { description: 'The user', schema: UserSchema } },
      handler: async ({ user }) => Promise.resolve({ body: user }),
    }),
    defineRoute({
      method: 'get',
      path: '/auth/providers',
      summary: 'How staff can sign in: the form, and a button per identity provider',
      tags: ['auth'],
      access: 'public',
      responses: {
        200: {
          description: 'The ways to sign in',
          schema: z
            .object({
              providers: z.array(
                z.object({
                  id: z.enum(['oidc', 'saml']),
                  label: z.string(),
                  startUrl: z
                    .string()
                    .openapi({ description: 'Relative to the API base; takes ?returnTo=' }),
                }),
              ),
              directory: z.boolean(),
            })
            .openapi('SignInProviders'),
        },
      },
      handler: () =>
        Promise.resolve({
          body: {
            providers: [
              ...(oidcProvider
                ? [
                    {
                      id: 'oidc' as const,
                      label: oidcProvider.settings.label,
                      startUrl: 'auth/oidc/start',
                    },
                  ]
                : []),
              ...(samlProvider
                ? [
                    {
                      id: 'saml' as const,
                      label: samlProvider.settings.label,
                      startUrl: 'auth/saml/start',
                    },
                  ]
                : []),
            ],
            directory: ldap !== null,
          },
        }),
    }),
    ...(oidcProvider ? oidcRoutes(pool, oidcProvider, options.clock, policy, records) : []),
    ...(samlProvider ? samlRoutes(pool, samlProvider, options.clock, policy, records) : []),
    // Under /auth/ like sign-in: these read the primary's accounts, and a split deployment
    // sends every /auth/ request to the command side.
    defineRoute({
      method: 'get',
      path: '/auth/staff-accounts',
      summary: 'The staff accounts: how each signs in, its roles, its last sign-in',
      tags: ['auth'],
      access: ['admin'],
      responses: {
        200: {
          description: 'The accounts by name',
          schema: z.object({ items: z.array(StaffAccountSchema) }),
        },
      },
      handler: async () => ({
        body: { items: await staffAccounts(pool) },
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/staff-accounts/{username}/end-sessions',
      summary: 'End every session of a staff account (it signs in again)',
      tags: ['auth'],
      access: ['admin'],
      params: z.object({ username: z.string().min(1).max(200) }),
      responses: {
        204: { description: 'Its sessions ended' },
        404: { description: 'No such account' },
      },
      handler: async ({ params }) => {
        if (!(await endUserSessions(pool, params.username))) throw problems.notFound('Account');
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/sign-ins',
      summary:
        'The latest staff sign-ins and refused sign-ins, newest first; with ?name= only those of that name',
      tags: ['auth'],
      access: ['admin'],
      query: z.object({
        name: z.string().trim().min(1).max(200).optional().openapi({
          description:
            'An account, or a name typed at refused sign-ins (matched by its key, in any case)',
        }),
      }),
      responses: {
        200: {
          description: 'The latest 200 records',
          schema: z.object({ items: z.array(SignInRecordSchema) }),
        },
      },
      handler: async ({ query }) => ({
        body: { items: await records.latest(200, query.name) },
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
  ];
}

const invalidReturnTo = () =>
  problems.validation([
    { field: 'returnTo', rule: 'staff_path', message: 'must be a path of the staff app' },
  ]);

/** Where the staff app shows a refused campus sign-in: no role, or the provider's answer refused. */
const SIGN_IN_REFUSED = { noRole: '/admin/?signIn=no-role', failed: '/admin/?signIn=failed' };

function oidcRoutes(
  pool: pg.Pool,
  provider: OidcProvider,
  clock: Clock,
  policy: StaffSignInPolicy,
  records: SignInRecords,
): RouteDef[] {
  const redirectUri = (req: Request) =>
    provider.settings.redirectUri ?? `${origin(req)}/api/auth/oidc/callback`;
  return [
    defineRoute({
      method: 'get',
      path: '/auth/oidc/start',
      summary: 'Sign in with the OpenID provider: redirects the browser there',
      tags: ['auth'],
      access: 'public',
      query: z.object({ returnTo: z.string().max(2000).optional() }),
      responses: { 302: { description: "To the provider's sign-in page" } },
      handler: async ({ query, req, res }) => {
        const returnTo = staffReturnPath(query.returnTo ?? '/admin/');
        if (returnTo === null) throw invalidReturnTo();
        let started;
        try {
          started = await provider.start(redirectUri(req), returnTo);
        } catch (err) {
          if (err instanceof ProviderUnavailable) throw problems.unavailable();
          throw err;
        }
        req.session.oidcPending = started.pending;
        await new Promise<void>((resolve, reject) =>
          req.session.save((err) => (err ? reject(err as Error) : resolve())),
        );
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, started.url.toString());
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/oidc/callback',
      summary: "The OpenID provider's answer: signs the person in, or shows why not",
      tags: ['auth'],
      access: 'public',
      responses: { 302: { description: 'To the staff app' } },
      handler: async ({ req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        const pending = req.session.oidcPending;
        // Used once, whatever the answer: a replayed callback finds nothing to finish.
        delete req.session.oidcPending;
        if (!pending) {
          await records.record('oidc', '', 'refused', 'provider-refused');
          res.redirect(302, SIGN_IN_REFUSED.failed);
          return;
        }
        const callbackUrl = new URL(req.originalUrl, `${origin(req)}/`);
        let identity;
        try {
          identity = await provider.finish(callbackUrl, redirectUri(req), pending);
        } catch (err) {
          if (err instanceof ProviderUnavailable) throw problems.unavailable();
          throw err;
        }
        if (identity instanceof Error) {
          await records.record('oidc', '', 'refused', 'provider-refused');
          await new Promise<void>((resolve) => req.session.save(() => resolve()));
          res.redirect(302, SIGN_IN_REFUSED.failed);
          return;
        }
        const account = await campusAccount(
          pool,
          clock,
          policy,
          'oidc',
          identity.username,
          identity.groups,
        );
        if (!account.ok) {
          await records.record('oidc', identity.username, 'refused', account.reason);
          await new Promise<void>((resolve) => req.session.save(() => resolve()));
          res.redirect(302, SIGN_IN_REFUSED.noRole);
          return;
        }
        await startStaffSession(
          req,
          account.user,
          account.generation,
          'oidc',
          clock.now().getTime() + policy.campusSessionMs,
          { idToken: identity.idToken },
        );
        await records.record('oidc', identity.username, 'signed-in');
        res.redirect(302, pending.returnTo);
      },
    }),
  ];
}

/** The path the SAML identity provider posts its answer to (a form post, no XHR header). */
export const SAML_ACS_PATH = '/auth/saml/acs';

function samlRoutes(
  pool: pg.Pool,
  provider: SamlServiceProvider,
  clock: Clock,
  policy: StaffSignInPolicy,
  records: SignInRecords,
): RouteDef[] {
  const unavailable = (err: unknown) => {
    if (err instanceof IdentityProviderUnavailable) return problems.unavailable();
    return err;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/auth/saml/start',
      summary: 'Sign in with the SAML identity provider: redirects the browser there',
      tags: ['auth'],
      access: 'public',
      query: z.object({ returnTo: z.string().max(2000).optional() }),
      responses: { 302: { description: "To the identity provider's sign-in page" } },
      handler: async ({ query, res }) => {
        const returnTo = staffReturnPath(query.returnTo ?? '/admin/');
        if (returnTo === null) throw invalidReturnTo();
        let url: string;
        try {
          url = await provider.start(returnTo);
        } catch (err) {
          throw unavailable(err);
        }
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, url);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/saml/metadata',
      summary: "This service provider's SAML metadata, for the identity provider's administrator",
      tags: ['auth'],
      access: 'public',
      responses: {
        200: { description: 'SP metadata', contentType: 'application/samlmetadata+xml' },
      },
      handler: async ({ res }) => {
        res.type('application/samlmetadata+xml').send(provider.metadata());
        return Promise.resolve();
      },
    }),
    defineRoute({
      method: 'post',
      path: SAML_ACS_PATH,
      summary:
        "The SAML identity provider's answer (HTTP-POST): signs the person in, or shows why not",
      tags: ['auth'],
      access: 'public',
      body: z.object({
        SAMLResponse: z.string().min(1).max(1_000_000),
        RelayState: z.string().max(2000).optional(),
      }),
      responses: { 302: { description: 'To the staff app' } },
      handler: async ({ body, req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        let identity;
        try {
          identity = await provider.finish(body.SAMLResponse);
        } catch (err) {
          throw unavailable(err);
        }
        if (identity instanceof Error) {
          await records.record('saml', '', 'refused', 'provider-refused');
          res.redirect(302, SIGN_IN_REFUSED.failed);
          return;
        }
        const account = await campusAccount(
          pool,
          clock,
          policy,
          'saml',
          identity.username,
          identity.groups,
        );
        if (!account.ok) {
          await records.record('saml', identity.username, 'refused', account.reason);
          res.redirect(302, SIGN_IN_REFUSED.noRole);
          return;
        }
        await startStaffSession(
          req,
          account.user,
          account.generation,
          'saml',
          clock.now().getTime() + policy.campusSessionMs,
        );
        await records.record('saml', identity.username, 'signed-in');
        // RelayState came back through the browser: only a path of the staff app is followed.
        res.redirect(302, staffReturnPath(body.RelayState ?? '') ?? '/admin/');
      },
    }),
  ];
}
