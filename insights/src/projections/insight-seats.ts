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
 *
 * A batch is folded per ticket in memory (a ticket's events are on its slot's stream, in order)
 * and written with a few set-based statements, so the tickets of rooms without a plan cost no
 * statement of their own.
 */

const SLOT_PREFIX = `${timeSlotStream.kind}-`;

const slotOf = (event: RecordedEvent): string | null =>
  event.streamId.startsWith(SLOT_PREFIX) ? event.streamId.slice(SLOT_PREFIX.length) : null;

/** What a batch did to one ticket. */
interface TicketFold {
  timeSlotId: string;
  /** Held with a seat in this batch: its row is wholly known here. */
  fresh: boolean;
  gone: boolean;
  seatId?: string | undefined;
  bookedAt?: Date | undefined;
  checkedIn?: boolean | undefined;
  /** The first move to a seat in this batch (a ticket without a seat gets its row then). */
  seatChangedAt?: Date | undefined;
  /** The check-in as it stands after that move. */
  checkedInSinceChange?: boolean | undefined;
}

interface Batch {
  client: PoolClient;
  timeSlotId: string;
  tickets: Map<string, TicketFold>;
}

/** A ticket's id as the database compares it (an id may come in capitals). */
const keyOf = (ticketId: string) => ticketId.toLowerCase();

function foldOf(b: Batch, ticketId: string): TicketFold {
  const key = keyOf(ticketId);
  let fold = b.tickets.get(key);
  if (!fold) b.tickets.set(key, (fold = { timeSlotId: b.timeSlotId, fresh: false, gone: false }));
  return fold;
}

const leave = (b: Batch, ticketId: string) => {
  foldOf(b, ticketId).gone = true;
};
const checkIn = (b: Batch, ticketId: string, value: boolean) => {
  const fold = foldOf(b, ticketId);
  fold.checkedIn = value;
  if (fold.seatChangedAt) fold.checkedInSinceChange = value;
};

/** Writes what the batch folded: the rows gone, the rows new, the changes to rows before it. */
async function flush(b: Batch): Promise<void> {
  const all = [...b.tickets.entries()];
  b.tickets.clear();
  const gone = all.filter(([, f]) => f.gone).map(([id]) => id);
  const fresh = all.filter(([, f]) => f.fresh && !f.gone);
  const changed = all.filter(([, f]) => !f.fresh && !f.gone);
  const moved = changed.filter(([, f]) => f.seatChangedAt);
  if (gone.length > 0)
    await b.client.query(`DELETE FROM rm_insight_seat_tickets WHERE ticket_id = ANY($1::uuid[])`, [
      gone,
    ]);
  if (fresh.length > 0)
    await b.client.query(
      `INSERT INTO rm_insight_seat_tickets (ticket_id, time_slot_id, seat_id, booked_at, checked_in)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::boolean[])
       ON CONFLICT (ticket_id) DO UPDATE SET time_slot_id = excluded.time_slot_id,
         seat_id = excluded.seat_id, booked_at = excluded.booked_at, checked_in = excluded.checked_in`,
      [
        fresh.map(([id]) => id),
        fresh.map(([, f]) => f.timeSlotId),
        fresh.map(([, f]) => f.seatId),
        fresh.map(([, f]) => f.bookedAt ?? null),
        fresh.map(([, f]) => f.checkedIn ?? false),
      ],
    );
  if (changed.length > 0)
    await b.client.query(
      `UPDATE rm_insight_seat_tickets t SET seat_id = coalesce(u.seat_id, t.seat_id),
              booked_at = coalesce(t.booked_at, u.booked_at),
              checked_in = coalesce(u.checked_in, t.checked_in)
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::boolean[])
           AS u(ticket_id, seat_id, booked_at, checked_in)
        WHERE t.ticket_id = u.ticket_id`,
      [
        changed.map(([id]) => id),
        changed.map(([, f]) => f.seatId ?? null),
        changed.map(([, f]) => f.bookedAt ?? null),
        changed.map(([, f]) => f.checkedIn ?? null),
      ],
    );
  // A booked ticket without a seat (staff's overbooking) given one at the desk counts from then
  // on as booked on it.
  if (moved.length > 0)
    await b.client.query(
      `INSERT INTO rm_insight_seat_tickets (ticket_id, time_slot_id, seat_id, booked_at, checked_in)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::boolean[])
       ON CONFLICT (ticket_id) DO NOTHING`,
      [
        moved.map(([id]) => id),
        moved.map(([, f]) => f.timeSlotId),
        moved.map(([, f]) => f.seatId),
        moved.map(([, f]) => f.seatChangedAt),
        moved.map(([, f]) => f.checkedInSinceChange ?? false),
      ],
    );
}

const seats = handlersFor(timeSlotStream).with<Batch, Step>({
  TimeSlotCreated: ignore,
  TimeSlotUpdated: ignore,
  TimeSlotCapacityChanged: ignore,
  async TimeSlotDeleted(_e, b) {
    await flush(b);
    await b.client.query(`DELETE FROM rm_insight_seat_tickets WHERE time_slot_id = $1`, [
      b.timeSlotId,
    ]);
  },
  TimeSlotClosed: ignore,
  // The seats a slot offers are read from the slot's row when asked; the tickets it moves come
  // as their own TicketSeatChanged.
  TimeSlotSeatsChosen: ignore,
  TicketHeld(e, b) {
    if (!e.data.seat) return;
    b.tickets.set(keyOf(e.data.ticketId), {
      timeSlotId: b.timeSlotId,
      fresh: true,
      gone: false,
      seatId: e.data.seat.seatId,
    });
  },
  TicketHoldExtended: ignore,
  // Only a hold ends so: a booked ticket leaves by its cancellation.
  TicketReleased: (e, b) => leave(b, e.data.ticketId),
  TicketBooked(e, b) {
    const fold = foldOf(b, e.data.ticketId);
    fold.bookedAt ??= e.createdAt;
  },
  TicketCancelled: (e, b) => leave(b, e.data.ticketId),
  TicketConfirmationLapsed: (e, b) => leave(b, e.data.ticketId),
  TicketCheckedIn: (e, b) => checkIn(b, e.data.ticketId, true),
  TicketCheckInUndone: (e, b) => checkIn(b, e.data.ticketId, false),
  TicketSeatChanged(e, b) {
    const fold = foldOf(b, e.data.ticketId);
    fold.seatId = e.data.seat.seatId;
    if (!fold.fresh && !fold.seatChangedAt) {
      fold.seatChangedAt = e.createdAt;
      fold.checkedInSinceChange = undefined;
    }
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
  const batch: Batch = { client, timeSlotId: '', tickets: new Map() };
  for (const event of events) {
    const timeSlotId = slotOf(event);
    if (!timeSlotId) continue;
    batch.timeSlotId = timeSlotId;
    await seats.handle(event, batch);
  }
  await flush(batch);
}

export const insightSeatsProjection: Projection = {
  name: 'insight-seats',
  derivedOnly: true,
  tables: ['rm_insight_seat_tickets'],
  handles: seats.handles,
  apply: (client, event) => applySeats(client, [event]),
  applyBatch: applySeats,
};
