import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import connectPgSimple from 'connect-pg-simple';
import type pg from 'pg';
import {
  persistentSecret,
  staffUserOf,
  systemClock,
  type Clock,
  type SessionUser,
} from '@rr/platform';
import {
  localOnlyPolicy,
  localSignInAllowed,
  type SignInMethod,
  type StaffSignInPolicy,
} from './staff-sso.ts';
import type { PendingOidcSignIn } from './oidc-sign-in.ts';

declare module 'express-session' {
  interface SessionData {
    /** The account's session generation at sign-in (see currentStaff). */
    generation?: number;
    /** How the session signed in: the account's password, or the campus identity (staff-sso.ts). */
    method?: SignInMethod;
    /** When a session of the campus identity ends, in ms since the epoch by the clock. */
    expiresAt?: number;
    /** The OpenID provider's ID token, the hint its sign-out asks for. */
    idToken?: string;
    /** An OpenID Connect sign-in under way in this browser (oidc-sign-in.ts), used once. */
    oidcPending?: PendingOidcSignIn;
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

/** A fresh, empty session in place of the request's: the stored one is deleted. */
export const regenerateSession = (req: Request): Promise<void> =>
  new Promise<void>((resolve, reject) =>
    req.session.regenerate((err) => (err ? reject(err as Error) : resolve())),
  );

/** Stores the request's session now (before a redirect leaves the request's end behind). */
export const saveSession = (req: Request): Promise<void> =>
  new Promise<void>((resolve, reject) =>
    req.session.save((err) => (err ? reject(err as Error) : resolve())),
  );

/**
 * Opens the staff session of a signed-in account in a new session record (a fixed session id
 * from before the sign-in is of no use). A session of the campus identity ends at `expiresAt`
 * (ms since the epoch, by the clock) however busy it is.
 */
export async function startStaffSession(
  req: Request,
  user: SessionUser,
  generation: number,
  method: SignInMethod,
  expiresAt?: number,
  extra: { idToken?: string } = {},
): Promise<void> {
  await regenerateSession(req);
  req.session.user = user;
  req.session.generation = generation;
  req.session.method = method;
  if (expiresAt !== undefined) req.session.expiresAt = expiresAt;
  if (extra.idToken) req.session.idToken = extra.idToken;
  await saveSession(req);
}

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
      // Signed out, and sign-in still works.
      await regenerateSession(req);
      next();
      return;
    }
    // Roles for sites (`admin@jura`) keep their slugs: which sites they name is looked up per
    // route (platform/src/routes.ts), so a renamed or deleted site holds at once.
    const current = staffUserOf(user.username, row.roles);
    if (JSON.stringify(current) !== JSON.stringify(user)) req.session.user = current;
    next();
  };
}
