import type { EventStore } from '@rr/events';
import type { LiveAvailability } from './live-availability.ts';
import type {
  BookingLimits,
  CheckInCodes,
  Clock,
  MyBookingsLinks,
  Pool,
  WaitlistReferences,
  WhatIfSettings,
} from '@rr/platform';

export interface QueryDeps {
  pool: Pool;
  clock: Clock;
  timeZone: string;
  /** The booking rules' limits from the config: the calendar's marks and `/settings`. */
  limits: BookingLimits;
  /** Reads of whole streams (the audit histories), upcast like every read of the store. */
  store: Pick<EventStore, 'readStreams'>;
  /** The check-in references of tickets (their QR codes). */
  checkInCodes: CheckInCodes;
  /** The references of waitlist entries (the visitor's place in line). */
  waitlistReferences: WaitlistReferences;
  /** The links of "my bookings" mails, read back to their requests. */
  myBookingsLinks: MyBookingsLinks;
  /** The keyed hash of a signed-in visitor's subject (the bookings made signed in carry it). */
  subjectKey: (subject: string) => string;
  /** The longest date range of one closure, in days (CLOSURE_MAX_DAYS): its preview's too. */
  closureMaxDays: number;
  /** How the what-if replays of the insights run (WHAT_IF_…, the database they read). */
  whatIf: WhatIfSettings;
  /**
   * How long the public reads crowds poll (display, a room's visitor calendar) share one answer
   * while the read models stand still (PUBLIC_READ_CACHE_MS, shared-answers.ts); 0 or unset: off.
   */
  sharedReadMs?: number;
  /**
   * The process's live availability (its streams and their one watcher); without it the stream
   * route refuses every stream (a document of the routes, a tool's app).
   */
  live?: LiveAvailability;
  /**
   * The visitor app's address with its closing slash (PUBLIC_BASE_URL): the seats' printed QR
   * codes lead to its pages.
   */
  visitorBaseUrl?: string | undefined;
  /** The library's address for visitors' questions (LIBRARY_CONTACT_EMAIL), if configured. */
  contactEmail?: string | undefined;
  /** The library's name (LIBRARY_NAME), if configured: the first site's until staff change it. */
  libraryName?: string | undefined;
  /** The VAPID public key browsers subscribe to push with (WEB_PUSH_VAPID_PUBLIC_KEY); absent: push off. */
  webPushPublicKey?: string | undefined;
  /** The wallets the server makes ticket passes for (WALLET_…, GOOGLE_WALLET_…); absent: none. */
  wallets?: { apple: boolean; google: boolean };
  /** The ways visitors may sign in with the campus identity (none: they book by address alone). */
  visitorSignIn?: readonly ('oidc' | 'saml')[] | undefined;
}
