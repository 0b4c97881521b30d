import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Sites for members of the university (docs/product.md#sites): what the seat decision's
      -- loaders give a room of the site besides the room's own rule (membersRuleOf). A row per
      -- site whose events named a rule; no row: the site admits everyone. The sites made before
      -- this release named none, so the table starts empty.
      CREATE TABLE IF NOT EXISTS site_state (
        site_id uuid PRIMARY KEY,
        members jsonb NOT NULL
      );
      -- The same rule as visitors and staff read it (the site form, the visitor calendar's label).
      ALTER TABLE rm_sites ADD COLUMN IF NOT EXISTS sign_in_required boolean NOT NULL DEFAULT false;
      ALTER TABLE rm_sites ADD COLUMN IF NOT EXISTS allowed_affiliations text[];
  `);
}
