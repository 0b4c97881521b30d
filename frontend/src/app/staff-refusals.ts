import { formatClock } from '../lib/staff-dates';
import { readPayloadOf, type ErrorMessageParams } from '../lib/error-message';

/**
 * How the staff app reads the payloads of the refusals only it shows (docs/product.md#errors).
 * Each payload starts with the name its message key ends in (`seats`, `window`, `minutes`, `at`);
 * the values follow it. The staff app registers these readers at its start, so the visitor's
 * download does not carry them.
 */

/**
 * Refusals to delete where seats are taken: `['seats', total, booked, held, end of the last
 * hold]`. With holds the message is the `_held` context, naming until when they last.
 */
function seatParams(payload: readonly string[]): ErrorMessageParams | null {
  if (payload[0] !== 'seats' || payload.length < 4) return null;
  const [, total = '0', booked = '0', held = '0', until = ''] = payload;
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

/**
 * The value after the name: the minutes of `['minutes', n]` (a count, for plural forms), the
 * opening of `['window', opens, closes]`, the seats taken of `['seats', taken, capacity]`.
 */
function namedValue(payload: readonly string[]): ErrorMessageParams | null {
  const value = payload[1];
  if (value === undefined) return null;
  return /^\d+$/.test(value) ? { value, count: Number(value) } : { value };
}

/** Seats a slot would no longer offer that are in use: `['seats', label, …]`, the labels listed. */
function seatLabels(payload: readonly string[]): ErrorMessageParams | null {
  if (payload[0] !== 'seats' || payload.length < 2) return null;
  const labels = payload.slice(1);
  return { value: labels.join(', '), count: labels.length };
}

export function registerStaffRefusals(): void {
  readPayloadOf('timeslot__seats_in_use', seatLabels);
  for (const code of ['room__has_active_reservations', 'timeslot__has_tickets'])
    readPayloadOf(code, seatParams);
  for (const code of [
    'timeslot__overbooking_not_confirmed',
    'check_in__not_open',
    'check_in__already_checked_in',
    'check_in__undo_expired',
    'no_show__not_due',
    'insights__replay_busy',
  ])
    readPayloadOf(code, namedValue);
}
