import { describe, expect, it } from 'vitest';
import de from '../../../i18n/de.json';
import en from '../../../i18n/en.json';
import { mergeCatalogues } from '../../../i18n/i18n';
import visitorDe from '../../../i18n/visitor.de.json';
import visitorEn from '../../../i18n/visitor.en.json';
import type { Catalogue } from '../../../lib/label-override';
import { errorMessageKeys } from '../../../lib/error-message';
import {
  BookingFailure,
  cartDays,
  formatTimeLeft,
  fullDays,
  holdTimeLeft,
  isCartExpired,
  isCompleteAddAnswer,
  judgeCart,
  shouldTouch,
  slotAction,
  TOUCH_INTERVAL_MS,
} from './cart';

const NOW = Date.parse('2026-03-02T10:00:00Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const ticket = { id: 't1' };

describe('cart expiry', () => {
  it('is expired once the expiry time has passed, or when it is unreadable', () => {
    expect(isCartExpired(at(1000), NOW)).toBe(false);
    expect(isCartExpired(at(0), NOW)).toBe(true);
    expect(isCartExpired(at(-5000), NOW)).toBe(true);
    expect(isCartExpired(null, NOW)).toBe(true);
    expect(isCartExpired('not a date', NOW)).toBe(true);
  });
});

describe('judging a refreshed cart', () => {
  it('keeps an open cart with tickets', () => {
    expect(judgeCart({ status: 'NEW', tickets: [ticket] }, undefined)).toBe('keep');
  });

  it('resets a cart the server reports as expired', () => {
    expect(judgeCart({ status: 'EXPIRED', tickets: [] }, undefined)).toBe('expired');
  });

  it('forgets a cart without tickets, booked or removed', () => {
    expect(judgeCart({ status: 'NEW', tickets: [] }, undefined)).toBe('clear');
    expect(judgeCart({ status: 'BOOKED', tickets: [ticket] }, undefined)).toBe('clear');
    expect(judgeCart({ status: 'REMOVED', tickets: [] }, undefined)).toBe('clear');
  });

  it('forgets a cart on a bad answer: unknown (404) or malformed', () => {
    expect(judgeCart(undefined, { status: 404, data: { error: 'not_found' } })).toBe('clear');
    expect(judgeCart(undefined, { status: 400, data: {} })).toBe('clear');
    expect(judgeCart({ status: 'NEW' }, undefined)).toBe('clear');
    expect(judgeCart({ status: 'NEW', tickets: 'many' }, undefined)).toBe('clear');
  });

  it('keeps the cart while it loads or when the server cannot be reached', () => {
    expect(judgeCart(undefined, undefined)).toBe('keep');
    expect(judgeCart(undefined, { status: 'FETCH_ERROR', error: 'offline' })).toBe('keep');
  });

  it('keeps the cart when the server is busy or failing: that says nothing about the cart', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(judgeCart(undefined, { status, data: null }), String(status)).toBe('keep');
  });
});

describe('touching the cart on activity', () => {
  // A hold of the server's settings (CART_HOLD_MINUTES); the test's own value.
  const HOLD = 15;

  it('touches when the cart expires soon and the last touch is a while ago', () => {
    expect(shouldTouch(at(5 * 60_000), NOW, 0, HOLD)).toBe(true);
  });

  it('does not touch twice within the interval', () => {
    expect(shouldTouch(at(5 * 60_000), NOW, NOW - TOUCH_INTERVAL_MS + 1, HOLD)).toBe(false);
  });

  it('does not touch a fresh cart or an expired one', () => {
    expect(shouldTouch(at(14 * 60_000), NOW, 0, HOLD)).toBe(false);
    expect(shouldTouch(at(-1), NOW, 0, HOLD)).toBe(false);
    expect(shouldTouch(undefined, NOW, 0, HOLD)).toBe(false);
  });

  it('measures "soon" by the hold of the settings', () => {
    expect(shouldTouch(at(2.5 * 60_000), NOW, 0, 3)).toBe(false);
    expect(shouldTouch(at(2 * 60_000), NOW, 0, 3)).toBe(true);
    expect(shouldTouch(at(40 * 60_000), NOW, 0, 60)).toBe(true);
    // Settings not loaded yet: any open cart.
    expect(shouldTouch(at(59 * 60_000), NOW, 0, undefined)).toBe(true);
    expect(shouldTouch(at(-1), NOW, 0, undefined)).toBe(false);
  });
});

