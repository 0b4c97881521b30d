import {
  handlersFor,
  ignore,
  timeSlotStream,
  type Projection,
  type RecordedEvent,
  type Step,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';

const BOOKED = `UPDATE rm_waitlist SET status = 'booked' WHERE ticket_id = ANY($1::uuid[])`;

/** A batch being applied: its transaction, and the bookings gathered since the last other event. */
interface Batch {
  client: PoolClient;
  booked: string[];
}

const waitlist = handlersFor(timeSlotStream).with<Batch, Step>({
  TimeSlotCreated: ignore,
  TimeSlotUpdated: ignore,
  TimeSlotCapacityChanged: ignore,
  TimeSlotSeatsChosen: ignore,
  TimeSlotDeleted: ignore,
  TimeSlotClosed: ignore,
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  TicketReleased: ignore,
  // The ticket of a taken offer was booked.
  TicketBooked(e, b) {
    b.booked.push(e.data.ticketId);
  },
  TicketCancelled: ignore,
  TicketCheckedIn: ignore,
  TicketCheckInUndone: ignore,
  TicketSeatChanged: ignore,
  TicketNoShowReleased: ignore,
  TicketConfirmed: ignore,
  TicketConfirmationLapsed: ignore,
  async WaitlistJoined(e, { client }) {
    await client.query(
      `INSERT INTO rm_waitlist (entry_id, time_slot_id, line_position, language, status, joined_at)
       VALUES ($1, $2, $3, $4, 'waiting', $5) ON CONFLICT (entry_id) DO NOTHING`,
      [e.data.entryId, e.data.timeSlotId, e.streamVersion, e.data.language, e.data.joinedAt],
    );
  },
  async SeatOffered(e, { client }) {
    await client.query(
      `UPDATE rm_waitlist SET status = 'offered', offer_expires_at = $2, passed_over = false,
              offer_seat_id = $3
        WHERE entry_id = $1`,
      [e.data.entryId, e.data.expiresAt, e.data.seat?.seatId ?? null],
    );
  },
  async SeatOfferLapsed(e, { client }) {
    await client.query(`UPDATE rm_waitlist SET status = 'lapsed' WHERE entry_id = $1`, [
      e.data.entryId,
    ]);
  },
  async SeatOfferTaken(e, { client }) {
    await client.query(
      `UPDATE rm_waitlist SET status = 'taken', ticket_id = $2 WHERE entry_id = $1`,
      [e.data.entryId, e.data.ticketId],
    );
  },
  async WaitlistEntryErased(e, { client }) {
    // The time the log recorded: a rebuild writes the same.
    await client.query(`UPDATE rm_waitlist SET erased_at = $2 WHERE entry_id = $1`, [
      e.data.entryId,
      e.createdAt,
    ]);
  },
  async WaitlistLeft(e, { client }) {
    await client.query(`UPDATE rm_waitlist SET status = 'left' WHERE entry_id = $1`, [
      e.data.entryId,
    ]);
  },
  async WaitlistEntryRemovedByStaff(e, { client }) {
    await client.query(`UPDATE rm_waitlist SET status = 'removed' WHERE entry_id = $1`, [
      e.data.entryId,
    ]);
  },
  async WaitlistEntryPassedOver(e, { client }) {
    await client.query(`UPDATE rm_waitlist SET passed_over = true WHERE entry_id = $1`, [
      e.data.entryId,
    ]);
  },
  async WaitlistEntryBackInLine(e, { client }) {
    await client.query(`UPDATE rm_waitlist SET passed_over = false WHERE entry_id = $1`, [
      e.data.entryId,
    ]);
  },
});

/**
 * Each slot's waitlist for staff's slot page, in line order (the slot stream's
 * version of the join), without personal data: waiting, offered, lapsed, taken (the seat went
 * into a cart), booked (that cart's ticket was booked), left (by the visitor) and removed (by
 * staff); and whether a waiting entry was passed over (the limits bar it: it claims no seat).
 */
export const waitlistProjection: Projection = {
  name: 'waitlist',
  derivedOnly: true,
  tables: ['rm_waitlist'],
  handles: waitlist.handles,
  apply: (client, event) => applyWaitlist(client, [event]),
  applyBatch: applyWaitlist,
};

/**
 * Bookings are most of the events it handles and touch only entries whose offer was taken: a run
 * of bookings between two waitlist events is one UPDATE (each sets the same status on its own
 * ticket's entries, so their order among themselves does not matter); the waitlist's own events
 * are applied one by one in between.
 */
async function applyWaitlist(client: PoolClient, events: RecordedEvent[]): Promise<void> {
  const batch: Batch = { client, booked: [] };
  const flush = async () => {
    if (batch.booked.length) await client.query(BOOKED, [batch.booked.splice(0)]);
  };
  for (const event of events) {
    if (event.type !== 'TicketBooked') await flush();
    await waitlist.handle(event, batch);
  }
  await flush();
}
