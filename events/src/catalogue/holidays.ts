import { z } from 'zod';
import { defineEvent } from './define.ts';

const HolidayDetails = z.object({
  holidayId: z.uuid(),
  name: z.string(),
  description: z.string().optional(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

export const HolidayCreated = defineEvent('HolidayCreated', HolidayDetails);
export const HolidayUpdated = defineEvent('HolidayUpdated', HolidayDetails);
export const HolidayDeleted = defineEvent('HolidayDeleted', z.object({ holidayId: z.uuid() }));

export const holidayEvents = [HolidayCreated, HolidayUpdated, HolidayDeleted];

export type HolidayEvent =
  | { type: 'HolidayCreated'; data: z.infer<typeof HolidayDetails> }
  | { type: 'HolidayUpdated'; data: z.infer<typeof HolidayDetails> }
  | { type: 'HolidayDeleted'; data: { holidayId: string } };

/** All holidays live in one stream: few, rarely changed, and decided on together (import dedupe, slot series). */
export const HOLIDAYS_STREAM = 'holidays';
