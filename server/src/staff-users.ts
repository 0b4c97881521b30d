import { randomBytes } from 'node:crypto';
import { parseRoleGrant } from '@rr/contracts';
import {
  createUser,
  endUserSessions,
  type KnownSiteSlugs,
  removeUser,
  refuseUnknownSites,
  setUserRoles,
} from '@rr/identity';
import { Problem, STAFF_ROLES, type Pool } from '@rr/platform';
import { knownSiteSlugs } from './site-lookup.ts';

/**
 * Staff users from the command line (`npm run staff-user -- <username> <role>[,<role>...]`, a
 * role for all sites, `admin`, or for one site by its slug, `admin@jura`): the
 * product has no user administration screen, and the first admin comes from the environment, so
 * this is how a library adds a reports-only or check-in-only account or changes one's
 * roles and password. The password comes from `STAFF_USER_PASSWORD` (at least 12 characters);
 * without it one is generated and printed once. `--keep-password` changes only the roles of an
 * existing account, `--end-sessions` signs the account out everywhere, `--remove` deletes it.
 * Every change holds from the next request of every process (currentStaff in identity/src/sessions.ts).
 */
const MIN_PASSWORD = 12;

export type StaffUserRequest =
  | { action: 'save'; username: string; roles: string[]; password: string; generated: boolean }
  | { action: 'roles'; username: string; roles: string[] }
  | { action: 'end-sessions'; username: string }
  | { action: 'remove'; username: string };

const isRole = (r: string) => parseRoleGrant(r) !== null;

/** The account the arguments ask for, or an Error whose message says what is wrong. */
export function staffUserRequest(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): StaffUserRequest | Error {
  const usage =
    `usage: npm run staff-user -- <username> <role>[,<role>...] [--keep-password]` +
    ` | <username> --end-sessions | <username> --remove (roles: ${STAFF_ROLES.join(', ')},` +
    ` for one site with its slug: admin@jura)`;
  const [username = '', second = '', ...rest] = args;
  if (!username.trim() || !second || username.startsWith('--')) return new Error(usage);
  if (username.trim() !== username || username.length > 100)
    return new Error(
      'The user name must not start or end with spaces and has at most 100 characters.',
    );
  if (second === '--end-sessions' || second === '--remove') {
    if (rest.length) return new Error(usage);
    return second === '--remove'
      ? { action: 'remove', username }
      : { action: 'end-sessions', username };
  }
  const keepPassword = rest.length === 1 && rest[0] === '--keep-password';
  if (rest.length && !keepPassword) return new Error(usage);
  const roles = [...new Set(second.split(',').map((r) => r.trim()))];
  const unknown = roles.filter((r) => !isRole(r));
  if (unknown.length) return new Error(`Unknown role ${unknown.join(', ')}. ${usage}`);
  if (keepPassword) return { action: 'roles', username, roles };
  const given = env.STAFF_USER_PASSWORD;
  if (given !== undefined && (given.length < MIN_PASSWORD || given.length > 200))
    return new Error(`STAFF_USER_PASSWORD needs ${MIN_PASSWORD} to 200 characters.`);
  return {
    action: 'save',
    username,
    roles,
    password: given ?? randomBytes(12).toString('base64url'),
    generated: given === undefined,
  };
}

/**
 * Carries the request out and returns what to print, or an Error when the account it changes
 * does not exist. Saving creates the account or sets its roles and password (which ends its
 * sessions); the other actions need an existing account.
 */
export async function runStaffUserRequest(
  pool: Pool,
  request: StaffUserRequest,
  known: KnownSiteSlugs = knownSiteSlugs(pool),
): Promise<string | Error> {
  const missing = () => new Error(`There is no staff user ${request.username}.`);
  if (request.action === 'save' || request.action === 'roles') {
    // A role for a site no site has the slug of would grant nothing: refused, nothing stored.
    try {
      await refuseUnknownSites(request.roles, known);
    } catch (err) {
      if (!(err instanceof Problem)) throw err;
      const unknown = request.roles.filter((_r, i) =>
        err.errors?.some((e) => e.field === `roles.${i}`),
      );
      return new Error(`No site has the slug of ${unknown.join(', ')}.`);
    }
  }
  switch (request.action) {
    case 'save':
      await createUser(pool, request.username, request.password, request.roles);
      return `staff user ${request.username}: roles ${request.roles.join(', ')}`;
    case 'roles':
      return (await setUserRoles(pool, request.username, request.roles))
        ? `staff user ${request.username}: roles ${request.roles.join(', ')}`
        : missing();
    case 'end-sessions':
      return (await endUserSessions(pool, request.username))
        ? `staff user ${request.username}: sessions ended`
        : missing();
    case 'remove':
      return (await removeUser(pool, request.username))
        ? `staff user ${request.username}: removed`
        : missing();
  }
}

/** What `npm run staff-user` prints, and its exit code. */
export interface StaffUserCommandOutcome {
  /** 0 done, 1 no such account or site (nothing changed), 2 arguments refused (nothing opened). */
  code: 0 | 1 | 2;
  out: string[];
  err: string[];
}

/**
 * The whole command: the arguments checked first (refused ones open no database), then carried
 * out on the pool `withPool` lends; a generated password is printed once, after the outcome.
 */
export async function staffUserCommand(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  withPool: (use: (pool: Pool) => Promise<string | Error>) => Promise<string | Error>,
): Promise<StaffUserCommandOutcome> {
  const request = staffUserRequest(args, env);
  if (request instanceof Error) return { code: 2, out: [], err: [request.message] };
  const outcome = await withPool((pool) => runStaffUserRequest(pool, request));
  if (outcome instanceof Error) return { code: 1, out: [], err: [outcome.message] };
  const shown =
    request.action === 'save' && request.generated
      ? [`password (shown once): ${request.password}`]
      : [];
  return { code: 0, out: [outcome, ...shown], err: [] };
}
