import { Refused, type PlainRefusalCode, type Refusal, type RefusalCode } from '@rr/domain/refusal';
import { Problem } from './problem.ts';

/**
 * The edge's reading of a decider's refusal: the HTTP status of each error code, and the payload
 * made of the refusal's named data. The code and the message are the refusal's.
 */
const statusOf: Record<RefusalCode, number> = {
  not_found: 404,
  validation__error: 400,
  concurrency__version_conflict: 409,
  room__already_exists: 409,
  room__has_active_reservations: 409,
  site__already_exists: 409,
  site__slug_taken: 409,
  site__has_rooms: 409,
  site__first_site: 409,
  timeslot__overlapping: 409,
  timeslot__has_tickets: 409,
  timeslot__overbooking_not_confirmed: 409,
  timeslot__seats_in_use: 409,
  blacklist__email_already_exists: 409,
  ticket__validation_error: 409,
  ticket__not_cancelable: 409,
  ticket__not_booked: 409,
  transaction__expired: 409,
  transaction__already_booked: 409,
  transaction__empty: 409,
  booking__email_blacklisted: 403,
  booking__email_domain_not_allowed: 403,
  booking__sign_in_required: 403,
  booking__affiliation_not_allowed: 403,
  booking__no_show_blocked: 403,
  booking__confirmation_lapsed: 409,
  booking__confirmation_link_invalid: 403,
  personal_data__erased: 409,
  waitlist__not_available: 409,
  waitlist__seats_free: 409,
  seat__taken: 409,
  seat__none_matching: 409,
  waitlist__already_joined: 409,
  waitlist__offer_not_valid: 409,
  check_in__not_offered: 409,
  check_in__not_open: 409,
  check_in__already_checked_in: 409,
  check_in__not_checked_in: 409,
  check_in__undo_expired: 409,
  check_in__other_seat: 409,
  check_in__no_ticket_here: 409,
  walk_in__not_under_way: 409,
  no_show__not_due: 409,
};

/**
 * The API payload of a refusal. A client picks its message by the key "code, `_`, first payload
 * item", the bare code when the payload is empty (docs/product.md#errors): so the first item is
 * always a key suffix the catalogues name (a rule, a ticket status, or the name of the values that
 * follow it, such as `seats` or `until`), never a value. The frontend reads the values by index, so
 * their order is the API's. A code the specification's catalogue lists without a payload keeps an
 * empty one, so its key stays the bare code: what its message names goes beside it
 * (`refusalValues`).
 */
export function refusalPayload(refusal: Refusal): string[] {
  switch (refusal.code) {
    case 'ticket__validation_error':
      return refusal.rule === 'max_tickets_per_day_reached'
        ? [refusal.rule, refusal.date, String(refusal.maxTicketsPerDay)]
        : [refusal.rule];
    case 'timeslot__overlapping':
      // The specification's key is the bare code: the clashing day is one of the values.
      return [];
    case 'timeslot__has_tickets':
    case 'room__has_active_reservations': {
      // The count (the plural message), then booked, held and the holds' end (empty without).
      const { booked, held, heldUntil } = refusal.seats;
      return ['seats', String(booked + held), String(booked), String(held), heldUntil ?? ''];
    }
    case 'timeslot__overbooking_not_confirmed':
      return ['seats', String(refusal.taken), String(refusal.capacity)];
    case 'timeslot__seats_in_use':
      // The labels of the seats whose bookings or offers found no offered seat free.
      return ['seats', ...refusal.seats];
    case 'ticket__not_booked':
      // The status is a key suffix of its own (`ticket__not_booked_CANCELLED`).
      return refusal.status === undefined ? [] : [refusal.status];
    case 'check_in__already_checked_in':
      return ['at', refusal.checkedInAt];
    case 'check_in__not_open':
      return ['window', refusal.opensAt, refusal.closesAt];
    case 'check_in__undo_expired':
      return ['minutes', String(refusal.minutes)];
    case 'check_in__other_seat':
      // The key `check_in__other_seat_seat` names the seat the booking holds, which follows it.
      return ['seat', refusal.label];
    case 'no_show__not_due':
      // Without a release time there is nothing to name: the bare code's message.
      return refusal.releaseAt === null ? [] : ['at', refusal.releaseAt];
    case 'booking__email_domain_not_allowed':
      // The key `booking__email_domain_not_allowed_domains` names the room's domains that follow.
      return ['domains', ...refusal.domains];
    case 'booking__affiliation_not_allowed':
      // The key `booking__affiliation_not_allowed_affiliations` names the admitted ones that follow.
      return ['affiliations', ...refusal.affiliations];
    case 'booking__no_show_blocked':
      // The key `booking__no_show_blocked_until` names the last blocked day, which follows it.
      return ['until', refusal.until];
    case 'waitlist__already_joined':
      // The place is the answer of GET /waitlist/{reference}, not a key of the message.
      return [];
    default: {
      // Only the codes that name nothing are left here (a new named refusal fails to compile).
      const _nothingNamed: { code: PlainRefusalCode } = refusal;
      return [];
    }
  }
}

/**
 * The values a refusal names beside its payload (the problem's `values`): those of the codes
 * whose key the specification fixes without a payload. Absent for every other refusal.
 */
export function refusalValues(refusal: Refusal): Readonly<Record<string, string>> | undefined {
  return refusal.code === 'timeslot__overlapping' ? { date: refusal.date } : undefined;
}

export function problemOfRefusal(refused: Refused): Problem {
  const fields = refused.fields.length ? [...refused.fields] : undefined;
  const title = refused.code === 'validation__error' ? 'The request is not valid' : refused.message;
  return new Problem(
    statusOf[refused.code],
    refused.code,
    title,
    refusalPayload(refused.refusal),
    fields,
    undefined,
    refusalValues(refused.refusal),
  );
}

export { Refused };
