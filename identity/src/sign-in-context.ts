import type pg from 'pg';
import type { Clock, Logger } from '@rr/platform';
import type { SignInRecords, StaffSignInPolicy } from './staff-sso.ts';

/** What every sign-in route works with: the accounts' database, the time, the rules, the record. */
export interface SignInContext {
  pool: pg.Pool;
  clock: Clock;
  policy: StaffSignInPolicy;
  records: SignInRecords;
  logger?: Logger | undefined;
}
