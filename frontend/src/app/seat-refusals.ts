import { formatClock } from '../lib/staff-dates';
import { readPayloadOf, type ErrorMessageParams } from '../lib/error-message';

/**
 * Refusals to delete where seats are taken: payload total, booked, held, and the end of the last
 * hold. With holds the message is the `_held` context, naming until when they last.
 * Only the staff app shows them: it registers this reader at its start.
 */
function seatParams(payload: readonly string[]): ErrorMessageParams | null {
  if (payload.length < 3) return null;
  const [total = '0', booked = '0', held = '0', until = ''] = payload;
  const params: ErrorMessageParams = {
    value: total,
    count: Number(total),
    booked: Number(booked),
    held: Number(held),
  };
  return Number(held) > 0 && until !== ''
    ? { ...params, until: formatClock(until), context: 'held' }
    : params;
}

export function registerSeatRefusals(): void {
  for (const code of ['room__has_active_reservations', 'timeslot__has_tickets'])
    readPayloadOf(code, seatParams);
}
