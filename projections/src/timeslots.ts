import type { RecordedEvent, TimeSlotLifecycleEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';
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
];

/** The slot an event is about: lifecycle and holds name it in the data, releases by their stream. */
const slotOf = (event: RecordedEvent): string =>
  event.type === 'TicketReleased' ||
  event.type === 'TicketCancelled' ||
  event.type === 'TicketNoShowReleased' ||
  event.type === 'TicketConfirmationLapsed'
    ? event.streamId.slice('timeslot-'.length)
    : (event.data as { timeSlotId: string }).timeSlotId;

/** Folds a run of slot events (no RoomDeleted among them) and writes it with two statements. */
async function applySlotEvents(client: PoolClient, events: RecordedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const slots = new RowCache<SlotRow>('rm_time_slots', slotColumns);
  await slots.load(client, events.map(slotOf));
  for (const event of events) {
    const v = event.streamVersion;
    switch (event.type) {
      case 'TimeSlotCreated': {
        const d = event.data as Data<'TimeSlotCreated'>;
        slots.insertIfAbsent({
          id: d.timeSlotId,
          room_id: d.roomId,
          date: d.date,
          start_time: d.startTime,
          end_time: d.endTime,
          capacity: d.capacity,
          ticket_count: 0,
          version: v,
          closed_reason: null,
        });
        break;
      }
      case 'TimeSlotUpdated': {
        const d = event.data as Data<'TimeSlotUpdated'>;
        slots.update(d.timeSlotId, {
          start_time: d.startTime,
          end_time: d.endTime,
          capacity: d.capacity,
          version: v,
        });
        break;
      }
      case 'TimeSlotCapacityChanged': {
        const d = event.data as Data<'TimeSlotCapacityChanged'>;
        slots.update(d.timeSlotId, { capacity: d.capacity, version: v });
        break;
      }
      case 'TimeSlotDeleted':
        slots.remove(slotOf(event));
        break;
      case 'TimeSlotClosed': {
        const d = event.data as Data<'TimeSlotClosed'>;
        slots.update(d.timeSlotId, { closed_reason: d.reason, version: v });
        break;
      }
      case 'TicketHeld':
      case 'SeatOffered':
        slots.update(slotOf(event), (row) => ({ ticket_count: row.ticket_count + 1 }));
        break;
      case 'SeatOfferLapsed':
      case 'SeatOfferTaken':
        slots.update(slotOf(event), (row) => ({ ticket_count: row.ticket_count - 1 }));
        break;
      case 'TicketReleased':
      case 'TicketCancelled':
      case 'TicketNoShowReleased':
      case 'TicketConfirmationLapsed':
        slots.update(slotOf(event), (row) => ({ ticket_count: row.ticket_count - 1 }));
        break;
    }
  }
  await slots.flush(client);
}

type Data<T extends TimeSlotLifecycleEvent['type']> = Extract<
  TimeSlotLifecycleEvent,
  { type: T }
>['data'];

/** Time slots with their capacity and ticket count (ticket events arrive with the booking slice). */
export const timeSlotsProjection: Projection = {
  name: 'timeslots',
  derivedOnly: true,
  tables: ['rm_time_slots'],
  handles: new Set([
    'TicketHeld',
    'TicketReleased',
    'TicketCancelled',
    // A waitlist offer holds a seat like a cart's hold until taken or lapsed.
    'SeatOffered',
    'SeatOfferLapsed',
    'SeatOfferTaken',
    'TicketNoShowReleased',
    // A ticket not confirmed in time frees its seat (docs/product.md#confirmed-addresses).
    'TicketConfirmationLapsed',
    'TimeSlotCreated',
    'TimeSlotUpdated',
    'TimeSlotCapacityChanged',
    'TimeSlotDeleted',
    'TimeSlotClosed',
    'RoomDeleted',
  ]),
  async apply(client: PoolClient, event: RecordedEvent): Promise<void> {
    const v = event.streamVersion;
    switch (event.type) {
      case 'TimeSlotCreated': {
        const d = event.data as Data<'TimeSlotCreated'>;
        await client.query(
          `INSERT INTO rm_time_slots (id, room_id, date, start_time, end_time, capacity, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [d.timeSlotId, d.roomId, d.date, d.startTime, d.endTime, d.capacity, v],
        );
        return;
      }
      case 'TimeSlotUpdated': {
        const d = event.data as Data<'TimeSlotUpdated'>;
        await client.query(
          'UPDATE rm_time_slots SET start_time = $2, end_time = $3, capacity = $4, version = $5 WHERE id = $1',
          [d.timeSlotId, d.startTime, d.endTime, d.capacity, v],
        );
        return;
      }
      case 'TimeSlotCapacityChanged': {
        const d = event.data as Data<'TimeSlotCapacityChanged'>;
        await client.query('UPDATE rm_time_slots SET capacity = $2, version = $3 WHERE id = $1', [
          d.timeSlotId,
          d.capacity,
          v,
        ]);
        return;
      }
      case 'TimeSlotClosed': {
        const d = event.data as Data<'TimeSlotClosed'>;
        await client.query(
          'UPDATE rm_time_slots SET closed_reason = $2, version = $3 WHERE id = $1',
          [d.timeSlotId, d.reason, v],
        );
        return;
      }
      case 'TimeSlotDeleted':
        await client.query('DELETE FROM rm_time_slots WHERE id = $1', [
          (event.data as Data<'TimeSlotDeleted'>).timeSlotId,
        ]);
        return;
      // Held (NEW) and booked tickets take a seat; a released hold, a cancellation or a no-show
      // release frees it.
      case 'TicketHeld':
      case 'SeatOffered':
        await client.query(
          'UPDATE rm_time_slots SET ticket_count = ticket_count + 1 WHERE id = $1',
          [(event.data as { timeSlotId: string }).timeSlotId],
        );
        return;
      case 'SeatOfferLapsed':
      case 'SeatOfferTaken':
        await client.query(
          'UPDATE rm_time_slots SET ticket_count = ticket_count - 1 WHERE id = $1',
          [(event.data as { timeSlotId: string }).timeSlotId],
        );
        return;
      case 'TicketReleased':
      case 'TicketCancelled':
      case 'TicketNoShowReleased':
      case 'TicketConfirmationLapsed':
        await client.query(
          'UPDATE rm_time_slots SET ticket_count = ticket_count - 1 WHERE id = $1',
          [event.streamId.slice('timeslot-'.length)],
        );
        return;
      case 'RoomDeleted':
        await client.query('DELETE FROM rm_time_slots WHERE room_id = $1', [
          (event.data as { roomId: string }).roomId,
        ]);
        return;
    }
  },
  /** The same changes as `apply`: runs of slot events folded in memory; RoomDeleted on its own. */
  async applyBatch(client: PoolClient, events: RecordedEvent[]): Promise<void> {
    let start = 0;
    for (let i = 0; i <= events.length; i++) {
      if (i < events.length && events[i]!.type !== 'RoomDeleted') continue;
      await applySlotEvents(client, events.slice(start, i));
      if (i < events.length) await this.apply(client, events[i]!);
      start = i + 1;
    }
  },
};
