import {
  handlersFor,
  ignore,
  roomStream,
  timeSlotStream,
  transactionStream,
  type CartTicket,
  type RecordedEvent,
  type TimeSlotLifecycleEvent,
  appliedBy,
  type Projection,
  type Step,
} from '@rr/events';
import { FIRST_SITE_ID, type WebhookEventType } from '@rr/contracts';
import type { PoolClient } from '@rr/platform';
import { bookedOwnerBefore } from '../booked-owner.ts';
import { anyEndpointTakes, enqueue } from './enqueue.ts';
import {
  payloadSeat,
  seatOf,
  seatWalkedTo,
  ticketsKeepingTheirSeat,
  type PayloadSeat,
} from './seats.ts';
import { SLOT_STREAM, slotOf } from './slots.ts';

/**
 * The webhook subscriber: turns events of the log into deliveries in the webhook outbox
 * (`webhook_deliveries`), one per endpoint subscribed to the event's type. It runs like the mail
 * outbox reactor, on its own checkpoint, so its deliveries and its checkpoint move commit
 * together: nothing is missed or written twice across restarts and failovers (a replayed batch
 * writes the same delivery ids, `ON CONFLICT DO NOTHING`). It never sends: the delivery job
 * (sender.ts) does, off every request's and projection's path.
 *
 * The payloads describe what happened with ids, the room, the date, times and seat counts, and
 * nothing of the visitor: no name, address, phone, organisation, and neither the owner id (the
 * key of the visitor's own page) nor the booking number. To describe a slot it keeps its own
 * fold of the slots and rooms (`webhook_slots`, `webhook_rooms`) from the log, so it depends on
 * no read model's progress. An endpoint gets the events recorded from its creation on.
 */

const slotIdOf = (event: RecordedEvent) =>
  event.streamId.startsWith(SLOT_STREAM) ? event.streamId.slice(SLOT_STREAM.length) : null;

async function ticketEvent(
  client: PoolClient,
  event: RecordedEvent & { data: { ticketId: string } },
  type: WebhookEventType,
  booked: -1 | 0,
  /** What the payload says besides, looked up once an endpoint takes it; null: not told. */
  extra: () => Promise<Record<string, unknown> | null> = () => Promise.resolve({}),
): Promise<void> {
  const timeSlotId = slotIdOf(event);
  if (!timeSlotId) return;
  if (booked)
    await client.query(
      'UPDATE webhook_slots SET booked = GREATEST(booked - 1, 0) WHERE time_slot_id = $1',
      [timeSlotId],
    );
  if (!(await anyEndpointTakes(client, event, type))) return;
  const more = await extra();
  if (!more) return;
  const slot = await slotOf(client, timeSlotId);
  const { ticketId } = event.data;
  const seat = await seatOf(client, event.streamId, ticketId, event.streamVersion);
  await enqueue(
    client,
    event,
    type,
    { ticketId, ...slot, timeSlotId, seat, ...more },
    { roomIds: [slot?.roomId] },
  );
}

/**
 * `ticket.seat_changed`: a booked ticket moved to another seat of its slot (by the desk, the
 * visitor, a seat taken out of service or leaving the plan, a new choice of the slot's seats),
 * with the seat it left. A hold's move is not told: its booking's `booking.created` names the
 * seat it holds then. The reason stays out, as staff's words may name the visitor.
 */
const seatChanged = (client: PoolClient, event: RecordedEvent & { data: { ticketId: string } }) =>
  ticketEvent(client, event, 'ticket.seat_changed', 0, async () => {
    const { ticketId } = event.data;
    if ((await bookedOwnerBefore(client, event, ticketId)) === null) return null;
    // The ticket changed its seat (this event): its cart no longer names the seat it left.
    const before = event.streamVersion - 1;
    return { seatBefore: await seatWalkedTo(client, event.streamId, ticketId, before) };
  });

