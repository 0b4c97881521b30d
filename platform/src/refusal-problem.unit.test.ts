import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HeldTicket, Refusal, RefusalCode, SeatRule } from '@rr/domain';
import { refusalPayload, refusalValues } from './refusal-problem.ts';

/**
 * Every refusal the domain can give, by code (a new code fails to compile until it is listed),
 * with the data it can name: each seat rule, each ticket status, with and without holds.
 */
const seatRules: Record<Exclude<SeatRule, 'max_tickets_per_day_reached'>, true> = {
  timeslot_not_open: true,
  timeslot_already_in_transaction: true,
  max_tickets_per_transaction_reached: true,
  max_tickets_by_user_reached: true,
  max_tickets_per_time_reached: true,
  timeslot_no_tickets_left: true,
};
/** The statuses a ticket that is not booked can have (a new status fails to compile). */
const notBooked: Record<Exclude<HeldTicket['status'], 'BOOKED'>, true> = {
  NEW: true,
  CANCELLED: true,
  INVALID: true,
};
const seats = [
  { booked: 3, held: 0, heldUntil: null },
  { booked: 1, held: 2, heldUntil: '2027-01-25T10:15:00.000Z' },
];
const refusals: { [C in RefusalCode]: (Refusal & { code: C })[] } = {
  not_found: [{ code: 'not_found' }],
  validation__error: [{ code: 'validation__error' }],
  concurrency__version_conflict: [{ code: 'concurrency__version_conflict' }],
  room__already_exists: [{ code: 'room__already_exists' }],
  room__has_active_reservations: seats.map((s) => ({
    code: 'room__has_active_reservations' as const,
    seats: s,
  })),
  site__already_exists: [{ code: 'site__already_exists' }],
  site__slug_taken: [{ code: 'site__slug_taken' }],
  site__has_rooms: [{ code: 'site__has_rooms' }],
  site__first_site: [{ code: 'site__first_site' }],
  timeslot__overlapping: [{ code: 'timeslot__overlapping', date: '2027-01-25' }],
  timeslot__has_tickets: seats.map((s) => ({ code: 'timeslot__has_tickets' as const, seats: s })),
  timeslot__overbooking_not_confirmed: [
    { code: 'timeslot__overbooking_not_confirmed', taken: 1, capacity: 1 },
  ],
  timeslot__seats_in_use: [{ code: 'timeslot__seats_in_use', seats: ['A1', 'B12'] }],
  blacklist__email_already_exists: [{ code: 'blacklist__email_already_exists' }],
  ticket__validation_error: [
    ...Object.keys(seatRules).map((rule) => ({
      code: 'ticket__validation_error' as const,
      rule: rule as keyof typeof seatRules,
    })),
    {
      code: 'ticket__validation_error',
      rule: 'max_tickets_per_day_reached',
      date: '2027-01-25',
      maxTicketsPerDay: 2,
    },
  ],
  ticket__not_cancelable: [{ code: 'ticket__not_cancelable' }],
  ticket__not_booked: [
    { code: 'ticket__not_booked' },
    ...Object.keys(notBooked).map((status) => ({
      code: 'ticket__not_booked' as const,
      status: status as keyof typeof notBooked,
    })),
  ],
  transaction__expired: [{ code: 'transaction__expired' }],
  transaction__already_booked: [{ code: 'transaction__already_booked' }],
  transaction__empty: [{ code: 'transaction__empty' }],
  booking__email_blacklisted: [{ code: 'booking__email_blacklisted' }],
  booking__no_show_blocked: [{ code: 'booking__no_show_blocked', until: '2027-01-25' }],
  booking__confirmation_lapsed: [{ code: 'booking__confirmation_lapsed' }],
  booking__confirmation_link_invalid: [{ code: 'booking__confirmation_link_invalid' }],
  booking__email_domain_not_allowed: [
    { code: 'booking__email_domain_not_allowed', domains: ['uibk.ac.at', 'student.uibk.ac.at'] },
  ],
  booking__sign_in_required: [{ code: 'booking__sign_in_required' }],
  booking__affiliation_not_allowed: [
    {
      code: 'booking__affiliation_not_allowed',
      affiliations: ['student@uni-x.de', 'uni-partner.de'],
    },
  ],
  personal_data__erased: [{ code: 'personal_data__erased' }],
  waitlist__not_available: [{ code: 'waitlist__not_available' }],
  waitlist__seats_free: [{ code: 'waitlist__seats_free' }],
  seat__taken: [{ code: 'seat__taken' }],
  seat__none_matching: [{ code: 'seat__none_matching' }],
  waitlist__already_joined: [
    { code: 'waitlist__already_joined', positionInLine: 3 },
    { code: 'waitlist__already_joined', positionInLine: null },
  ],
  waitlist__offer_not_valid: [{ code: 'waitlist__offer_not_valid' }],
  check_in__not_offered: [{ code: 'check_in__not_offered' }],
  check_in__not_open: [
    { code: 'check_in__not_open', opensAt: '2027-01-25 09:45', closesAt: '2027-01-25 10:20' },
  ],
  check_in__already_checked_in: [
    { code: 'check_in__already_checked_in', checkedInAt: '2027-01-25T09:50:00.000Z' },
  ],
  check_in__not_checked_in: [{ code: 'check_in__not_checked_in' }],
  check_in__undo_expired: [{ code: 'check_in__undo_expired', minutes: 10 }],
  check_in__other_seat: [{ code: 'check_in__other_seat', label: 'A12' }],
  check_in__no_ticket_here: [{ code: 'check_in__no_ticket_here' }],
  walk_in__not_under_way: [{ code: 'walk_in__not_under_way' }],
  no_show__not_due: [
    { code: 'no_show__not_due', releaseAt: '2027-01-25 10:20' },
    { code: 'no_show__not_due', releaseAt: null },
  ],
};

