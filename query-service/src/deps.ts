import type { Clock, Pool } from '@rr/platform';

export interface QueryDeps {
  pool: Pool;
  clock: Clock;
  timeZone: string;
}