/** A seat given back without an event of its own (a rebooking's old ticket). */
async function seatGiven(client: PoolClient, event: RecordedEvent): Promise<void> {
  await client.query(
    'UPDATE webhook_slots SET booked = GREATEST(booked - 1, 0) WHERE time_slot_id = $1',
    [slotIdOf(event)],
  );
}

/**
 * `booking.moved`: the new ticket with its slot, and the ticket it replaced with the slot it left.
 * The old ticket's cancellation was appended by the same command: found by the command's
 * transaction id (the commit-order index), so the look-up reads that command's events only.
 */
async function bookingMoved(
  client: PoolClient,
  event: RecordedEvent & { data: { ticketId: string } },
): Promise<void> {
  const timeSlotId = slotIdOf(event);
  if (!timeSlotId || !(await anyEndpointTakes(client, event, 'booking.moved'))) return;
  const { ticketId } = event.data;
  const old = await client.query<{ ticket_id: string; stream_id: string; stream_version: string }>(
    `SELECT data->>'ticketId' AS ticket_id, stream_id, stream_version FROM events
      WHERE transaction_id = $1::text::xid8 AND event_type = 'TicketCancelled'
        AND data->>'movedTo' = $2`,
    [event.position.tx.toString(), ticketId],
  );
  const from = old.rows[0];
  const fromSlotId = from?.stream_id.startsWith(SLOT_STREAM)
    ? from.stream_id.slice(SLOT_STREAM.length)
    : null;
  const slot = await slotOf(client, timeSlotId);
  const fromSlot = fromSlotId ? await slotOf(client, fromSlotId) : null;
  await enqueue(
    client,
    event,
    'booking.moved',
    {
      ticketId,
      ...slot,
      timeSlotId,
      seat: await seatOf(client, event.streamId, ticketId, event.streamVersion),
      movedFrom: from
        ? {
            ticketId: from.ticket_id,
            ...fromSlot,
            seat: await seatOf(client, from.stream_id, from.ticket_id, Number(from.stream_version)),
          }
        : null,
    },
    // A move between sites is told to both.
    { roomIds: [slot?.roomId, fromSlot?.roomId] },
  );
}

type SlotDetails = Extract<TimeSlotLifecycleEvent, { type: 'TimeSlotCreated' }>['data'];

async function roomChanged(
  client: PoolClient,
  event: RecordedEvent,
  d: { roomId: string; siteId?: string | undefined; name: string; capacity: number },
  change: 'created' | 'updated',
): Promise<void> {
  // A room that moves to another site is told to the site it leaves as well.
  const before = await client.query<{ site_id: string }>(
    'SELECT site_id FROM webhook_rooms WHERE room_id = $1',
    [d.roomId],
  );
  await client.query(
    `INSERT INTO webhook_rooms (room_id, name, site_id) VALUES ($1, $2, $3)
     ON CONFLICT (room_id) DO UPDATE SET name = EXCLUDED.name, site_id = EXCLUDED.site_id`,
    [d.roomId, d.name, d.siteId ?? FIRST_SITE_ID],
  );
  await enqueue(
    client,
    event,
    'room.changed',
    { roomId: d.roomId, roomName: d.name, capacity: d.capacity, change },
    { roomIds: [d.roomId], siteIds: before.rows.map((r) => r.site_id) },
  );
}

async function roomNamed(
  client: PoolClient,
  event: RecordedEvent,
  roomId: string,
  change: 'deleted' | 'services' | 'seats',
): Promise<void> {
  const r = await client.query<{ name: string }>(
    'SELECT name FROM webhook_rooms WHERE room_id = $1',
    [roomId],
  );
  await enqueue(
    client,
    event,
    'room.changed',
    { roomId, roomName: r.rows[0]?.name ?? null, change },
    { roomIds: [roomId] },
  );
}

