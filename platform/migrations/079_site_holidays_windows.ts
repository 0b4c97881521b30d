import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Holidays per site (docs/product.md#sites): a holiday of one site (site_id) applies to
      -- that site's rooms only; NULL: the whole system's, as every holiday made before sites.
      ALTER TABLE holiday_state ADD COLUMN IF NOT EXISTS site_id uuid;
      ALTER TABLE rm_holidays ADD COLUMN IF NOT EXISTS site_id uuid;
      -- A holiday_state made from the stream alone (018) takes each holiday's site from its last
      -- event (none before this release).
      UPDATE holiday_state s SET site_id = (e.data->>'siteId')::uuid
        FROM (SELECT DISTINCT ON (data->>'holidayId') data FROM events
               WHERE stream_id = 'holidays' ORDER BY data->>'holidayId', stream_version DESC) e
       WHERE e.data->>'holidayId' = s.holiday_id::text AND e.data->>'siteId' IS NOT NULL;
      -- The booking window per site (docs/product.md#booking-window): a room that does not set
      -- a bound of its own (NULL) uses its site's, else the product's default. Every room made
      -- before this release set both, so nothing changes for them.
      ALTER TABLE room_state ALTER COLUMN open_start_type DROP NOT NULL,
                             ALTER COLUMN open_start_value DROP NOT NULL,
                             ALTER COLUMN open_end_type DROP NOT NULL,
                             ALTER COLUMN open_end_value DROP NOT NULL;
      ALTER TABLE rm_rooms ALTER COLUMN open_start_type DROP NOT NULL,
                           ALTER COLUMN open_start_value DROP NOT NULL,
                           ALTER COLUMN open_end_type DROP NOT NULL,
                           ALTER COLUMN open_end_value DROP NOT NULL;
      -- A site's own bounds: site_state keeps a row for a site with a rule for members or a
      -- window (members then may be NULL); rm_sites answers them.
      ALTER TABLE site_state ALTER COLUMN members DROP NOT NULL;
      ALTER TABLE site_state ADD COLUMN IF NOT EXISTS open_start jsonb;
      ALTER TABLE site_state ADD COLUMN IF NOT EXISTS open_end jsonb;
      ALTER TABLE rm_sites ADD COLUMN IF NOT EXISTS open_start jsonb;
      ALTER TABLE rm_sites ADD COLUMN IF NOT EXISTS open_end jsonb;
  `);
}
