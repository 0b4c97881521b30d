import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. Only new tables: the previous release
// runs beside them during a rolling upgrade and never reads them. They belong to a projection
// of their own (insight-lead), which fills them from the log on its first start: no backfill.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The lead time of the insights (docs/product.md#insights), counted ahead by the
      -- insight-lead projection. No personal data: per slot its room, day and start instant,
      -- per booked ticket its slot and instants, and counts per room and day or month.
      CREATE TABLE IF NOT EXISTS rm_insight_lead_slots (
        time_slot_id uuid PRIMARY KEY,
        room_id      uuid NOT NULL,
        date         date NOT NULL,
        -- The slot's start in the library's time zone.
        starts_at    timestamptz NOT NULL
      );

      CREATE TABLE IF NOT EXISTS rm_insight_lead_tickets (
        ticket_id    uuid PRIMARY KEY,
        time_slot_id uuid NOT NULL,
        room_id      uuid NOT NULL,
        date         date NOT NULL,
        starts_at    timestamptz NOT NULL,
        booked_at    timestamptz NOT NULL,
        cancelled_at timestamptz,
        -- Whole days (24 hours) from the booking to the start, 0 for one after the start.
        days         int NOT NULL
      );
      CREATE INDEX IF NOT EXISTS rm_insight_lead_tickets_slot ON rm_insight_lead_tickets (time_slot_id);
      CREATE INDEX IF NOT EXISTS rm_insight_lead_tickets_room_date ON rm_insight_lead_tickets (room_id, date);

      -- Per room, day and lead time: the bookings, the cancelled ones, the cancelled less than
      -- 24 hours before the start.
      CREATE TABLE IF NOT EXISTS rm_insight_lead_days (
        room_id   uuid NOT NULL,
        date      date NOT NULL,
        days      int NOT NULL,
        bookings  int NOT NULL,
        cancelled int NOT NULL,
        late      int NOT NULL,
        PRIMARY KEY (room_id, date, days)
      );
      CREATE INDEX IF NOT EXISTS rm_insight_lead_days_date ON rm_insight_lead_days (date);

      -- The same per room and month (its first day): the months a period covers whole.
      CREATE TABLE IF NOT EXISTS rm_insight_lead_months (
        room_id   uuid NOT NULL,
        month     date NOT NULL,
        days      int NOT NULL,
        bookings  int NOT NULL,
        cancelled int NOT NULL,
        late      int NOT NULL,
        PRIMARY KEY (room_id, month, days)
      );
      CREATE INDEX IF NOT EXISTS rm_insight_lead_months_month ON rm_insight_lead_months (month);
    `);
}
