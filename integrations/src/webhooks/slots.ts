import { timeSlotStream } from '@rr/events';
import type { PoolClient } from '@rr/platform';

// The slots as the webhook reactor (reactor.ts) describes them, from its own fold of the log
// (webhook_slots, webhook_rooms).

export const SLOT_STREAM = `${timeSlotStream.kind}-`;

interface SlotRow {
  time_slot_id: string;
  room_id: string;
  room_name: string | null;
  date: string;
  start_time: string;
  end_time: string;
  capacity: number;
  booked: number;
}

/** A slot as payloads describe it, seats as the log has them after the event. */
export interface SlotPayload {
  timeSlotId: string;
  roomId: string;
  roomName: string | null;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
  seatsBooked: number;
  seatsFree: number;
}

const slotPayload = (s: SlotRow): SlotPayload => ({
  timeSlotId: s.time_slot_id,
  roomId: s.room_id,
  roomName: s.room_name,
  date: s.date,
  startTime: s.start_time,
  endTime: s.end_time,
  capacity: s.capacity,
  seatsBooked: s.booked,
  seatsFree: Math.max(0, s.capacity - s.booked),
});

export async function slotOf(client: PoolClient, timeSlotId: string): Promise<SlotPayload | null> {
  const r = await client.query<SlotRow>(
    `SELECT s.time_slot_id, s.room_id, r.name AS room_name, s.date, s.start_time, s.end_time,
            s.capacity, s.booked
       FROM webhook_slots s LEFT JOIN webhook_rooms r ON r.room_id = s.room_id
      WHERE s.time_slot_id = $1`,
    [timeSlotId],
  );
  return r.rows[0] ? slotPayload(r.rows[0]) : null;
}
