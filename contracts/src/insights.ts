import * as z from 'zod/mini';
import { isValidLocalDate } from './dates.ts';
import { crossRule, isoDate, untilNotBefore } from './fields.ts';

/** The parts of the insights, each a chart and a table of the screen and a CSV. */
export const INSIGHTS_PARTS = ['heatmap', 'weeks', 'demand', 'lead-time'] as const;

/** docs/product.md#insights: the longest period one request covers, in days. */
export const INSIGHTS_MAX_DAYS = 400;

const DAY_MS = 86_400_000;

/** Days from `from` to `until`, both valid dates. */
export function daysFromTo(from: string, until: string): number {
  return Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * The insights of one room (an id) or of all rooms (left out) over a period: both dates
 * required, in order, at most INSIGHTS_MAX_DAYS days apart ('invalid' on `untilDate`).
 */
export const InsightsQuery = z
  .object({
    roomId: z.optional(z.string().check(z.minLength(1))),
    fromDate: isoDate(),
    untilDate: isoDate(),
  })
  .check(
    untilNotBefore('fromDate', 'untilDate'),
    crossRule('invalid', 'untilDate', (v) => {
      const [a, b] = [v.fromDate, v.untilDate];
      if (typeof a !== 'string' || typeof b !== 'string') return true;
      if (!isValidLocalDate(a) || !isValidLocalDate(b)) return true;
      return daysFromTo(a, b) < INSIGHTS_MAX_DAYS;
    }),
  );
export type InsightsQuery = z.infer<typeof InsightsQuery>;
