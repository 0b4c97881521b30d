import * as z from 'zod/mini';
import { isValidLocalDate, isValidLocalTime } from './dates.ts';
import { rule } from './rules.ts';
import type { RuleKey } from './issues.ts';

/**
 * The date, time and number rules of docs/product.md#validation and the rules between fields (the staff
 * forms'; the visitor's personal data needs only rules.ts). Each names its rule like rules.ts.
 */

/** A calendar date `YYYY-MM-DD` from 0001-01-01 to 9999-12-31 ('date'). */
export function isoDate() {
  return z.string().check(rule('date', isValidLocalDate));
}

/** A date after today (`YYYY-MM-DD`, from the caller's clock) ('date-future'). */
export function futureDate(today: () => string) {
  return isoDate().check(rule<string>('date-future', (v) => v > today()));
}

/** A required time `HH:mm`, hour 0-23, minute 0-59 ('time'). */
export function time() {
  return z.string().check(z.trim(), z.minLength(1), rule('time', isValidLocalTime));
}

/** An integer from min to max ('integer', 'between' with both bounds). */
export function intBetween(min: number, max: number) {
  return z.number().check(
    rule('integer', Number.isInteger),
    rule<number>('between', (v) => v >= min && v <= max, { min, max }),
  );
}

type Fields = Record<string, unknown>;
const isObject = (payload: { value: unknown }) =>
  typeof payload.value === 'object' && payload.value !== null;

/**
 * A cross-field rule on `field` of an object, checked also when other fields failed (so a form
 * shows every error at once): `test` must cope with missing or invalid values.
 */
export function crossRule(key: RuleKey, field: string, test: (v: Fields) => boolean) {
  return z.refine<Fields>(test, { path: [field], params: { rule: key }, when: isObject });
}

/**
 * Cross-field rule of a date range: `until` does not end before `from` ('date-not-before', on
 * `until`), checked when both are valid dates (a missing or invalid date is its field's error).
 */
export function untilNotBefore(from: string, until: string) {
  return crossRule('date-not-before', until, (v) => {
    const [a, b] = [v[from], v[until]];
    if (typeof a !== 'string' || typeof b !== 'string') return true;
    return !isValidLocalDate(a) || !isValidLocalDate(b) || b >= a;
  });
}

/** Cross-field rule of a time range: `end` after `start` ('time-after', on `end`). */
export function endAfterStart(start: string, end: string) {
  return crossRule('time-after', end, (v) => {
    const [a, b] = [v[start], v[end]];
    if (typeof a !== 'string' || typeof b !== 'string') return true;
    const [from, until] = [a.trim(), b.trim()];
    return !isValidLocalTime(from) || !isValidLocalTime(until) || until > from;
  });
}
