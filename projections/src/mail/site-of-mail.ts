import type { Pool } from '@rr/platform';
import type { MailLibrary } from './compose.ts';

/**
 * Who a mail comes from (docs/product.md#sites): the site of the rooms it is about, when they
 * are all of one site that staff described (its row in rm_sites); otherwise the library as the
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
  }>(
    `SELECT count(DISTINCT r.site_id)::int AS sites,
            max(CASE WHEN $2 = 'en' THEN coalesce(s.name_en, s.name) ELSE s.name END) AS name,
            max(s.contact_email) AS contact_email, max(s.address) AS address,
            max(s.phone) AS phone, max(s.mail_signature) AS mail_signature
       FROM rm_rooms r LEFT JOIN rm_sites s ON s.id = r.site_id
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
  };
}
