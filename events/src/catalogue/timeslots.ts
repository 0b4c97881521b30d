import { z } from 'zod';
import { defineEvent } from './define.ts';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const time = z.string().regex(/^\d{2}:\d{2}$/);

const SlotDetails = z.object({
  timeSlotId: z.uuid(),
  roomId: z.uuid(),
  date,
  startTime: time,
  endTime: time,
  capacity: z.number().int().min(0),
});

export const TimeSlotCreated = defineEvent('TimeSlotCreated', SlotDetails);
export const TimeSlotUpdated = defineEvent('TimeSlotUpdated', SlotDetails);
export const TimeSlotCapacityChanged = defineEvent(
  'TimeSlotCapacityChanged',
  z.object({ timeSlotId: z.uuid(), roomId: z.uuid(), capacity: z.number().int().min(0) }),
);
export const TimeSlotDeleted = defineEvent(
  'TimeSlotDeleted',
  z.object({ timeSlotId: z.uuid(), roomId: z.uuid() }),
);

/**
 * Staff closed the slot (a closure of rooms and days, e.g. for a holiday added later): it takes no
 * more carts and the waitlist offers no more seats; its tickets stay until cancelled. The reason
 * is the library's text, shown to staff and written into the mails; no personal data.
 */
export const TimeSlotClosed = defineEvent(
  'TimeSlotClosed',
  z.object({
    timeSlotId: z.uuid(),
    roomId: z.uuid(),
    closureId: z.uuid(),
    reason: z.string().min(1).max(500),
  }),
);

export const timeSlotEvents = [
  TimeSlotCreated,
  TimeSlotUpdated,
  TimeSlotCapacityChanged,
  TimeSlotDeleted,
  TimeSlotClosed,
];

export type TimeSlotLifecycleEvent =
  | { type: 'TimeSlotCreated'; data: z.infer<typeof SlotDetails> }
  | { type: 'TimeSlotUpdated'; data: z.infer<typeof SlotDetails> }
  | {
      type: 'TimeSlotCapacityChanged';
      data: { timeSlotId: string; roomId: string; capacity: number };
    }
  | { type: 'TimeSlotDeleted'; data: { timeSlotId: string; roomId: string } }
  | {
      type: 'TimeSlotClosed';
      data: { timeSlotId: string; roomId: string; closureId: string; reason: string };
    };

export const timeSlotStreamId = (timeSlotId: string) => `timeslot-${timeSlotId}`;
