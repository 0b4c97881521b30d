import {
  handlersFor,
  ignore,
  timeSlotStream,
  type Projection,
  type RecordedEvent,
  type Step,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';

/**
 * The seats' use of the insights (docs/product.md#insights): per ticket holding a seat of a
 * room's plan, its slot, its seat (as the last TicketHeld or TicketSeatChanged names it), when it
 * was booked and whether it is checked in. A hold that ends, a cancelled ticket and one whose
 * confirmation lapsed leave it: they no longer take the seat (a no-show did take it until its
 * release, so it stays, as in the heatmap). The slots' days and minutes are the insights
 * projection's; the seats and their attributes the plan's. No personal data.
 */

const SLOT_PREFIX = `${timeSlotStream.kind}-`;

const slotOf = (event: RecordedEvent): string | null =>
  event.streamId.startsWith(SLOT_PREFIX) ? event.streamId.slice(SLOT_PREFIX.length) : null;

interface Batch {
  client: PoolClient;
  timeSlotId: string;
}

async function leave(b: Batch, ticketId: string): Promise<void> {
  await b.client.query(`DELETE FROM rm_insight_seat_tickets WHERE ticket_id = $1`, [ticketId]);
}
async function checkedIn(b: Batch, ticketId: string, value: boolean): Promise<void> {
  await b.client.query(`UPDATE rm_insight_seat_tickets SET checked_in = $2 WHERE ticket_id = $1`, [
    ticketId,
    value,
  ]);
}

const seats = handlersFor(timeSlotStream).with<Batch, Step>({
  TimeSlotCreated: ignore,
  TimeSlotUpdated: ignore,
  TimeSlotCapacityChanged: ignore,
  async TimeSlotDeleted(_e, b) {
    await b.client.query(`DELETE FROM rm_insight_seat_tickets WHERE time_slot_id = $1`, [
      b.timeSlotId,
    ]);
  },
  TimeSlotClosed: ignore,
  async TicketHeld(e, b) {
    if (!e.data.seat) return;
    await b.client.query(
      `INSERT INTO rm_insight_seat_tickets (ticket_id, time_slot_id, seat_id) VALUES ($1, $2, $3)
       ON CONFLICT (ticket_id) DO UPDATE SET time_slot_id = $2, seat_id = $3`,
      [e.data.ticketId, b.timeSlotId, e.data.seat.seatId],
    );
  },
  TicketHoldExtended: ignore,
  async TicketReleased(e, b) {
    await b.client.query(
      `DELETE FROM rm_insight_seat_tickets WHERE ticket_id = $1 AND booked_at IS NULL`,
      [e.data.ticketId],
    );
  },
  async TicketBooked(e, b) {
    await b.client.query(
      `UPDATE rm_insight_seat_tickets SET booked_at = $2 WHERE ticket_id = $1 AND booked_at IS NULL`,
      [e.data.ticketId, e.createdAt],
    );
  },
  TicketCancelled: (e, b) => leave(b, e.data.ticketId),
  TicketConfirmationLapsed: (e, b) => leave(b, e.data.ticketId),
  TicketCheckedIn: (e, b) => checkedIn(b, e.data.ticketId, true),
  TicketCheckInUndone: (e, b) => checkedIn(b, e.data.ticketId, false),
  async TicketSeatChanged(e, b) {
    // A booked ticket without a seat (staff's overbooking) given one at the desk counts from
    // then on as booked on it.
    await b.client.query(
      `INSERT INTO rm_insight_seat_tickets (ticket_id, time_slot_id, seat_id, booked_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (ticket_id) DO UPDATE SET seat_id = $3`,
      [e.data.ticketId, b.timeSlotId, e.data.seat.seatId, e.createdAt],
    );
  },
  TicketNoShowReleased: ignore,
  TicketConfirmed: ignore,
  WaitlistJoined: ignore,
  SeatOffered: ignore,
  SeatOfferLapsed: ignore,
  SeatOfferTaken: ignore,
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
});

async function applySeats(client: PoolClient, events: RecordedEvent[]): Promise<void> {
  const batch: Batch = { client, timeSlotId: '' };
  for (const event of events) {
    const timeSlotId = slotOf(event);
    if (!timeSlotId) continue;
    batch.timeSlotId = timeSlotId;
    await seats.handle(event, batch);
  }
}

export const insightSeatsProjection: Projection = {
  name: 'insight-seats',
  derivedOnly: true,
  tables: ['rm_insight_seat_tickets'],
  handles: seats.handles,
  apply: (client, event) => applySeats(client, [event]),
  applyBatch: applySeats,
};
