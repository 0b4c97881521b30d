import { createHmac } from 'node:crypto';
import type pg from 'pg';
import { parseRoleGrant, slugsOf, type RoleGrant } from '@rr/contracts/staff-roles';
import {
  type Clock,
  type Config,
  type Logger,
  STAFF_ROLES,
  type SessionUser,
  Problem,
  staffUserOf,
} from '@rr/platform';

/** How a staff member signed in: the account's own password, or the campus identity. */
export const SIGN_IN_METHODS = ['local', 'ldap', 'oidc', 'saml'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
export type CampusSignInMethod = Exclude<SignInMethod, 'local'>;

/** The rules of staff sign-in that the settings choose (STAFF_ROLE_MAP, LOCAL_SIGN_IN, …). */
export interface StaffSignInPolicy {
  /** Group as the identity provider sends it → the roles its members get (`admin`, `admin@jura`). */
  roleMap: Readonly<Record<string, readonly string[]>>;
  /** The longest a session of the campus identity lasts, from its sign-in. */
  campusSessionMs: number;
  /** Whether every local account signs in with its password, or only `localAccounts`. */
  localSignIn: boolean;
  /** The local accounts that keep password sign-in with LOCAL_SIGN_IN=false (break-glass). */
  localAccounts: readonly string[];
}

export function signInPolicyFrom(
  config: Pick<
    Config,
    'STAFF_ROLE_MAP' | 'STAFF_SSO_SESSION_HOURS' | 'LOCAL_SIGN_IN' | 'LOCAL_SIGN_IN_ACCOUNTS'
  >,
): StaffSignInPolicy {
  return {
    roleMap: config.STAFF_ROLE_MAP ?? {},
    campusSessionMs: Math.round(config.STAFF_SSO_SESSION_HOURS * 3_600_000),
    localSignIn: config.LOCAL_SIGN_IN,
    localAccounts: config.LOCAL_SIGN_IN_ACCOUNTS,
  };
}

/** The policy of an empty environment: every local account signs in, no campus identity. */
export const localOnlyPolicy: StaffSignInPolicy = {
  roleMap: {},
  campusSessionMs: 10 * 3_600_000,
  localSignIn: true,
  localAccounts: [],
};

/**
 * The roles a member of these groups gets, as written (`admin`, `checkin@jura`): every role any
 * of its groups maps to, once, in the order of STAFF_ROLES (for all sites before for some).
 * Group names are compared exactly as the provider sends them; a group the map does not name
 * gives nothing.
 */
export function rolesForGroups(
  groups: readonly string[],
  roleMap: StaffSignInPolicy['roleMap'],
): string[] {
  const granted: RoleGrant[] = [];
  for (const group of groups) {
    if (!Object.hasOwn(roleMap, group)) continue;
    for (const text of roleMap[group] ?? []) {
      const grant = parseRoleGrant(text);
      if (grant && !granted.some((g) => g.role === grant.role && g.site === grant.site))
        granted.push(grant);
    }
  }
  return STAFF_ROLES.flatMap((r) => {
    const of = granted.filter((g) => g.role === r);
    if (of.some((g) => g.site === null)) return [r];
    return of.map((g) => `${r}@${g.site}`).sort();
  });
}

/** Which of these slugs name a site (the rest name none, or none any more). */
export type KnownSiteSlugs = (slugs: readonly string[]) => Promise<Set<string>>;

/** Whether a local account may sign in with its password under the policy. */
export const localSignInAllowed = (policy: StaffSignInPolicy, username: string): boolean =>
  policy.localSignIn || policy.localAccounts.includes(username);

/** Why a sign-in was refused, as the record of sign-ins keeps it. */
export type RefusalReason =
  | 'wrong-credentials'
  | 'local-sign-in-off'
  | 'no-mapped-group'
  | 'local-account'
  | 'provider-refused';

export interface SignInRecord {
  at: string;
  method: SignInMethod;
  username: string;
  outcome: 'signed-in' | 'refused';
  reason: RefusalReason | null;
}

/** The longest user name a record keeps (the sign-in form allows 100 characters). */
const RECORDED_NAME_LENGTH = 200;

/**
 * The key of a name typed at a refused sign-in: an HMAC with the server's secret, of the name
 * trimmed and in lower case (so staff find it however they type it), never the name itself.
 */
export function signInNameKey(secret: string, name: string): string {
  return createHmac('sha256', secret)
    .update(`staff-sign-in-name\u0000${name.trim().toLowerCase()}`)
    .digest('hex');
}

/**
 * The record of staff sign-ins (`staff_sign_ins`, migrations 030 and 061): every sign-in and
 * every refused one with its method, the account and the clock's time. Never a password, token
 * or assertion: the callers hand over nothing of the kind. A name typed with wrong credentials
 * that no account has (say, a visitor's e-mail address) is no account's: the record keeps only
 * its key (`signInNameKey`). Every record goes after STAFF_SIGN_IN_RECORD_DAYS (the erasure job,
 * `eraseStaffSignInsBefore`, staff-sign-in-erasure.ts; docs/product.md#sign-in-with-the-campus-identity).
 */
export class SignInRecords {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    /** The server's secret the keys of names are made with. */
    private readonly secret: () => Promise<string>,
  ) {}

  async record(
    method: SignInMethod,
    username: string,
    outcome: SignInRecord['outcome'],
    reason?: RefusalReason,
  ): Promise<void> {
    const name = username.slice(0, RECORDED_NAME_LENGTH);
    // Only a refusal for wrong credentials records a name as typed: every other outcome's name
    // is an account's here or one the campus identity vouched for.
    const typed = outcome === 'refused' && reason === 'wrong-credentials' && name !== '';
    const key = typed ? signInNameKey(await this.secret(), name) : null;
    await this.pool.query(
      `INSERT INTO staff_sign_ins (at, method, username, outcome, reason, username_key)
       SELECT $1, $2, CASE WHEN kept THEN $3 ELSE '' END, $4, $5, CASE WHEN kept THEN NULL ELSE $6 END
         FROM (SELECT $6::text IS NULL
                      OR EXISTS (SELECT 1 FROM admin_users WHERE username = $3) AS kept) k`,
      [this.clock.now(), method, name, outcome, reason ?? null, key],
    );
  }

  /**
   * The latest records, newest first; with `name`, only those of that name: of its account, or
   * refusals whose typed name has its key.
   */
  async latest(limit: number, name?: string): Promise<SignInRecord[]> {
    const key = name === undefined ? null : signInNameKey(await this.secret(), name);
    const r = await this.pool.query<{
      at: Date;
      method: SignInMethod;
      username: string;
      outcome: SignInRecord['outcome'];
      reason: RefusalReason | null;
    }>(
      `SELECT at, method, username, outcome, reason FROM staff_sign_ins
        WHERE $2::text IS NULL OR username = $2 OR username_key = $3
        ORDER BY at DESC, id DESC LIMIT $1`,
      [limit, name ?? null, key],
    );
    return r.rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  }
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
  sites: { known?: KnownSiteSlugs | undefined; logger?: Logger | undefined } = {},
): Promise<CampusAccountResult> {
  let roles = rolesForGroups(groups, policy.roleMap);
  // A role for a site no site has the slug of (STAFF_ROLE_MAP names a site not created yet, or
  // one renamed): left out, so the person signs in with the rest, and the log says which.
  const slugs = slugsOf(roles.map(parseRoleGrant).filter((g): g is RoleGrant => g !== null));
  if (slugs.length && sites.known) {
    const known = await sites.known(slugs);
    const unknown = slugs.filter((s) => !known.has(s));
    if (unknown.length) {
      sites.logger?.warn(
        { username, slugs: unknown },
        'STAFF_ROLE_MAP names sites no site has the slug of: their roles are left out',
      );
      roles = roles.filter((r) => !unknown.includes(parseRoleGrant(r)?.site ?? ''));
    }
  }
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
  return { ok: true, user: staffUserOf(username, roles), generation: row.session_generation };
}

/** The refusal a person without a staff role here sees (the staff app's permission screen). */
export const noStaffRole = () =>
  new Problem(403, 'auth__no_staff_role', 'This account has no staff role here');
