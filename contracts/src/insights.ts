import * as z from 'zod/mini';
import { daysFromTo, isValidLocalDate } from './dates.ts';
import { crossRule, intBetween, isoDate, untilNotBefore } from './fields.ts';

/** The parts of the insights, each a chart and a table of the screen and a CSV. */
export const INSIGHTS_PARTS = ['heatmap', 'weeks', 'demand', 'lead-time'] as const;

/** docs/product.md#insights: the longest period one request covers, in days. */
export const INSIGHTS_MAX_DAYS = 400;

/** The period spans fewer than INSIGHTS_MAX_DAYS days ('invalid' on `untilDate`). */
const periodNotTooLong = crossRule('invalid', 'untilDate', (v) => {
  const [a, b] = [v.fromDate, v.untilDate];
  if (typeof a !== 'string' || typeof b !== 'string') return true;
  if (!isValidLocalDate(a) || !isValidLocalDate(b)) return true;
  return daysFromTo(a, b) < INSIGHTS_MAX_DAYS;
});

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
  .check(untilNotBefore('fromDate', 'untilDate'), periodNotTooLong);
export type InsightsQuery = z.infer<typeof InsightsQuery>;

/**
 * A what-if replay (docs/product.md#insights): one room, a period as for the insights, and at
 * least one changed rule: the capacity of every slot (0-99999), the carts' hold time in minutes
 * (1-1440), the most tickets per visitor and day (1-100, as MAX_TICKETS_PER_DAY). No change at
 * all fails 'required' on `change`.
 */
export const WhatIfInput = z
  .object({
    roomId: z.string().check(z.minLength(1)),
    fromDate: isoDate(),
    untilDate: isoDate(),
    change: z
      .object({
        capacity: z.optional(intBetween(0, 99999)),
        cartHoldMinutes: z.optional(intBetween(1, 1440)),
        maxTicketsPerDay: z.optional(intBetween(1, 100)),
      })
      .check(
        z.refine(
          (c) =>
            c.capacity !== undefined ||
            c.cartHoldMinutes !== undefined ||
            c.maxTicketsPerDay !== undefined,
          { params: { rule: 'required' } },
        ),
      ),
  })
  .check(untilNotBefore('fromDate', 'untilDate'), periodNotTooLong);
export type WhatIfInput = z.infer<typeof WhatIfInput>;
