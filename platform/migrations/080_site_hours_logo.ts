import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A site's logo (docs/product.md#sites): its bytes beside the log, as a room image's, one
      -- per site; the event SiteLogoSet names them by logo_id with their SHA-256. Backups keep
      -- them with the log; a rebuild of the read models leaves them.
      CREATE TABLE IF NOT EXISTS site_logos (
        logo_id uuid PRIMARY KEY,
        site_id uuid NOT NULL,
        content_type text NOT NULL,
        sha256 text NOT NULL,
        bytes bytea NOT NULL
      );
      CREATE INDEX IF NOT EXISTS site_logos_site ON site_logos (site_id);
      -- What a site has besides its details (the sites stream): its opening hours and its logo.
      -- A row of its own, so the first site has them before staff change its details (it has no
      -- row in rm_sites until then).
      CREATE TABLE IF NOT EXISTS rm_site_profile (
        site_id uuid PRIMARY KEY,
        hours jsonb,
        logo_id uuid,
        logo_type text,
        logo_sha256 text
      );
  `);
}
