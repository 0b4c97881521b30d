import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. Only new tables: the previous release
// runs beside them during a rolling upgrade and never reads them. The first belongs to a
// projection of its own (insight-seats), which fills it from the log on its first start.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The seats' use of the insights (docs/product.md#insights), kept by the insight-seats
      -- projection from the slot streams: per ticket holding a seat of a plan its slot, its seat,
      -- when it was booked (null while only held) and whether it is checked in. No personal data.
      CREATE TABLE IF NOT EXISTS rm_insight_seat_tickets (
        ticket_id    uuid PRIMARY KEY,
        time_slot_id uuid NOT NULL,
        seat_id      uuid NOT NULL,
        booked_at    timestamptz,
        checked_in   boolean NOT NULL DEFAULT false
      );
      CREATE INDEX IF NOT EXISTS rm_insight_seat_tickets_slot ON rm_insight_seat_tickets (time_slot_id);

      -- Cart requests refused for their seat wish (seat__taken, seat__none_matching). Never
      -- events (a refusal appends nothing to the log): written after the refusal, outside its
      -- transaction, as cart_refusals. One row per cart, slot, rule and wish (the seat asked for,
      -- or the attributes) however often the cart retried; the attributes asked for, or those of
      -- the seat asked for. The cart is known only by a hash of its id, the visitor not at all.
      CREATE TABLE IF NOT EXISTS cart_seat_refusals (
        time_slot_id     uuid NOT NULL,
        cart_key         text NOT NULL,
        rule             text NOT NULL,
        wish             text NOT NULL,
        room_id          uuid NOT NULL,
        date             date NOT NULL,
        attributes       text[] NOT NULL,
        first_refused_at timestamptz NOT NULL,
        attempts         int NOT NULL DEFAULT 1,
        PRIMARY KEY (time_slot_id, cart_key, rule, wish)
      );
      CREATE INDEX IF NOT EXISTS cart_seat_refusals_room_date ON cart_seat_refusals (room_id, date);
  `);
}
