import type { RecordedEvent, TimeSlotLifecycleEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

type Data<T extends TimeSlotLifecycleEvent['type']> = Extract<
  TimeSlotLifecycleEvent,
  { type: T }
>['data'];

/** Time slots with their capacity and ticket count (ticket events arrive with the booking slice). */
export const timeSlotsProjection: Projection = {
  name: 'timeslots',
  tables: ['rm_time_slots'],
  handles: new Set([
    'TicketHeld',
    'TicketReleased',
    'TicketCancelled',
    'TimeSlotCreated',
    'TimeSlotUpdated',
    'TimeSlotCapacityChanged',
    'TimeSlotDeleted',
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
      case 'TimeSlotDeleted':
        await client.query('DELETE FROM rm_time_slots WHERE id = $1', [
          (event.data as Data<'TimeSlotDeleted'>).timeSlotId,
        ]);
        return;
      // Held (NEW) and booked tickets take a seat; a released hold or a cancellation frees it.
      case 'TicketHeld':
        await client.query(
          'UPDATE rm_time_slots SET ticket_count = ticket_count + 1 WHERE id = $1',
          [(event.data as { timeSlotId: string }).timeSlotId],
        );
        return;
      case 'TicketReleased':
      case 'TicketCancelled':
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
};
