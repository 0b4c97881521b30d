/**
 * Maps an API error to a key of the `common-error` message catalogue (docs/product.md#errors).
 *
 * The error may be an application/problem+json body (`{error, payload}`), an RTK Query
 * `FetchBaseQueryError` (`{status, data}`) wrapping such a body, or anything else.
 */

import { formatDate, isIsoDate } from './dates';

export const UNKNOWN_ERROR_KEY = 'unknown';

/** RTK Query's own failure kinds carry a string status and no problem body. */
const CLIENT_SIDE_STATUSES = new Set([
  'FETCH_ERROR',
  'PARSING_ERROR',
  'TIMEOUT_ERROR',
  'CUSTOM_ERROR',
]);

export interface ProblemCode {
  readonly code: string;
  readonly payload: readonly string[];
  /** What the message names beside the payload (`values`), for a code whose key has none. */
  readonly values: Readonly<Record<string, string>>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/** The `error` code and `payload` of a problem, or null when there is no string error field. */
export function problemCode(problem: unknown): ProblemCode | null {
  if (!isRecord(problem)) return null;
  if ('status' in problem && typeof problem.status === 'string') {
    if (CLIENT_SIDE_STATUSES.has(problem.status)) return null;
  }
  if ('status' in problem && 'data' in problem && typeof problem.status === 'number') {
    return problemCode(problem.data);
  }
  const code = problem.error;
  if (typeof code !== 'string' || code.trim() === '') return null;
  const payload = Array.isArray(problem.payload)
    ? problem.payload
        .filter((item) => item !== null && item !== undefined)
        .map((item) => String(item))
    : [];
  const values = isRecord(problem.values)
    ? Object.fromEntries(
        Object.entries(problem.values).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      )
    : {};
  return { code, payload, values };
}

/**
 * The message-key rule (docs/product.md#errors): the key is the error code; when the payload
 * array is non-empty it is the
 * code, an underscore and the first payload item. Without a string error field: `unknown`.
 */
export function errorMessageKey(problem: unknown): string {
  const parsed = problemCode(problem);
  if (!parsed) return UNKNOWN_ERROR_KEY;
  const first = parsed.payload[0];
  return first === undefined || first === '' ? parsed.code : `${parsed.code}_${first}`;
}

/**
 * Keys to try in order (`t(keys)` takes the first one that exists): the strict
 * key, then the bare code (so `calendar__too_many_events` with its limit `['500']` as payload
 * finds its message), then `unknown`.
 */
export function errorMessageKeys(problem: unknown): string[] {
  const key = errorMessageKey(problem);
  const parsed = problemCode(problem);
  const keys = [key];
  if (parsed && parsed.code !== key) keys.push(parsed.code);
  if (!keys.includes(UNKNOWN_ERROR_KEY)) keys.push(UNKNOWN_ERROR_KEY);
  return keys;
}

/** A type alias, not an interface: the translate options want an index signature. */
export type ErrorMessageParams = {
  value?: string;
  count?: number;
  date?: string;
  /** Seats taken, apart (refusals to delete a room or slot): booked, held, holds' end HH:mm. */
  booked?: number;
  held?: number;
  until?: string;
  /** A variant of the message: with holds (`_held`), or naming a day (`_date`). */
  context?: 'held' | 'date';
};

/**
 * Readers of the payload of codes that only one interface shows, registered by that interface
 * at its start (the staff app: `app/staff-refusals.ts`), so the visitor's download does not carry
 * them.
 */
const payloadReaders = new Map<string, (payload: readonly string[]) => ErrorMessageParams | null>();

/** Registers how the payload of a code becomes the message's values (null: the default way). */
export function readPayloadOf(
  code: string,
  read: (payload: readonly string[]) => ErrorMessageParams | null,
): void {
  payloadReaders.set(code, read);
}

/**
 * Interpolation values for the message: a registered reader's, or else `value` is the first
 * payload item, and `count` its numeric value when it is a whole number (the limit of the
 * `calendar__too_many_…` codes). A day beside the payload (`values.date`, the clashing date of
 * `timeslot__overlapping`, whose key is the bare code) is `date` in dd.MM.yyyy, with the message's
 * variant that names it (context `date`: `timeslot__overlapping_date`).
 */
export function errorMessageParams(problem: unknown): ErrorMessageParams {
  const parsed = problemCode(problem);
  const read = parsed && payloadReaders.get(parsed.code);
  const registered = read ? read(parsed.payload) : null;
  if (registered) return registered;
  const day = parsed?.values.date;
  if (day !== undefined && isIsoDate(day))
    return { value: day, date: formatDate(day), context: 'date' };
  const first = parsed?.payload[0];
  if (first === undefined) return {};
  // A payload `['until', YYYY-MM-DD]`: the key `<code>_until` names the last day of a block.
  const second = parsed?.payload[1];
  if (first === 'until' && second !== undefined && isIsoDate(second))
    return { value: second, date: formatDate(second) };
  // A payload `['domains', …]` (or `affiliations`): the key `<code>_domains` names those that follow.
  if (first === 'domains' || first === 'affiliations')
    return { value: parsed?.payload.slice(1).join(', ') ?? '' };
  return /^\d+$/.test(first) ? { value: first, count: Number(first) } : { value: first };
}
