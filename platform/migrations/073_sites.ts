import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The library's sites (docs/product.md#sites). Every room belongs to one; the rooms of an
      -- installation made before sites, and the rooms the previous release creates beside this
      -- one during a rolling upgrade, belong to the first site (its fixed id is the default).
      -- A column with a constant default rewrites no table.
      ALTER TABLE room_state ADD COLUMN IF NOT EXISTS site_id uuid NOT NULL
        DEFAULT '00000000-0000-4000-8000-000000000001';
      ALTER TABLE rm_rooms ADD COLUMN IF NOT EXISTS site_id uuid NOT NULL
        DEFAULT '00000000-0000-4000-8000-000000000001';
      -- The sites staff created or changed (the sites stream); the first site has a row once
      -- staff change it, and is the library's name and address until then.
      CREATE TABLE IF NOT EXISTS rm_sites (
        id uuid PRIMARY KEY,
        version integer NOT NULL,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        name_en text,
        contact_email text NOT NULL,
        address text,
        phone text,
        mail_signature text,
        created_at timestamptz NOT NULL
      );
  `);
}
