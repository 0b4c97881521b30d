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

export const timeSlotEvents = [
  TimeSlotCreated,
  TimeSlotUpdated,
  TimeSlotCapacityChanged,
  TimeSlotDeleted,
];

export type TimeSlotLifecycleEvent =
  | { type: 'TimeSlotCreated'; data: z.infer<typeof SlotDetails> }
  | { type: 'TimeSlotUpdated'; data: z.infer<typeof SlotDetails> }
  | {
      type: 'TimeSlotCapacityChanged';
      data: { timeSlotId: string; roomId: string; capacity: number };
    }
  | { type: 'TimeSlotDeleted'; data: { timeSlotId: string; roomId: string } };

export const timeSlotStreamId = (timeSlotId: string) => `timeslot-${timeSlotId}`;
