import type { EventStore, Actor } from '@rr/events';
import type { BookingLimits } from '@rr/domain';
import {
  type CheckInCodes,
  type WaitlistReferences,
  type MyBookingsLinks,
  type Clock,
  type Logger,
  type Pool,
  type SessionUser,
  type SeatPlanLimits,
  type WhatIfSettings,
} from '@rr/platform';
import type { CalendarImportSettings } from './holidays/import-window.ts';

export interface CommandDeps {
  store: EventStore;
  pool: Pool;
  clock: Clock;
  logger: Logger;
  /** IANA zone of the library: what "today" means. */
  timeZone: string;
  /** HMAC key of a normalised e-mail address (see @rr/domain emailKey). */
  emailKey: (email: string) => string;
  /**
   * HMAC key of a signed-in visitor's campus subject (`<issuer>!<subject>`, see @rr/domain
   * limitsKeyOf): whom the per-visitor limits count a signed-in booking for.
   */
  subjectKey: (subject: string) => string;
  /** The check-in references of tickets (their QR codes), made and read back. */
  checkInCodes: CheckInCodes;
  /** The references of waitlist entries (their leave links), made and read back. */
  waitlistReferences: WaitlistReferences;
  /** The links of "my bookings" mails (their request ids, signed), made and read back. */
  myBookingsLinks: MyBookingsLinks;
  /** Cart hold time and the per-cart and per-visitor maxima. */
  limits: BookingLimits;
  /** The bounds of an iCalendar import (window of years, events, occurrences, holidays). */
  calendarImport: CalendarImportSettings;
  /** The longest date range of one closure, in days (CLOSURE_MAX_DAYS). */
  closureMaxDays: number;
  /** The largest seats body and plan image (SEAT_PLAN_MAX_BODY_BYTES, SEAT_PLAN_IMAGE_MAX_BYTES). */
  seatPlans: SeatPlanLimits;
  /**
   * The matcher records the entries the limits pass over (WAITLIST_PASS_OVER; absent: it does).
   * Off during a rolling upgrade from a release that cannot fold those events.
   */
  waitlistPassOver?: boolean;
  /** How the what-if replays of the insights run (the query side's). */
  whatIf: WhatIfSettings;
  /** How many days the record of staff sign-ins keeps each record (STAFF_SIGN_IN_RECORD_DAYS). */
  staffSignInRecordDays: number;
  /** The human check of a new cart (always true when no secret is configured). */
  verifyHuman: (token: string | undefined) => Promise<boolean>;
}

export function actorOf(user: SessionUser | undefined): Actor {
  if (user?.token) return { kind: 'api-token', tokenId: user.token.id, name: user.token.name };
  return user ? { kind: 'admin', username: user.username } : { kind: 'visitor' };
}

// The time a decision is made at lives with the handler that every command goes through.
export { decisionTime } from './command.ts';
