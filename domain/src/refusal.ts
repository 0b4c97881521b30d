import { messageOf } from '@rr/contracts/messages';
import type { LocalDate } from './calendar.ts';
import type { SeatRule, TicketStatus } from './rule-codes.ts';

/**
 * Why a decider refuses a command: the error codes the frontend's catalogues translate. A
 * refusal knows nothing of HTTP: the edge (platform/src/refusal-problem.ts) gives each code its
 * status and renders problem+json, the payload included.
 */
export type RefusalCode =
  | 'not_found'
  | 'validation__error'
  | 'concurrency__version_conflict'
  | 'room__already_exists'
  | 'room__has_active_reservations'
  | 'site__already_exists'
  | 'site__slug_taken'
  | 'site__has_rooms'
  | 'site__first_site'
  | 'timeslot__overlapping'
  | 'timeslot__has_tickets'
  | 'timeslot__overbooking_not_confirmed'
  | 'timeslot__seats_in_use'
  | 'blacklist__email_already_exists'
  | 'ticket__validation_error'
  | 'ticket__not_cancelable'
  | 'ticket__not_booked'
  | 'transaction__expired'
  | 'transaction__already_booked'
  | 'transaction__empty'
  | 'booking__email_blacklisted'
  | 'booking__email_domain_not_allowed'
  | 'booking__sign_in_required'
  | 'booking__affiliation_not_allowed'
  | 'booking__no_show_blocked'
  | 'booking__confirmation_lapsed'
  | 'booking__confirmation_link_invalid'
  | 'personal_data__erased'
  | 'waitlist__not_available'
  | 'waitlist__seats_free'
  | 'seat__taken'
  | 'seat__none_matching'
  | 'waitlist__already_joined'
  | 'waitlist__offer_not_valid'
  | 'check_in__not_offered'
  | 'check_in__not_open'
  | 'check_in__already_checked_in'
  | 'check_in__not_checked_in'
  | 'check_in__undo_expired'
  | 'check_in__other_seat'
  | 'check_in__no_ticket_here'
  | 'walk_in__not_under_way'
  | 'no_show__not_due';

/** A field a refusal is about (validation__error), with the rule and the message. */
export interface RefusedField {
  field: string;
  rule: string;
  message: string;
}

/** Seats taken where a deletion is refused: bookings, holds, and the end of the last hold. */
export interface SeatsInTheWay {
  booked: number;
  held: number;
  /** The instant the last unexpired hold ends; null without holds. */
  heldUntil: string | null;
}

/**
 * A refusal with the data its message names, by code. The edge turns the data into the API's
 * payload (platform/src/refusal-problem.ts); the deciders never build payload strings.
 */
export type Refusal =
  /** A ticket a seat rule refuses (seat-rule.ts); the per-day maximum names its day and value. */
  | {
      code: 'ticket__validation_error';
      rule: Exclude<SeatRule, 'max_tickets_per_day_reached'>;
    }
  | {
      code: 'ticket__validation_error';
      rule: 'max_tickets_per_day_reached';
      date: LocalDate;
      maxTicketsPerDay: number;
    }
  /** The first day a new or moved slot clashes with another slot of the room. */
  | { code: 'timeslot__overlapping'; date: LocalDate }
  | { code: 'timeslot__has_tickets' | 'room__has_active_reservations'; seats: SeatsInTheWay }
  | { code: 'timeslot__overbooking_not_confirmed'; taken: number; capacity: number }
  /** Seats a slot would no longer offer whose bookings or offers no offered seat is free for: their labels. */
  | { code: 'timeslot__seats_in_use'; seats: readonly string[] }
  /** A ticket that is not booked, with its status when a check-in asks. */
  | { code: 'ticket__not_booked'; status?: Exclude<TicketStatus, 'BOOKED'> }
  | { code: 'check_in__already_checked_in'; checkedInAt: string }
  /** Check-in opens and closes at these local times (`YYYY-MM-DD HH:MM`). */
  | { code: 'check_in__not_open'; opensAt: string; closesAt: string }
  | { code: 'check_in__undo_expired'; minutes: number }
  /** At a seat: the booking's ticket of the slot holds another seat, by its label. */
  | { code: 'check_in__other_seat'; label: string }
  /** The release is due at this local time (`YYYY-MM-DD HH:MM`); null: never (no release). */
  | { code: 'no_show__not_due'; releaseAt: string | null }
  /** The address waits already: its place among those waiting (null while it holds an offer). */
  | { code: 'waitlist__already_joined'; positionInLine: number | null }
  /** A members-only room refuses the address: the domains it admits. */
  | { code: 'booking__email_domain_not_allowed'; domains: readonly string[] }
  /** A room for members of the university refuses the signed-in visitor: the affiliations it admits. */
  | { code: 'booking__affiliation_not_allowed'; affiliations: readonly string[] }
  /** Too many no-shows (no-show-rule.ts): the last day the address is blocked. */
  | { code: 'booking__no_show_blocked'; until: LocalDate }
  | { code: PlainRefusalCode };

/** The codes whose refusal names nothing beyond the code. */
export type PlainRefusalCode = Exclude<
  RefusalCode,
  | 'ticket__validation_error'
  | 'timeslot__overlapping'
  | 'timeslot__has_tickets'
  | 'room__has_active_reservations'
  | 'timeslot__overbooking_not_confirmed'
  | 'timeslot__seats_in_use'
  | 'ticket__not_booked'
  | 'check_in__already_checked_in'
  | 'check_in__not_open'
  | 'check_in__undo_expired'
  | 'check_in__other_seat'
  | 'no_show__not_due'
  | 'waitlist__already_joined'
  | 'booking__email_domain_not_allowed'
  | 'booking__affiliation_not_allowed'
  | 'booking__no_show_blocked'
>;

export class Refused extends Error {
  override name = 'Refused';
  /** The refusal with its named data. */
  readonly refusal: Refusal;
  constructor(
    refusal: Refusal | PlainRefusalCode,
    message: string,
    readonly fields: readonly RefusedField[] = [],
  ) {
    super(message);
    this.refusal = typeof refusal === 'string' ? { code: refusal } : refusal;
  }

  get code(): RefusalCode {
    return this.refusal.code;
  }
}

/** The refusals more than one decider gives. */
export const refuse = {
  notFound: (what: string) => new Refused('not_found', `${what} not found`),
  versionConflict: () =>
    new Refused('concurrency__version_conflict', 'The resource was changed meanwhile'),
  field: (field: RefusedField) =>
    new Refused('validation__error', 'The request is not valid', [field]),
  /** A ticket the seat rule refuses, naming the rule. */
  ticket: (rule: Exclude<SeatRule, 'max_tickets_per_day_reached'>) =>
    new Refused({ code: 'ticket__validation_error', rule }, 'The ticket cannot be added'),
  /** The per-day maximum: the day it is reached on and the maximum, so the message can name both. */
  dayLimit: (date: LocalDate, maxTicketsPerDay: number) =>
    new Refused(
      {
        code: 'ticket__validation_error',
        rule: 'max_tickets_per_day_reached',
        date,
        maxTicketsPerDay,
      },
      'The maximum of tickets for this day is reached',
    ),
};

/**
 * A room's or a holiday's command names a site that exists (the sites read under lock): a deleted
 * or unknown one is refused as the field's `invalid`, as the room form shows it.
 */
export function mustNameASite(siteExists: boolean | undefined): void {
  if (siteExists === false)
    throw refuse.field({
      field: 'siteId',
      rule: 'invalid',
      message: messageOf({ key: 'invalid' }),
    });
}
