import { parseRoleGrant } from '@rr/contracts/staff-roles';

/**
 * A role as staff read it (docs/product.md#roles): its name from the catalogue (`roleText`), and
 * for a role held for one site the site's slug after it: "Administration (jura)".
 */
export function roleGrantLabel(grant: string, roleText: (role: string) => string): string {
  const parsed = parseRoleGrant(grant);
  if (!parsed) return grant;
  const name = roleText(parsed.role);
  return parsed.site ? `${name} (${parsed.site})` : name;
}
