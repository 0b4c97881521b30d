import * as z from 'zod/mini';
import { isoDate, untilNotBefore } from './fields.ts';
import { optionalText, requiredText } from './rules.ts';

/**
 * docs/product.md#closures: close one, several or all rooms (no room ids) for a date range with
 * the library's reason (required, at most 500; its English text optional); the end date not before the start date. The
 * longest range is the server's setting (CLOSURE_MAX_DAYS). With `cancelBookings` the booked
 * tickets of the closed slots are cancelled with the reason.
 */
export const ClosureInput = z
  .object({
    roomIds: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(200))),
    fromDate: isoDate(),
    untilDate: isoDate(),
    reason: requiredText(500),
    /** The reason's optional English text (docs/product.md#translations). */
    reasonEn: optionalText(500),
    cancelBookings: z._default(z.boolean(), false),
  })
  .check(untilNotBefore('fromDate', 'untilDate'));
export type ClosureInput = z.infer<typeof ClosureInput>;

/** The preview of a closure: the date range and, comma-separated, the rooms (none: all rooms). */
export const ClosurePreviewQuery = z
  .object({
    fromDate: isoDate(),
    untilDate: isoDate(),
    roomIds: z.optional(z.string().check(z.maxLength(8000))),
  })
  .check(untilNotBefore('fromDate', 'untilDate'));
