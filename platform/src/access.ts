import { parseRoleGrant, type RoleGrant } from '@rr/contracts/staff-roles';
import { problems } from './problem.ts';

// Who may call what: the staff roles, the signed-in user a request carries (a session's or an
// API token's), and the access rule of a route.

/** Staff roles: everything, the reports only, and the check-in screen only. */
export const STAFF_ROLES = ['admin', 'reports', 'checkin'] as const;
export type Role = (typeof STAFF_ROLES)[number];

/** Who may use the check-in screen and its endpoints: admins and check-in staff. */
export const CHECK_IN_ROLES: Role[] = ['admin', 'checkin'];

export interface SessionUser {
  username: string;
  /** The roles held, for all sites or for some (`sites`). */
  roles: Role[];
  /**
   * The roles held for some sites only: role → the sites' slugs (`admin@jura` → admin: jura).
   * A role held not named here is held for all sites (docs/product.md#roles).
   */
  sites?: Partial<Record<Role, readonly string[]>>;
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
    /**
     * The visitor signed in with the campus identity (@rr/identity's visitor-identity.ts): the
     * subject, and what rooms for members of the university admit by (affiliations, home
     * organisation, groups). Never a staff user.
     */
    signedInVisitor?: { subject: string; memberships: readonly string[] };
  }
}

/** Who may call a route: anyone, any signed-in user, or a signed-in user holding one of the roles. */
export type Access = 'public' | 'signed-in' | Role[];

/** Refuses a request whose user the route's access rule does not admit (401, 403). */
export function checkAccess(access: Access, user: SessionUser | undefined): void {
  if (access === 'public') return;
  if (!user) throw problems.unauthorized();
  if (access === 'signed-in') return;
  if (!access.some((r) => user.roles.includes(r))) throw problems.forbidden();
}

/**
 * The staff user of roles as stored (`admin`, `admin@jura`; an account's, a token's, a group's):
 * a role held for all sites and for some is held for all. Text that is no role is left out.
 */
export function staffUserOf(
  username: string,
  stored: readonly string[],
  token?: SessionUser['token'],
): SessionUser {
  const grants = stored.map(parseRoleGrant).filter((g): g is RoleGrant => g !== null);
  // In the order stored (the order they were given in).
  const roles = [...new Set(grants.map((g) => g.role))];
  const sites: Partial<Record<Role, string[]>> = {};
  for (const role of roles) {
    const of = grants.filter((g) => g.role === role);
    if (of.some((g) => g.site === null)) continue;
    sites[role] = [...new Set(of.map((g) => g.site!))].sort();
  }
  return {
    username,
    roles,
    ...(Object.keys(sites).length ? { sites } : {}),
    ...(token ? { token } : {}),
  };
}

/** The user's roles as written: `admin` for all sites, `admin@jura` for one. */
export const roleGrantsOf = (user: SessionUser): string[] =>
  user.roles.flatMap((r) => user.sites?.[r]?.map((slug) => `${r}@${slug}`) ?? [r]);

/**
 * The slugs of the sites the user reaches with the roles a route admits: null when one of them
 * is held for all sites (the user reaches everything the route shows).
 */
export function siteSlugsFor(access: readonly Role[], user: SessionUser): string[] | null {
  const held = access.filter((r) => user.roles.includes(r));
  if (held.some((r) => !user.sites?.[r])) return null;
  return [...new Set(held.flatMap((r) => user.sites?.[r] ?? []))];
}
