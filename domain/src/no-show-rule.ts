import { addDays, type LocalDate } from './calendar.ts';
import { Refused } from './refusal.ts';

/**
 * The no-show rule (docs/product.md#no-show-rule), from the library's settings
 * (`NO_SHOW_LIMIT`, `NO_SHOW_WINDOW_DAYS`, `NO_SHOW_BLOCK_DAYS`): an address with `limit`
 * no-show releases within `windowDays` days is blocked for `blockDays` days from the day of the
 * release that reached the limit.
 */
export interface NoShowRule {
  limit: number;
  windowDays: number;
  blockDays: number;
}

/**
 * The last day an address with no-show releases on these days (the slots' days) is blocked, as
 * of today; null when it is not blocked. Each run of `limit` releases that lie within
 * `windowDays` days (first to last) blocks from the last of them for `blockDays` days; the latest
 * such block counts. Releases a staff member lifted are left out before (`noShowDaysCounted`).
 */
export function noShowBlockedUntil(
  days: readonly LocalDate[],
  today: LocalDate,
  rule: NoShowRule | null | undefined,
): LocalDate | null {
  if (!rule || days.length < rule.limit) return null;
  const sorted = [...days].sort();
  let until: LocalDate | null = null;
  for (let i = rule.limit - 1; i < sorted.length; i += 1) {
    const first = sorted[i - rule.limit + 1]!;
    const last = sorted[i]!;
    if (addDays(first, rule.windowDays - 1) < last) continue;
    const end = addDays(last, rule.blockDays - 1);
    if (until === null || end > until) until = end;
  }
  return until !== null && until >= today ? until : null;
}

/**
 * The releases the rule counts: staff lifting a block (docs/product.md#no-show-rule) sets
 * `liftedThrough` to the day of the address's last release then, and every release up to that
 * day no longer counts; later releases count again from none.
 */
export function noShowDaysCounted(
  days: readonly LocalDate[],
  liftedThrough: LocalDate | null | undefined,
): LocalDate[] {
  return liftedThrough ? days.filter((day) => day > liftedThrough) : [...days];
}

/** A blocked address may neither book nor join a waitlist until its block ends. */
export function mustNotBeNoShowBlocked(
  days: readonly LocalDate[],
  today: LocalDate,
  rule: NoShowRule | null | undefined,
): void {
  const until = noShowBlockedUntil(days, today, rule);
  if (until !== null)
    throw new Refused(
      { code: 'booking__no_show_blocked', until },
      `Too many no-shows: this address may book again after ${until}`,
    );
}

/**
 * The last day whose no-show releases the rule no longer needs as of today: their window and any
 * block they may start have passed (docs/product.md#personal-data). Without the rule, every day
 * up to today (a release is never dated later).
 */
export function noShowsErasableThrough(
  today: LocalDate,
  rule: NoShowRule | null | undefined,
): LocalDate {
  return rule ? addDays(today, -(rule.windowDays + rule.blockDays)) : today;
}
