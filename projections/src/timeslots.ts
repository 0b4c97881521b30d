import {
  handlersFor,
  ignore,
  roomStream,
  timeSlotStream,
  type RecordedEvent,
  appliedBy,
  type Projection,
  type Step,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';
import { RowCache } from './row-cache.ts';

interface SlotRow extends Record<string, unknown> {
  id: string;
  room_id: string;
  date: string;
  start_time: string;
  end_time: string;
  capacity: number;
  ticket_count: number;
  version: number | string;
  closed_reason: string | null;
  closed_reason_en: string | null;
  seat_ids: string | null;
}

const slotColumns = [
  { name: 'id', type: 'uuid' },
  { name: 'room_id', type: 'uuid' },
  { name: 'date', type: 'date' },
  { name: 'start_time', type: 'text' },
  { name: 'end_time', type: 'text' },
  { name: 'capacity', type: 'integer' },
  { name: 'ticket_count', type: 'integer' },
  { name: 'version', type: 'bigint' },
  { name: 'closed_reason', type: 'text' },
  { name: 'closed_reason_en', type: 'text' },
  { name: 'seat_ids', type: 'text' },
];

/** The seats a slot offers as the column keeps them: their ids separated by commas; null: all. */
const seatIdsColumn = (seatIds: readonly string[] | null) => seatIds?.join(',') ?? null;

const SLOT_STREAM = `${timeSlotStream.kind}-`;

/** The slot an event of a slot's stream is about: its stream's. */
const slotOf = (event: RecordedEvent): string => event.streamId.slice(SLOT_STREAM.length);

const takeSeat = 'UPDATE rm_time_slots SET ticket_count = ticket_count + 1 WHERE id = $1';
const freeSeat = 'UPDATE rm_time_slots SET ticket_count = ticket_count - 1 WHERE id = $1';

/**
 * Time slots with their capacity and ticket count. Held (NEW) and booked tickets take a seat, and
 * so does a waitlist offer, like a cart's hold, until taken or lapsed; a released hold, a
 * cancellation, a no-show release or a ticket not confirmed in time
 * (docs/product.md#confirmed-addresses) frees it.
 */
const slots = handlersFor(timeSlotStream, roomStream).with<PoolClient, Step>({
  async TimeSlotCreated(e, client) {
    const d = e.data;
    await client.query(
      `INSERT INTO rm_time_slots (id, room_id, date, start_time, end_time, capacity, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
      [d.timeSlotId, d.roomId, d.date, d.startTime, d.endTime, d.capacity, e.streamVersion],
    );
  },
  async TimeSlotUpdated(e, client) {
    const d = e.data;
    await client.query(
      'UPDATE rm_time_slots SET start_time = $2, end_time = $3, capacity = $4, version = $5 WHERE id = $1',
      [d.timeSlotId, d.startTime, d.endTime, d.capacity, e.streamVersion],
    );
  },
  async TimeSlotCapacityChanged(e, client) {
    await client.query('UPDATE rm_time_slots SET capacity = $2, version = $3 WHERE id = $1', [
      e.data.timeSlotId,
      e.data.capacity,
      e.streamVersion,
    ]);
  },
  async TimeSlotSeatsChosen(e, client) {
    await client.query('UPDATE rm_time_slots SET seat_ids = $2, version = $3 WHERE id = $1', [
      e.data.timeSlotId,
      seatIdsColumn(e.data.seatIds),
      e.streamVersion,
    ]);
  },
  async TimeSlotDeleted(e, client) {
    await client.query('DELETE FROM rm_time_slots WHERE id = $1', [e.data.timeSlotId]);
  },
  async TimeSlotClosed(e, client) {
    await client.query(
      'UPDATE rm_time_slots SET closed_reason = $2, closed_reason_en = $3, version = $4 WHERE id = $1',
      [e.data.timeSlotId, e.data.reason, e.data.reasonEn ?? null, e.streamVersion],
    );
  },
  TicketHeld: async (e, client) => void (await client.query(takeSeat, [slotOf(e)])),
  TicketHoldExtended: ignore,
  TicketReleased: async (e, client) => void (await client.query(freeSeat, [slotOf(e)])),
  TicketBooked: ignore,
  TicketCancelled: async (e, client) => void (await client.query(freeSeat, [slotOf(e)])),
  TicketCheckedIn: ignore,
  TicketCheckInUndone: ignore,
  TicketSeatChanged: ignore,
  TicketNoShowReleased: async (e, client) => void (await client.query(freeSeat, [slotOf(e)])),
  TicketConfirmed: ignore,
  TicketConfirmationLapsed: async (e, client) => void (await client.query(freeSeat, [slotOf(e)])),
  WaitlistJoined: ignore,
  SeatOffered: async (e, client) => void (await client.query(takeSeat, [slotOf(e)])),
  SeatOfferLapsed: async (e, client) => void (await client.query(freeSeat, [slotOf(e)])),
  SeatOfferTaken: async (e, client) => void (await client.query(freeSeat, [slotOf(e)])),
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
  RoomCreated: ignore,
  RoomUpdated: ignore,
  async RoomDeleted(e, client) {
    await client.query('DELETE FROM rm_time_slots WHERE room_id = $1', [e.data.roomId]);
  },
  RoomImageSet: ignore,
  RoomImageAltChanged: ignore,
  RoomImageRemoved: ignore,
  RoomServicesChanged: ignore,
  RoomSeatsSet: ignore,
  SeatTakenOutOfService: ignore,
  SeatBackInService: ignore,
  RoomSeatPlanImageSet: ignore,
  RoomSeatPlanImageRemoved: ignore,
});

type SlotCache = RowCache<SlotRow>;
const seatTaken = (slots: SlotCache, e: RecordedEvent) =>
  slots.update(slotOf(e), (row) => ({ ticket_count: row.ticket_count + 1 }));
const seatFreed = (slots: SlotCache, e: RecordedEvent) =>
  slots.update(slotOf(e), (row) => ({ ticket_count: row.ticket_count - 1 }));

/** The same changes as `slots`, folded in memory for a run of slot events. */
const slotFold = handlersFor(timeSlotStream, roomStream).with<SlotCache>({
  TimeSlotCreated(e, slots) {
    const d = e.data;
    slots.insertIfAbsent({
      id: d.timeSlotId,
      room_id: d.roomId,
      date: d.date,
      start_time: d.startTime,
      end_time: d.endTime,
      capacity: d.capacity,
      ticket_count: 0,
      version: e.streamVersion,
      closed_reason: null,
      closed_reason_en: null,
      seat_ids: null,
    });
  },
  TimeSlotUpdated(e, slots) {
    const d = e.data;
    slots.update(d.timeSlotId, {
      start_time: d.startTime,
      end_time: d.endTime,
      capacity: d.capacity,
      version: e.streamVersion,
    });
  },
  TimeSlotCapacityChanged(e, slots) {
    slots.update(e.data.timeSlotId, { capacity: e.data.capacity, version: e.streamVersion });
  },
  TimeSlotSeatsChosen(e, slots) {
    slots.update(e.data.timeSlotId, {
      seat_ids: seatIdsColumn(e.data.seatIds),
      version: e.streamVersion,
    });
  },
  TimeSlotDeleted(e, slots) {
    slots.remove(e.data.timeSlotId);
  },
  TimeSlotClosed(e, slots) {
    slots.update(e.data.timeSlotId, {
      closed_reason: e.data.reason,
      closed_reason_en: e.data.reasonEn ?? null,
      version: e.streamVersion,
    });
  },
  TicketHeld: (e, slots) => seatTaken(slots, e),
  TicketHoldExtended: ignore,
  TicketReleased: (e, slots) => seatFreed(slots, e),
  TicketBooked: ignore,
  TicketCancelled: (e, slots) => seatFreed(slots, e),
  TicketCheckedIn: ignore,
  TicketCheckInUndone: ignore,
  TicketSeatChanged: ignore,
  TicketNoShowReleased: (e, slots) => seatFreed(slots, e),
  TicketConfirmed: ignore,
  TicketConfirmationLapsed: (e, slots) => seatFreed(slots, e),
  WaitlistJoined: ignore,
  SeatOffered: (e, slots) => seatTaken(slots, e),
  SeatOfferLapsed: (e, slots) => seatFreed(slots, e),
  SeatOfferTaken: (e, slots) => seatFreed(slots, e),
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
  RoomCreated: ignore,
  RoomUpdated: ignore,
  // Never in a run: applied on its own, between runs (applyBatch).
  RoomDeleted: ignore,
  RoomImageSet: ignore,
  RoomImageAltChanged: ignore,
  RoomImageRemoved: ignore,
  RoomServicesChanged: ignore,
  RoomSeatsSet: ignore,
  SeatTakenOutOfService: ignore,
  SeatBackInService: ignore,
  RoomSeatPlanImageSet: ignore,
  RoomSeatPlanImageRemoved: ignore,
});

/** The types a run folds: the projection's own but RoomDeleted (a unit test keeps them so). */
export const slotRunTypes = slotFold.handles;

/** Folds a run of slot events (no RoomDeleted among them) and writes it with two statements. */
async function applySlotEvents(client: PoolClient, events: RecordedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const cache = new RowCache<SlotRow>('rm_time_slots', slotColumns);
  await cache.load(client, events.map(slotOf));
  for (const event of events) slotFold.handle(event, cache);
  await cache.flush(client);
}

export const timeSlotsProjection: Projection = {
  name: 'timeslots',
  derivedOnly: true,
  tables: ['rm_time_slots'],
  ...appliedBy(slots),
  /** The same changes as `apply`: runs of slot events folded in memory; RoomDeleted on its own. */
  async applyBatch(client: PoolClient, events: RecordedEvent[]): Promise<void> {
    let start = 0;
    for (let i = 0; i <= events.length; i++) {
      if (i < events.length && events[i]!.type !== 'RoomDeleted') continue;
      await applySlotEvents(client, events.slice(start, i));
      if (i < events.length) await slots.handle(events[i]!, client);
      start = i + 1;
    }
  },
};
