import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The English texts of what staff write (docs/product.md#translations): null while staff
      -- left them empty, and then the German text serves both languages. Nullable columns: no
      -- rewrite of a table, and the previous release, which does not know them, works beside
      -- them. No event before this release holds an English text, so nothing is to be filled in.
      ALTER TABLE rm_rooms ADD COLUMN IF NOT EXISTS name_en text;
      ALTER TABLE rm_rooms ADD COLUMN IF NOT EXISTS description_en text;
      ALTER TABLE rm_rooms ADD COLUMN IF NOT EXISTS image_alt_en text;
      -- The cart's answer names a ticket's room in both languages.
      ALTER TABLE room_state ADD COLUMN IF NOT EXISTS name_en text;
      ALTER TABLE rm_holidays ADD COLUMN IF NOT EXISTS name_en text;
      ALTER TABLE rm_holidays ADD COLUMN IF NOT EXISTS description_en text;
      ALTER TABLE rm_time_slots ADD COLUMN IF NOT EXISTS closed_reason_en text;
      -- A cancellation mail in English states the reason's English text.
      ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS reason_en text;
    `);
}