type Catalogue = { 'common-error'?: Record<string, string>; errors?: Record<string, string> };
/**
 * The error messages of a language: the main, visitor and staff catalogues merged, and the seat
 * page's own texts (the refusals only a seat meets travel with that page's chunk).
 */
function errorMessages(language: 'de' | 'en'): Record<string, string> {
  const read = (file: string) =>
    JSON.parse(
      readFileSync(new URL(`../../frontend/src/${file}`, import.meta.url), 'utf8'),
    ) as Catalogue;
  return Object.assign(
    {},
    ...[`${language}.json`, `visitor.${language}.json`, `staff.${language}.json`].map(
      (file) => read(`i18n/${file}`)['common-error'] ?? {},
    ),
    read(`features/booking/components/seat-page/seat-page.${language}.json`).errors ?? {},
  ) as Record<string, string>;
}
const catalogues = { de: errorMessages('de'), en: errorMessages('en') };
/** The message of a key: its own text, or its plural forms (`_one` and `_other`) for a count. */
function messageOf(catalogue: Record<string, string>, key: string): string | undefined {
  const [one, other] = [catalogue[`${key}_one`], catalogue[`${key}_other`]];
  return catalogue[key] ?? (one && other ? other : undefined);
}

/**
 * The message-key rule, strictly as a client following only docs/product.md#errors reads it: the
 * code when the payload is empty, else the code, an underscore and the first payload item.
 */
function keyOf(code: RefusalCode, payload: readonly string[]): string {
  return payload.length === 0 ? code : `${code}_${payload[0]}`;
}

describe('the payload of every refusal', () => {
  const all = Object.values(refusals).flat();
  it.each(all.map((r) => [r.code, JSON.stringify(r), r] as const))(
    '%s %s finds its message in German and English',
    (_code, _json, refusal) => {
      const key = keyOf(refusal.code, refusalPayload(refusal));
      expect(messageOf(catalogues.de, key), `de: ${key}`).toBeTruthy();
      expect(messageOf(catalogues.en, key), `en: ${key}`).toBeTruthy();
    },
  );

  it('keeps the wire format the frontend reads by index', () => {
    // The specification lists timeslot__overlapping without a payload: the day is beside it.
    expect(refusalPayload({ code: 'timeslot__overlapping', date: '2027-01-25' })).toEqual([]);
    expect(refusalValues({ code: 'timeslot__overlapping', date: '2027-01-25' })).toEqual({
      date: '2027-01-25',
    });
    expect(refusalValues({ code: 'transaction__expired' })).toBeUndefined();
    expect(
      refusalPayload({
        code: 'ticket__validation_error',
        rule: 'max_tickets_per_day_reached',
        date: '2027-01-25',
        maxTicketsPerDay: 2,
      }),
    ).toEqual(['max_tickets_per_day_reached', '2027-01-25', '2']);
    expect(refusalPayload({ code: 'timeslot__has_tickets', seats: seats[1]! })).toEqual([
      'seats',
      '3',
      '1',
      '2',
      '2027-01-25T10:15:00.000Z',
    ]);
    expect(refusalPayload({ code: 'room__has_active_reservations', seats: seats[0]! })).toEqual([
      'seats',
      '3',
      '3',
      '0',
      '',
    ]);
    expect(
      refusalPayload({ code: 'timeslot__overbooking_not_confirmed', taken: 1, capacity: 1 }),
    ).toEqual(['seats', '1', '1']);
    expect(refusalPayload({ code: 'ticket__not_booked', status: 'CANCELLED' })).toEqual([
      'CANCELLED',
    ]);
    expect(refusalPayload({ code: 'ticket__not_booked' })).toEqual([]);
    expect(
      refusalPayload({
        code: 'check_in__already_checked_in',
        checkedInAt: '2027-01-25T09:50:00.000Z',
      }),
    ).toEqual(['at', '2027-01-25T09:50:00.000Z']);
    expect(
      refusalPayload({
        code: 'check_in__not_open',
        opensAt: '2027-01-25 09:45',
        closesAt: '2027-01-25 10:20',
      }),
    ).toEqual(['window', '2027-01-25 09:45', '2027-01-25 10:20']);
    expect(refusalPayload({ code: 'check_in__undo_expired', minutes: 10 })).toEqual([
      'minutes',
      '10',
    ]);
    expect(refusalPayload({ code: 'no_show__not_due', releaseAt: '2027-01-25 10:20' })).toEqual([
      'at',
      '2027-01-25 10:20',
    ]);
    expect(refusalPayload({ code: 'no_show__not_due', releaseAt: null })).toEqual([]);
    expect(refusalPayload({ code: 'transaction__empty' })).toEqual([]);
  });
});