describe('add answers', () => {
  const complete = { transactionId: 'x', expiredAt: at(900_000), ticket, tickets: [ticket] };

  it('accepts an answer with transactionId, expiredAt and ticket', () => {
    expect(isCompleteAddAnswer(complete)).toBe(true);
  });

  it.each(['transactionId', 'expiredAt', 'ticket'])(
    'counts an answer without %s as failed',
    (field) => {
      expect(isCompleteAddAnswer({ ...complete, [field]: undefined })).toBe(false);
    },
  );

  it('counts no answer as failed', () => {
    expect(isCompleteAddAnswer(null)).toBe(false);
    expect(isCompleteAddAnswer('ok')).toBe(false);
  });
});

describe('slot actions', () => {
  const slot = (failedRules: string[], ticketCount = 0, capacity = 4) => ({
    failedRules,
    ticketCount,
    capacity,
  });

  it('offers booking for a free slot without failed rules', () => {
    expect(slotAction(slot([]))).toBe('book');
  });

  it('shows the duplicate message for a slot already in the cart, before anything else', () => {
    expect(slotAction(slot(['timeslot_already_in_transaction'], 4))).toBe('in-cart');
  });

  it('shows the max reservations message when the cart is full', () => {
    expect(slotAction(slot(['max_tickets_per_transaction_reached']))).toBe('cart-full');
    expect(
      slotAction(slot(['max_tickets_per_time_reached', 'max_tickets_per_transaction_reached'])),
    ).toBe('cart-full');
  });

  it('names the per-visitor and the per-day maximum of the cart, before fully booked', () => {
    expect(slotAction(slot(['max_tickets_by_user_reached']))).toBe('visitor-full');
    expect(slotAction(slot(['max_tickets_per_day_reached']))).toBe('day-full');
    expect(slotAction(slot(['timeslot_no_tickets_left', 'max_tickets_per_day_reached'], 4))).toBe(
      'day-full',
    );
    expect(
      slotAction(slot(['max_tickets_per_transaction_reached', 'max_tickets_per_day_reached'])),
    ).toBe('cart-full');
    expect(slotAction(slot(['max_tickets_per_time_reached', 'max_tickets_per_day_reached']))).toBe(
      'day-full',
    );
  });

  it('shows fully booked when the server finds no seat left, whatever the counts say', () => {
    expect(slotAction(slot(['timeslot_no_tickets_left'], 4))).toBe('fully-booked');
    // Every seat counted, but holds among them have ended: the server offers a seat again.
    expect(slotAction(slot([], 4))).toBe('book');
    // Seats counted free, but the waitlist claims them: the server says none is left.
    expect(slotAction(slot(['timeslot_no_tickets_left'], 1))).toBe('fully-booked');
  });

  it('says that a slot overlaps one in the cart', () => {
    expect(slotAction(slot(['max_tickets_per_time_reached']))).toBe('overlap');
    expect(slotAction(slot(['max_tickets_per_time_reached', 'timeslot_no_tickets_left'], 4))).toBe(
      'overlap',
    );
  });

  it('shows temporarily full for any other failed rule', () => {
    expect(slotAction(slot(['something_new']))).toBe('unavailable');
  });
});

