import type { BookingLimits, Clock, Pool } from '@rr/platform';

export interface QueryDeps {
  pool: Pool;
  clock: Clock;
  timeZone: string;
  /** The booking rules' limits from the config: the calendar's marks and `/settings`. */
  limits: BookingLimits;
}
