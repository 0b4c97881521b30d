import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. Only new tables: the previous release
// runs beside them during a rolling upgrade and never reads them.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The insights (docs/product.md#insights), kept by the insights projection from the slot
      -- streams. No personal data: counts per slot, per room, day and hour, and per booked ticket
      -- only the instants the lead time and the late cancellations are measured by.
      CREATE TABLE IF NOT EXISTS rm_insight_slots (
        time_slot_id   uuid PRIMARY KEY,
        room_id        uuid NOT NULL,
        date           date NOT NULL,
        start_min      int NOT NULL,
        end_min        int NOT NULL,
        capacity       int NOT NULL,
        booked         int NOT NULL DEFAULT 0,
        cancelled      int NOT NULL DEFAULT 0,
        no_shows       int NOT NULL DEFAULT 0,
        waitlist_joins int NOT NULL DEFAULT 0,
        offers_taken   int NOT NULL DEFAULT 0,
        offers_lapsed  int NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS rm_insight_slots_room_date ON rm_insight_slots (room_id, date);
      CREATE INDEX IF NOT EXISTS rm_insight_slots_date ON rm_insight_slots (date);

      -- Seat-minutes offered and booked per room, day and hour of the day (0-23): the heatmap.
      CREATE TABLE IF NOT EXISTS rm_insight_hours (
        room_id        uuid NOT NULL,
        date           date NOT NULL,
        hour           smallint NOT NULL,
        offered_seat_minutes bigint NOT NULL,
        booked_seat_minutes  bigint NOT NULL,
        PRIMARY KEY (room_id, date, hour)
      );
      CREATE INDEX IF NOT EXISTS rm_insight_hours_date ON rm_insight_hours (date);

      -- Per booked ticket: when it was booked and cancelled, and the slot's local start (the
      -- library's zone turns it into an instant when read).
      CREATE TABLE IF NOT EXISTS rm_insight_bookings (
        ticket_id    uuid PRIMARY KEY,
        time_slot_id uuid NOT NULL,
        room_id      uuid NOT NULL,
        date         date NOT NULL,
        starts_local timestamp NOT NULL,
        booked_at    timestamptz NOT NULL,
        cancelled_at timestamptz
      );
      CREATE INDEX IF NOT EXISTS rm_insight_bookings_room_date ON rm_insight_bookings (room_id, date);
      CREATE INDEX IF NOT EXISTS rm_insight_bookings_date ON rm_insight_bookings (date);
      CREATE INDEX IF NOT EXISTS rm_insight_bookings_slot ON rm_insight_bookings (time_slot_id);

      -- Cart requests the seat rule refused. Never events (a refusal appends nothing to the
      -- log): written after the refusal, outside its transaction. One row per cart, slot and
      -- rule however often the cart retried; the cart is known only by a hash of its id, the
      -- visitor not at all.
      CREATE TABLE IF NOT EXISTS cart_refusals (
        time_slot_id     uuid NOT NULL,
        cart_key         text NOT NULL,
        rule             text NOT NULL,
        room_id          uuid NOT NULL,
        date             date NOT NULL,
        first_refused_at timestamptz NOT NULL,
        attempts         int NOT NULL DEFAULT 1,
        PRIMARY KEY (time_slot_id, cart_key, rule)
      );
      CREATE INDEX IF NOT EXISTS cart_refusals_room_date ON cart_refusals (room_id, date);
    `);
}
