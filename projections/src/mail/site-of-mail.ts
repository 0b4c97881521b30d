import { FIRST_SITE_ID, FIRST_SITE_SLUG } from '@rr/contracts';
import type { SiteHours } from '@rr/contracts/site-hours';
import type { Pool } from '@rr/platform';
import type { MailLibrary } from './compose.ts';

/**
 * Who a mail comes from (docs/product.md#sites): the site of the rooms it is about, when they
 * are all of one site that staff described (its row in rm_sites, and its opening hours when staff
 * set them); otherwise the library as the
 * configuration names it (LIBRARY_NAME, LIBRARY_CONTACT_EMAIL), which is also the first site
 * before staff change it.
 */
export async function mailLibraryOf(
  pool: Pool,
  roomIds: readonly string[],
  language: 'de' | 'en',
  library: MailLibrary | undefined,
): Promise<MailLibrary | undefined> {
  if (roomIds.length === 0) return library;
  const r = await pool.query<{
    sites: number;
    name: string | null;
    contact_email: string | null;
    address: string | null;
    phone: string | null;
    mail_signature: string | null;
    hours: SiteHours | null;
  }>(
    `SELECT count(DISTINCT r.site_id)::int AS sites,
            max(CASE WHEN $2 = 'en' THEN coalesce(s.name_en, s.name) ELSE s.name END) AS name,
            max(s.contact_email) AS contact_email, max(s.address) AS address,
            max(s.phone) AS phone, max(s.mail_signature) AS mail_signature,
            (array_agg(p.hours) FILTER (WHERE p.hours IS NOT NULL))[1] AS hours
       FROM rm_rooms r LEFT JOIN rm_sites s ON s.id = r.site_id
            LEFT JOIN rm_site_profile p ON p.site_id = r.site_id
      WHERE r.id = ANY($1::uuid[])`,
    [[...new Set(roomIds)], language],
  );
  const site = r.rows[0];
  if (!site || site.sites !== 1 || site.name === null) return library;
  return {
    site: true,
    name: site.name,
    contactEmail: site.contact_email ?? undefined,
    ...(site.address ? { address: site.address } : {}),
    ...(site.phone ? { phone: site.phone } : {}),
    ...(site.mail_signature ? { signature: site.mail_signature } : {}),
    ...(site.hours ? { hours: site.hours } : {}),
  };
}

/**
 * Where a mail's links into the visitor app lead (docs/product.md#sites): below the site's own
 * address (`/s/{slug}/`) when the library has several sites and the rooms the mail is about are
 * all of one site; otherwise, as with one site, the app's own base (`baseUrl`, with its closing
 * slash).
 */
export async function visitorBaseOf(
  pool: Pool,
  roomIds: readonly string[],
  baseUrl: string,
): Promise<string> {
  if (roomIds.length === 0) return baseUrl;
  const r = await pool.query<{ sites: number; slug: string | null; others: boolean }>(
    `SELECT count(DISTINCT r.site_id)::int AS sites,
            max(coalesce(s.slug, CASE WHEN r.site_id = $2::uuid THEN $3 END)) AS slug,
            EXISTS (SELECT 1 FROM rm_sites WHERE id <> $2::uuid) AS others
       FROM rm_rooms r LEFT JOIN rm_sites s ON s.id = r.site_id
      WHERE r.id = ANY($1::uuid[])`,
    [[...new Set(roomIds)], FIRST_SITE_ID, FIRST_SITE_SLUG],
  );
  const site = r.rows[0];
  if (!site || site.sites !== 1 || !site.others || !site.slug) return baseUrl;
  return new URL(`s/${encodeURIComponent(site.slug)}/`, baseUrl).href;
}
