import * as z from 'zod/mini';
import { isoDate, untilNotBefore } from './fields.ts';

/** docs/product.md#validation, report filters. */

export const OCCUPANCY_TYPES = ['BOOKED', 'CANCELLED'] as const;

/**
 * Occupancy report: both dates required date strings, in order; room and type required (the
 * server also wants the room to be an id).
 */
export const OccupancyReportQuery = z
  .object({
    roomId: z.string().check(z.minLength(1)),
    fromDate: isoDate(),
    untilDate: isoDate(),
    status: z.enum(OCCUPANCY_TYPES),
  })
  .check(untilNotBefore('fromDate', 'untilDate'));

/** Daily report: the date, a required date string. */
export const DailyReportQuery = z.object({ date: isoDate() });

/** The reservations list's filters: dates optional, in order; search term at most 200. */
export const ReservationFilterQuery = z
  .object({
    fromDate: z.optional(isoDate()),
    untilDate: z.optional(isoDate()),
    searchTerm: z.optional(z.string().check(z.maxLength(200))),
  })
  .check(untilNotBefore('fromDate', 'untilDate'));
