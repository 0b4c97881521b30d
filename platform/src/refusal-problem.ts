import { Refused, type RefusalCode } from '@rr/domain/refusal';
import { Problem } from './problem.ts';

/**
 * The edge's reading of a decider's refusal: the HTTP status of each spec error code. The code,
 * the message and the payload are the refusal's; only the status is chosen here.
 */
const statusOf: Record<RefusalCode, number> = {
  not_found: 404,
  validation__error: 400,
  concurrency__version_conflict: 409,
  room__already_exists: 409,
  room__has_active_reservations: 409,
  timeslot__overlapping: 409,
  timeslot__has_tickets: 409,
  timeslot__overbooking_not_confirmed: 409,
  blacklist__email_already_exists: 409,
  ticket__validation_error: 409,
  ticket__not_cancelable: 409,
  ticket__not_booked: 409,
  transaction__expired: 409,
  transaction__already_booked: 409,
  transaction__empty: 409,
  booking__email_blacklisted: 403,
  personal_data__erased: 409,
  waitlist__not_available: 409,
  waitlist__seats_free: 409,
  waitlist__already_joined: 409,
  waitlist__offer_not_valid: 409,
  check_in__not_offered: 409,
  check_in__not_open: 409,
  check_in__already_checked_in: 409,
  check_in__not_checked_in: 409,
  check_in__undo_expired: 409,
  no_show__not_due: 409,
};

export function problemOfRefusal(refused: Refused): Problem {
  const fields = refused.fields.length ? [...refused.fields] : undefined;
  const title = refused.code === 'validation__error' ? 'The request is not valid' : refused.message;
  return new Problem(statusOf[refused.code], refused.code, title, [...refused.payload], fields);
}

export { Refused };
