import { FIRST_SITE_ID, FIRST_SITE_SLUG } from '@rr/contracts/sites';
import type { KnownSiteSlugs } from '@rr/identity';
import { siteIdOfSlug, slugOf, type Pool, type SiteKind, type SiteLookup } from '@rr/platform';

/**
 * How the server finds the sites of roles and requests (docs/product.md#roles): the sites'
 * slugs from the sites read model (the first site's is its default until staff change it), and
 * the site of a room, time slot or ticket from the command side's state, written with their
 * events (no projection lag: a room just created is found at once). Always on the primary.
 */
export function siteLookup(pool: Pool): SiteLookup {
  return {
    defaultSiteId: FIRST_SITE_ID,
    async siteIdsBySlug(slugs) {
      if (!slugs.length) return new Map();
      const r = await pool.query<{ id: string; slug: string }>(
        `SELECT id, slug FROM rm_sites WHERE slug = ANY($1::text[])
         UNION ALL
         SELECT '${FIRST_SITE_ID}'::uuid, '${FIRST_SITE_SLUG}'
          WHERE '${FIRST_SITE_SLUG}' = ANY($1::text[])
            AND NOT EXISTS (SELECT 1 FROM rm_sites WHERE id = '${FIRST_SITE_ID}')`,
        [slugs],
      );
      return new Map(r.rows.map((row) => [row.slug, row.id]));
    },
    async sitesOf(kind: SiteKind, id: string) {
      if (kind === 'slug') {
        const r = await pool.query<{ site_id: string }>(SITES_OF.slug, [slugOf(id)]);
        return r.rows.map((row) => row.site_id);
      }
      if (!UUID.test(id)) return [];
      const r = await pool.query<{ site_id: string }>(SITES_OF[kind], [id]);
      return r.rows.map((row) => row.site_id);
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SITES_OF: Record<SiteKind, string> = {
  site: `SELECT $1::uuid AS site_id`,
  slug: `SELECT id AS site_id FROM ${siteIdOfSlug('$1::text')} x`,
  // A holiday of every site (no site_id) is of none of a site-limited user's sites.
  holiday: `SELECT site_id FROM holiday_state WHERE holiday_id = $1`,
  room: `SELECT site_id FROM room_state WHERE room_id = $1`,
  slot: `SELECT r.site_id FROM timeslot_guard g JOIN room_state r ON r.room_id = g.room_id
          WHERE g.time_slot_id = $1`,
  ticket: `SELECT r.site_id FROM ticket_state t
             JOIN timeslot_guard g ON g.time_slot_id = t.time_slot_id
             JOIN room_state r ON r.room_id = g.room_id
            WHERE t.ticket_id = $1`,
  // Every ticket of the ticket's owner (a cart's ticket without one: itself).
  reservation: `SELECT DISTINCT r.site_id FROM ticket_state t0
                  JOIN ticket_state t ON t.ticket_id = t0.ticket_id OR t.owner_id = t0.owner_id
                  JOIN timeslot_guard g ON g.time_slot_id = t.time_slot_id
                  JOIN room_state r ON r.room_id = g.room_id
                 WHERE t0.ticket_id = $1`,
};

/** Which of the slugs name a site now. */
export const knownSiteSlugs =
  (pool: Pool): KnownSiteSlugs =>
  async (slugs) =>
    new Set((await siteLookup(pool).siteIdsBySlug(slugs)).keys());
