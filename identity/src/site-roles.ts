import { messageOf, parseRoleGrant } from '@rr/contracts';
import { problems } from '@rr/platform';
import type { KnownSiteSlugs } from './staff-sso.ts';

/**
 * Refuses roles for sites no site has the slug of, where roles are stored through the API or
 * `npm run staff-user` (400, rule `site-unknown` on each such role): a role for no site would
 * grant nothing. Roles from the campus identity's groups are left out instead (staff-sso.ts).
 */
export async function refuseUnknownSites(
  roles: readonly string[],
  known: KnownSiteSlugs,
  field = 'roles',
): Promise<void> {
  const slugs = roles.map((r) => parseRoleGrant(r)?.site ?? null);
  const named = slugs.filter((s): s is string => s !== null);
  if (!named.length) return;
  const found = await known(named);
  const errors = slugs.flatMap((slug, i) =>
    slug !== null && !found.has(slug)
      ? [
          {
            field: `${field}.${i}`,
            rule: 'site-unknown',
            message: messageOf({ key: 'site-unknown' }),
          },
        ]
      : [],
  );
  if (errors.length) throw problems.validation(errors);
}