async function slotChanged(
  client: PoolClient,
  event: RecordedEvent,
  d: SlotDetails,
  type: 'timeslot.created' | 'timeslot.changed',
): Promise<void> {
  await client.query(
    `INSERT INTO webhook_slots (time_slot_id, room_id, date, start_time, end_time, capacity)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (time_slot_id) DO UPDATE SET room_id = EXCLUDED.room_id, date = EXCLUDED.date,
       start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time, capacity = EXCLUDED.capacity`,
    [d.timeSlotId, d.roomId, d.date, d.startTime, d.endTime, d.capacity],
  );
  await enqueue(
    client,
    event,
    type,
    { ...(await slotOf(client, d.timeSlotId)) },
    {
      roomIds: [d.roomId],
    },
  );
}

/** `booking.created`: the booked cart's tickets with their slots' rooms. */
async function bookingCreated(
  client: PoolClient,
  event: RecordedEvent,
  d: { transactionId: string; ticketIds: string[] },
): Promise<void> {
  if (!(await anyEndpointTakes(client, event, 'booking.created'))) return;
  const added = await client.query<{ data: CartTicket }>(
    `SELECT data FROM events WHERE stream_id = $1 AND event_type = 'TicketAddedToTransaction'
      ORDER BY stream_version`,
    [event.streamId],
  );
  const booked = new Set(d.ticketIds);
  const rooms = await client.query<{ room_id: string; name: string }>(
    'SELECT room_id, name FROM webhook_rooms WHERE room_id = ANY($1::uuid[])',
    [added.rows.map((r) => r.data.roomId)],
  );
  const names = new Map(rooms.rows.map((r) => [r.room_id, r.name]));
  // A ticket that never changed its seat holds the one its cart's add names (read above). For
  // the others, each one's `TicketBooked`, appended with the booking: found by the command's
  // transaction id (the commit-order index); their seat then was the hold's, or the one staff
  // moved the hold to.
  const kept = await ticketsKeepingTheirSeat(client, d.ticketIds);
  const changed = d.ticketIds.filter((id) => !kept.has(id));
  const seats = new Map<string, PayloadSeat | null>();
  if (changed.length) {
    const bookedAt = await client.query<{ ticket_id: string; stream_id: string; version: string }>(
      `SELECT data->>'ticketId' AS ticket_id, stream_id, stream_version AS version FROM events
        WHERE transaction_id = $1::text::xid8 AND event_type = 'TicketBooked'
          AND data->>'ticketId' = ANY($2::text[])`,
      [event.position.tx.toString(), changed],
    );
    for (const b of bookedAt.rows)
      seats.set(
        b.ticket_id,
        await seatWalkedTo(client, b.stream_id, b.ticket_id, Number(b.version)),
      );
  }
  const tickets = added.rows
    .map((r) => r.data)
    .filter((t) => booked.has(t.ticketId))
    .map((t) => ({
      ticketId: t.ticketId,
      timeSlotId: t.timeSlotId,
      roomId: t.roomId,
      roomName: names.get(t.roomId) ?? null,
      date: t.date,
      startTime: t.startTime,
      endTime: t.endTime,
      // The seat of the room's plan the ticket held when it was booked; null: none.
      seat: seats.get(t.ticketId) ?? payloadSeat(t.seat),
    }));
  // A booking with rooms of several sites goes whole to an endpoint of any of them.
  await enqueue(
    client,
    event,
    'booking.created',
    { bookingId: d.transactionId, seats: tickets.length, tickets },
    { roomIds: tickets.map((t) => t.roomId) },
  );
}

