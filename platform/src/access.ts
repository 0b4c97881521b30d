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
