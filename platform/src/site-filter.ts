import { FIRST_SITE_ID, FIRST_SITE_SLUG } from '@rr/contracts/sites';
import type { Pool } from './db.ts';
import { z } from './validation.ts';

/**
 * The site filter of the staff's lists, reports and insights (docs/product.md#sites): a site by
 * its slug, as `GET /rooms?site={slug}` takes it, and the site in their CSV exports.
 */

/**
 * The SQL of the id of the site with the slug `slug` (a bound parameter, given twice): the first
 * site has it before staff changed the site too (it has no row then). None for a slug no site has.
 */
export const siteIdOfSlug = (slug: string) => `(
  SELECT id FROM rm_sites WHERE slug = ${slug}
  UNION ALL
  SELECT '${FIRST_SITE_ID}'::uuid WHERE ${slug} = '${FIRST_SITE_SLUG}'
     AND NOT EXISTS (SELECT 1 FROM rm_sites WHERE id = '${FIRST_SITE_ID}'))`;

/** The query parameter: only what belongs to the site with this slug. */
export const siteFilterParam = z.string().max(40).optional().openapi({
  description:
    'Only the rooms of the site with this slug (none for a slug no site has); a site not among the user’s sites is refused (403)',
});

/** A slug as the sites store it (trimmed, lower case), as a request's filter names it. */
export const slugOf = (site: string) => site.trim().toLowerCase();

/**
 * The sites a request's figures are of: the sites the user reaches (null: every one), narrowed to
 * the site of the `site` filter when it names one (none when no site has the slug).
 */
export async function sitesOfFilter(
  pool: Pool,
  site: string | undefined,
  sites: readonly string[] | null,
): Promise<readonly string[] | null> {
  if (site === undefined) return sites;
  const r = await pool.query<{ id: string }>(`SELECT id::text AS id FROM ${siteIdOfSlug('$1')} x`, [
    slugOf(site),
  ]);
  const named = r.rows.map((row) => row.id);
  return sites ? named.filter((id) => sites.includes(id)) : named;
}

/**
 * The sites' names by id, when the library has more than one site (the CSV exports' column
 * "Standort", which a library of one site does without); null with one site. The first site
 * before staff changed it is named as the library (LIBRARY_NAME, else "Bibliothek").
 */
export async function siteNamesIfSeveral(
  pool: Pool,
  libraryName: string | undefined,
): Promise<Map<string, string> | null> {
  const r = await pool.query<{ id: string; name: string }>(
    `SELECT id::text AS id, name FROM rm_sites
     UNION ALL
     SELECT '${FIRST_SITE_ID}', $1::text WHERE NOT EXISTS (SELECT 1 FROM rm_sites WHERE id = '${FIRST_SITE_ID}')`,
    [libraryName ?? 'Bibliothek'],
  );
  return r.rows.length > 1 ? new Map(r.rows.map((row) => [row.id, row.name])) : null;
}

/**
 * The sites a report's rows count, by name (", " between them), when the library has several:
 * the room's, or the sites given (every site without them); null with one site (csvWithSite
 * then adds no column).
 */
export async function siteColumnOf(
  pool: Pool,
  libraryName: string | undefined,
  roomId: string | undefined,
  sites: readonly string[] | null,
): Promise<string | null> {
  const names = await siteNamesIfSeveral(pool, libraryName);
  if (!names) return null;
  let ids = sites ?? [...names.keys()];
  if (roomId) {
    const r = await pool.query<{ site_id: string }>(
      'SELECT site_id::text AS site_id FROM rm_rooms WHERE id = $1',
      [roomId],
    );
    ids = r.rows.map((row) => row.site_id);
  }
  return ids
    .flatMap((id) => names.get(id) ?? [])
    .sort((a, b) => a.localeCompare(b, 'de'))
    .join(', ');
}