describe('days of the cart at the per-day maximum', () => {
  const tickets = [{ date: '2026-03-05' }, { date: '2026-03-04' }, { date: '2026-03-05' }];

  it('lists the days holding the maximum, in date order', () => {
    expect(fullDays(tickets, 2)).toEqual([{ date: '2026-03-05', count: 2 }]);
    expect(fullDays(tickets, 1)).toEqual([
      { date: '2026-03-04', count: 1 },
      { date: '2026-03-05', count: 2 },
    ]);
    expect(fullDays(tickets, 3)).toEqual([]);
    expect(fullDays([], 1)).toEqual([]);
  });

  it("counts each site's tickets of a day apart when the limits are per site", () => {
    const law = { date: '2026-03-05', siteId: 'law' };
    const main = { date: '2026-03-05', siteId: 'main' };
    expect(fullDays([law, main], 2, true)).toEqual([]);
    expect(fullDays([law, main], 2)).toEqual([{ date: '2026-03-05', count: 2 }]);
    expect(fullDays([law, law, main], 2, true)).toEqual([{ date: '2026-03-05', count: 2 }]);
  });
});

describe('messages of cart failures (docs/product.md#errors)', () => {
  const refused = (rule: string) => ({
    status: 409,
    data: { error: 'ticket__validation_error', payload: [rule] },
  });
  const failures: [string, unknown][] = [
    ['already in the cart', refused('timeslot_already_in_transaction')],
    ['cart full', refused('max_tickets_per_transaction_reached')],
    ['overlapping', refused('max_tickets_per_time_reached')],
    ['day full', refused('max_tickets_per_day_reached')],
    ['visitor full', refused('max_tickets_by_user_reached')],
    ['fully booked', refused('timeslot_no_tickets_left')],
    ['not open', refused('timeslot_not_open')],
    ['expired cart', { status: 409, data: { error: 'transaction__expired', payload: [] } }],
    ['human check', { status: 400, data: { error: 'recaptcha__validation_error' } }],
    ['incomplete answer', new BookingFailure('unknown')],
    ['human check not loaded', new BookingFailure('recaptcha__validation_error')],
  ];

  it.each([
    ['de', de, visitorDe],
    ['en', en, visitorEn],
  ])('%s has a specific message for every failure', (_language, main, visitor) => {
    const errors = mergeCatalogues(main, visitor)['common-error'] as Catalogue;
    for (const [name, failure] of failures) {
      const [key] = errorMessageKeys(failure);
      expect(errors[key!], name).toEqual(expect.any(String));
    }
  });

  it('uses the code and the rule as the key', () => {
    expect(errorMessageKeys(refused('timeslot_already_in_transaction'))[0]).toBe(
      'ticket__validation_error_timeslot_already_in_transaction',
    );
    expect(errorMessageKeys(new BookingFailure('unknown'))).toEqual(['unknown']);
  });
});

describe('formatTimeLeft', () => {
  it('shows minutes and seconds, rounding up and never below zero', () => {
    expect(formatTimeLeft(15 * 60_000)).toBe('15:00');
    expect(formatTimeLeft(65_500)).toBe('1:06');
    expect(formatTimeLeft(9_000)).toBe('0:09');
    expect(formatTimeLeft(-3_000)).toBe('0:00');
  });
});

describe('holdTimeLeft', () => {
  it('counts to the end, never more than the hold lasts', () => {
    const end = NOW + 15 * 60_000;
    expect(holdTimeLeft(end, NOW + 60_000, 15)).toBe(14 * 60_000);
    // The clock read 400 ms before the add that set the end: the hold's 15 minutes, not 15:01.
    expect(formatTimeLeft(holdTimeLeft(end, NOW - 400, 15))).toBe('15:00');
    // A device whose clock is two minutes behind the server's.
    expect(holdTimeLeft(end, NOW - 120_000, 15)).toBe(15 * 60_000);
    // Without the settings (still loading), the end alone.
    expect(holdTimeLeft(end, NOW - 400, undefined)).toBe(15 * 60_000 + 400);
    expect(holdTimeLeft(end, end + 5_000, 15)).toBe(-5_000);
  });
});

describe('the days of the cart', () => {
  it('are each named once, in date order', () => {
    expect(
      cartDays([{ date: '2026-03-05' }, { date: '2026-03-04' }, { date: '2026-03-05' }]),
    ).toEqual(['2026-03-04', '2026-03-05']);
  });
});
