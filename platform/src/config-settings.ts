import type { BookingLimits } from '@rr/domain/limits';
import { ConfigSchema, type Config } from './config.ts';

// What the services take from the configuration as settings of their own.

/**
 * The limits of the booking rules: the type is the domain's (@rr/domain limits.ts), the values
 * are these variables'. The one source of every copy: the deciders, the calendar's marks and
 * `GET /api/settings` (the visitor app) take them from here.
 */
export type { BookingLimits };

export function bookingLimitsOf(
  config: Pick<
    Config,
    | 'CART_HOLD_MINUTES'
    | 'MAX_CART_TICKETS'
    | 'MAX_TICKETS_PER_DAY'
    | 'MAX_TICKETS_PER_VISITOR'
    | 'LIMITS_PER_SITE'
    | 'NO_SHOW_LIMIT'
    | 'NO_SHOW_WINDOW_DAYS'
    | 'NO_SHOW_BLOCK_DAYS'
  >,
): BookingLimits {
  const {
    NO_SHOW_LIMIT: limit,
    NO_SHOW_WINDOW_DAYS: windowDays,
    NO_SHOW_BLOCK_DAYS: blockDays,
  } = config;
  return {
    holdMinutes: config.CART_HOLD_MINUTES,
    maxCartTickets: config.MAX_CART_TICKETS,
    maxTicketsPerDay: config.MAX_TICKETS_PER_DAY,
    maxTicketsPerVisitor: config.MAX_TICKETS_PER_VISITOR,
    ...(config.LIMITS_PER_SITE ? { limitsPerSite: true } : {}),
    ...(limit && windowDays && blockDays ? { noShowRule: { limit, windowDays, blockDays } } : {}),
  };
}

/** How the what-if replays of the insights run (docs/product.md#insights). */
export interface WhatIfSettings {
  /** The database a replay's worker reads with a connection of its own. */
  databaseUrl: string;
  /** The most events one replay reads (WHAT_IF_MAX_EVENTS). */
  maxEvents: number;
  /** Replays running at once in the process (WHAT_IF_CONCURRENCY). */
  concurrency: number;
  /** Replays waiting for a turn, at most (WHAT_IF_QUEUE). */
  queue: number;
  /** The Retry-After of a replay refused as busy (WHAT_IF_RETRY_AFTER_SECONDS). */
  retryAfterSeconds: number;
  /** Events a worker reads per batch (WHAT_IF_BATCH_SIZE). */
  batchSize: number;
  /** The longest one replay runs, its reads included (WHAT_IF_TIMEOUT_SECONDS). */
  timeoutMs: number;
}

export const whatIfSettingsOf = (
  config: Pick<
    Config,
    | 'WHAT_IF_MAX_EVENTS'
    | 'WHAT_IF_CONCURRENCY'
    | 'WHAT_IF_QUEUE'
    | 'WHAT_IF_RETRY_AFTER_SECONDS'
    | 'WHAT_IF_BATCH_SIZE'
    | 'WHAT_IF_TIMEOUT_SECONDS'
  >,
  databaseUrl: string,
): WhatIfSettings => ({
  databaseUrl,
  maxEvents: config.WHAT_IF_MAX_EVENTS,
  concurrency: config.WHAT_IF_CONCURRENCY,
  queue: config.WHAT_IF_QUEUE,
  retryAfterSeconds: config.WHAT_IF_RETRY_AFTER_SECONDS,
  batchSize: config.WHAT_IF_BATCH_SIZE,
  timeoutMs: config.WHAT_IF_TIMEOUT_SECONDS * 1000,
});

/** The limits of an empty environment: the defaults of the variables above, nowhere else. */
export const defaultBookingLimits: BookingLimits = bookingLimitsOf(ConfigSchema.parse({}));

/** The limits of seat plans (docs/product.md#seat-plans). */
export interface SeatPlanLimits {
  /** The largest body that sets a room's seats, JSON or CSV (SEAT_PLAN_MAX_BODY_BYTES). */
  bodyBytes: number;
  /** The largest plan image (SEAT_PLAN_IMAGE_MAX_BYTES). */
  imageBytes: number;
}

export function seatPlanLimitsOf(
  config: Pick<Config, 'SEAT_PLAN_MAX_BODY_BYTES' | 'SEAT_PLAN_IMAGE_MAX_BYTES'>,
): SeatPlanLimits {
  return {
    bodyBytes: config.SEAT_PLAN_MAX_BODY_BYTES,
    imageBytes: config.SEAT_PLAN_IMAGE_MAX_BYTES,
  };
}