const webhooks = handlersFor(roomStream, timeSlotStream, transactionStream).with<PoolClient, Step>({
  RoomCreated: (e, client) => roomChanged(client, e, e.data, 'created'),
  RoomUpdated: (e, client) => roomChanged(client, e, e.data, 'updated'),
  RoomDeleted: (e, client) => roomNamed(client, e, e.data.roomId, 'deleted'),
  RoomImageSet: ignore,
  RoomImageAltChanged: ignore,
  RoomImageRemoved: ignore,
  RoomServicesChanged: (e, client) => roomNamed(client, e, e.data.roomId, 'services'),
  RoomSeatsSet: (e, client) => roomNamed(client, e, e.data.roomId, 'seats'),
  SeatTakenOutOfService: (e, client) => roomNamed(client, e, e.data.roomId, 'seats'),
  SeatBackInService: (e, client) => roomNamed(client, e, e.data.roomId, 'seats'),
  // As the room's image: no subscriber acts on a picture.
  RoomSeatPlanImageSet: ignore,
  RoomSeatPlanImageRemoved: ignore,
  TimeSlotCreated: (e, client) => slotChanged(client, e, e.data, 'timeslot.created'),
  TimeSlotUpdated: (e, client) => slotChanged(client, e, e.data, 'timeslot.changed'),
  async TimeSlotCapacityChanged(e, client) {
    const d = e.data;
    await client.query('UPDATE webhook_slots SET capacity = $2 WHERE time_slot_id = $1', [
      d.timeSlotId,
      d.capacity,
    ]);
    const slot = await slotOf(client, d.timeSlotId);
    await enqueue(
      client,
      e,
      'timeslot.changed',
      { ...slot, timeSlotId: d.timeSlotId },
      { roomIds: [slot?.roomId] },
    );
  },
  // The seats a slot offers are no field of the webhooks' slot.
  TimeSlotSeatsChosen: ignore,
  async TimeSlotDeleted(e, client) {
    const slot = await slotOf(client, e.data.timeSlotId);
    await enqueue(
      client,
      e,
      'timeslot.deleted',
      { ...slot, ...e.data },
      { roomIds: [slot?.roomId] },
    );
  },
  TimeSlotClosed: ignore,
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  TicketReleased: ignore,
  async TicketBooked(e, client) {
    const timeSlotId = slotIdOf(e);
    if (timeSlotId)
      await client.query('UPDATE webhook_slots SET booked = booked + 1 WHERE time_slot_id = $1', [
        timeSlotId,
      ]);
    // Only a rebooking's new ticket carries its booking number (the others are booked with
    // their cart): the booking moved here.
    if (e.data.bookingNumber) await bookingMoved(client, e);
  },
  TicketCancelled: (e, client) =>
    // A rebooking's old ticket is told as part of the move, when the new seat is counted.
    e.data.movedTo ? seatGiven(client, e) : ticketEvent(client, e, 'booking.cancelled', -1),
  TicketCheckedIn: (e, client) =>
    ticketEvent(client, e, 'ticket.checked_in', 0, () =>
      Promise.resolve({ checkedInAt: e.data.checkedInAt }),
    ),
  TicketCheckInUndone: ignore,
  TicketSeatChanged: (e, client) => seatChanged(client, e),
  TicketNoShowReleased: (e, client) => ticketEvent(client, e, 'ticket.no_show', -1),
  TicketConfirmed: ignore,
  // A booking not confirmed in time ends as a cancellation does (its seat is free again),
  // marked so: docs/product.md#confirmed-addresses.
  TicketConfirmationLapsed: (e, client) =>
    ticketEvent(client, e, 'booking.cancelled', -1, () => Promise.resolve({ unconfirmed: true })),
  WaitlistJoined: ignore,
  async SeatOffered(e, client) {
    // The entry and offer ids stay out: the offer's link is made of them.
    const slot = await slotOf(client, e.data.timeSlotId);
    await enqueue(
      client,
      e,
      'waitlist.offered',
      { ...slot, timeSlotId: e.data.timeSlotId, offerExpiresAt: e.data.expiresAt },
      { roomIds: [slot?.roomId] },
    );
  },
  SeatOfferLapsed: ignore,
  SeatOfferTaken: ignore,
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
  TransactionStarted: ignore,
  TicketAddedToTransaction: ignore,
  TicketRemovedFromTransaction: ignore,
  TransactionTouched: ignore,
  TransactionBooked: (e, client) => bookingCreated(client, e, e.data),
  TransactionRemoved: ignore,
  TransactionExpired: ignore,
  PersonalDataErased: ignore,
  OwnerDataChanged: ignore,
});

export const webhookReactor: Projection = {
  name: 'webhook-outbox',
  tables: [],
  quietCheckpoint: true,
  ...appliedBy(webhooks),
};
