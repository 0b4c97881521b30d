import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { date, id } from './fields.ts';

/**
 * `nameEn` and `descriptionEn`, the English texts, are absent in every event before them and
 * wherever staff left them empty: the German text serves both languages
 * (docs/product.md#translations).
 */
const HolidayDetails = z.object({
  holidayId: id,
  name: z.string(),
  nameEn: z.string().min(1).optional(),
  description: z.string().optional(),
  descriptionEn: z.string().min(1).optional(),
  date,
  /** The site whose rooms it applies to; absent: the whole system's (every site). */
  siteId: id.optional(),
});

export const HolidayCreated = defineEvent('HolidayCreated', HolidayDetails);
export const HolidayUpdated = defineEvent('HolidayUpdated', HolidayDetails);
export const HolidayDeleted = defineEvent('HolidayDeleted', z.object({ holidayId: id }));

/**
 * All holidays live in one stream: few, rarely changed, and decided on together (import dedupe,
 * slot series).
 */
export const holidaysStream = defineStream('holidays', [
  HolidayCreated,
  HolidayUpdated,
  HolidayDeleted,
]);

export type HolidayEvent = EventOf<typeof holidaysStream>;

export const HOLIDAYS_STREAM = holidaysStream.kind;
