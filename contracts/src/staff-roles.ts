import * as z from 'zod/mini';
import { rule } from './rules.ts';
import { SLUG_PATTERN } from './sites.ts';

/**
 * docs/product.md#roles: a staff role is held for all sites (`admin`) or for one site, named by
 * its slug (`admin@jura`); an account, a group of the campus identity or an API token may hold
 * several (`admin@jura`, `checkin@recht`).
 */

/** The staff roles: everything, the reports only, and the check-in screen only. */
export const STAFF_ROLE_NAMES = ['admin', 'reports', 'checkin'] as const;
export type StaffRoleName = (typeof STAFF_ROLE_NAMES)[number];

/** A role held for all sites (`site` null) or for the site of one slug. */
export interface RoleGrant {
  readonly role: StaffRoleName;
  readonly site: string | null;
}

/** A role as written (`admin`, `admin@jura`): null when the role is unknown or the slug malformed. */
export function parseRoleGrant(text: string): RoleGrant | null {
  const at = text.indexOf('@');
  const role = at < 0 ? text : text.slice(0, at);
  const site = at < 0 ? null : text.slice(at + 1);
  if (!(STAFF_ROLE_NAMES as readonly string[]).includes(role)) return null;
  if (site !== null && (site.length < 2 || site.length > 40 || !SLUG_PATTERN.test(site)))
    return null;
  return { role: role as StaffRoleName, site };
}

/** A role as written: `admin`, or `admin@jura`. */
export const roleGrantText = (g: RoleGrant): string => (g.site ? `${g.role}@${g.site}` : g.role);

/** The slugs the grants name, each once. */
export const slugsOf = (grants: readonly RoleGrant[]): string[] => [
  ...new Set(grants.flatMap((g) => (g.site ? [g.site] : []))),
];

/** One role as written: a staff role, optionally `@` and a site's slug (`checkin@jura`). */
export const RoleGrantText = z.string().check(
  z.trim(),
  rule('staff-role', (v: string) => parseRoleGrant(v) !== null),
);

/** The roles of an account or a token: at least one, each once. */
export const RoleGrantTexts = z.array(RoleGrantText).check(
  rule<string[]>('required', (v) => v.length > 0),
  rule<string[]>('unique', (v) => new Set(v).size === v.length),
);
