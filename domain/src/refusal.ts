/**
 * Why a decider refuses a command, in the spec's words (section 8's error codes, which the
 * frontend's catalogues translate). A refusal knows nothing of HTTP: the edge
 * (platform/src/refusal-problem.ts) gives each code its status and renders problem+json.
 */
export type RefusalCode =
  | 'not_found'
  | 'validation__error'
  | 'concurrency__version_conflict'
  | 'room__already_exists'
  | 'room__has_active_reservations'
  | 'timeslot__overlapping'
  | 'timeslot__has_tickets'
  | 'timeslot__overbooking_not_confirmed'
  | 'blacklist__email_already_exists'
  | 'ticket__validation_error'
  | 'ticket__not_cancelable'
  | 'ticket__not_booked'
  | 'transaction__expired'
  | 'transaction__already_booked'
  | 'transaction__empty'
  | 'booking__email_blacklisted'
  | 'personal_data__erased'
  | 'waitlist__not_available'
  | 'waitlist__seats_free'
  | 'waitlist__already_joined'
  | 'waitlist__offer_not_valid'
  | 'check_in__not_offered'
  | 'check_in__not_open'
  | 'check_in__already_checked_in'
  | 'check_in__not_checked_in'
  | 'check_in__undo_expired'
  | 'no_show__not_due';

/** A field a refusal is about (validation__error), with the rule and the spec's message. */
export interface RefusedField {
  field: string;
  rule: string;
  message: string;
}

export class Refused extends Error {
  override name = 'Refused';
  constructor(
    readonly code: RefusalCode,
    message: string,
    /** The spec's payload: the values the message names (a count, a date, a rule). */
    readonly payload: readonly string[] = [],
    readonly fields: readonly RefusedField[] = [],
  ) {
    super(message);
  }
}

/** The refusals more than one decider gives. */
export const refuse = {
  notFound: (what: string) => new Refused('not_found', `${what} not found`),
  versionConflict: () =>
    new Refused('concurrency__version_conflict', 'The resource was changed meanwhile'),
  field: (field: RefusedField) =>
    new Refused('validation__error', 'The request is not valid', [], [field]),
  /** A ticket the cart rules refuse, the rule (spec section 8) as payload. */
  ticket: (rule: string) =>
    new Refused('ticket__validation_error', 'The ticket cannot be added', [rule]),
  /**
   * The per-day maximum (issue #15): after the rule, the day it is reached on (`YYYY-MM-DD`)
   * and the maximum, so the message can name both.
   */
  dayLimit: (date: string, maxTicketsPerDay: number) =>
    new Refused('ticket__validation_error', 'The maximum of tickets for this day is reached', [
      'max_tickets_per_day_reached',
      date,
      String(maxTicketsPerDay),
    ]),
};
