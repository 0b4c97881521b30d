import type { NoShowRule } from './no-show-rule.ts';

/**
 * The limits of the booking rules (docs/product.md#limits: cart size and hold; the per-day and
 * per-visitor maxima of docs/product.md#cart-rules). Their values come from the server's config
 * (platform/src/config.ts, the one source): the deciders decide with them, the calendar marks
 * slots with them, and `GET /api/settings` hands them to the visitor app.
 */
export interface BookingLimits {
  /** How long a cart holds its seats (every add and touch renews it). */
  holdMinutes: number;
  maxCartTickets: number;
  /** Tickets per visitor and day (a cart may not hold more on one day either). */
  maxTicketsPerDay: number;
  /** Booked tickets per visitor from today on (a cart may not hold more either). */
  maxTicketsPerVisitor: number;
  /**
   * The per-visitor maxima (per day, from today on) count per site (LIMITS_PER_SITE): a person
   * at her limit at one site may still book at another (docs/product.md#one-person-one-set-of-limits).
   * Absent or false: across every site, as before sites.
   */
  limitsPerSite?: boolean | undefined;
  /** The no-show rule (NO_SHOW_LIMIT, NO_SHOW_WINDOW_DAYS, NO_SHOW_BLOCK_DAYS); absent: off. */
  noShowRule?: NoShowRule | undefined;
}

/** When a hold made or renewed at `now` ends (ISO): a cart's add or touch, a taken offer. */
export const holdEnd = (now: Date, limits: Pick<BookingLimits, 'holdMinutes'>): string =>
  new Date(now.getTime() + limits.holdMinutes * 60_000).toISOString();
