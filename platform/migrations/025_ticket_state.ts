import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- What the command side looks tickets and carts up by, written in the transaction that
      -- appends their events (command-service/src/write-state.ts), so a ticket is found the
      -- moment its command answered: a ticket's slot and cart (check-in by id or QR reference,
      -- staff changes), its owner (staff cancellations), the booked tickets of a booking number
      -- (with bookings), the booked tickets not checked in (the no-show release) and the open
      -- carts' expiry (the expiry job). No personal data: the owner id is the booking's key.
      CREATE TABLE ticket_state (
        ticket_id      uuid PRIMARY KEY,
        time_slot_id   uuid NOT NULL,
        transaction_id uuid NOT NULL,
        status         text NOT NULL CHECK (status IN ('NEW', 'BOOKED', 'INVALID', 'CANCELLED')),
        owner_id       text,
        checked_in     boolean NOT NULL DEFAULT false
      );
      CREATE INDEX ticket_state_transaction ON ticket_state (transaction_id);
      CREATE INDEX ticket_state_not_checked_in ON ticket_state (time_slot_id)
        WHERE status = 'BOOKED' AND NOT checked_in;

      CREATE TABLE open_carts (
        transaction_id uuid PRIMARY KEY,
        expires_at     timestamptz NOT NULL
      );
      CREATE INDEX open_carts_expires_at ON open_carts (expires_at);

      -- Filled from the slot streams: a ticket's hold names its slot and cart; its status is
      -- that of its last status event; its owner that of its last booking; it is checked in when
      -- its last check-in event is a check-in.
      WITH t AS (
        SELECT data->>'ticketId' AS ticket_id,
               (array_agg(data ORDER BY global_position) FILTER (WHERE event_type = 'TicketHeld'))[1] AS held,
               (array_agg(event_type ORDER BY global_position DESC)
                  FILTER (WHERE event_type IN ('TicketHeld', 'TicketReleased', 'TicketBooked',
                                               'TicketCancelled', 'TicketNoShowReleased')))[1] AS last_status,
               (array_agg(data->>'ownerId' ORDER BY global_position DESC)
                  FILTER (WHERE event_type = 'TicketBooked'))[1] AS owner_id,
               (array_agg(event_type ORDER BY global_position DESC)
                  FILTER (WHERE event_type IN ('TicketCheckedIn', 'TicketCheckInUndone')))[1] AS check_in
          FROM events
         WHERE stream_id LIKE 'timeslot-%'
           AND event_type IN ('TicketHeld', 'TicketReleased', 'TicketBooked', 'TicketCancelled',
                              'TicketNoShowReleased', 'TicketCheckedIn', 'TicketCheckInUndone')
         GROUP BY data->>'ticketId'
      )
      INSERT INTO ticket_state (ticket_id, time_slot_id, transaction_id, status, owner_id, checked_in)
      SELECT ticket_id::uuid, (held->>'timeSlotId')::uuid, (held->>'transactionId')::uuid,
             CASE last_status WHEN 'TicketHeld' THEN 'NEW' WHEN 'TicketBooked' THEN 'BOOKED'
                              WHEN 'TicketCancelled' THEN 'CANCELLED' ELSE 'INVALID' END,
             owner_id, coalesce(check_in = 'TicketCheckedIn', false)
        FROM t WHERE held IS NOT NULL;

      -- Filled from the cart streams: a cart not booked, removed or expired, until the expiry its
      -- last event set.
      WITH c AS (
        SELECT substr(stream_id, 13)::uuid AS transaction_id,
               bool_or(event_type IN ('TransactionBooked', 'TransactionRemoved', 'TransactionExpired')) AS closed,
               (array_agg(data->>'expiresAt' ORDER BY stream_version DESC)
                  FILTER (WHERE data \\? 'expiresAt'))[1] AS expires_at
          FROM events WHERE stream_id ~ '^transaction-[0-9a-f-]{36}$' GROUP BY stream_id
      )
      INSERT INTO open_carts (transaction_id, expires_at)
      SELECT transaction_id, expires_at::timestamptz FROM c WHERE NOT closed AND expires_at IS NOT NULL;
    `);
}
