import { describe, expect, it } from 'vitest';
import { defaultBookingLimits } from '@rr/platform';
import { cartRules, timesOverlap, type CartRuleSlot } from './cart-rules.ts';

const slot = (id: string, date: string, startTime: string, endTime: string): CartRuleSlot => ({
  timeSlotId: id,
  date,
  startTime,
  endTime,
});
const limits = { maxCartTickets: 3, maxTicketsPerDay: 1, maxTicketsPerVisitor: 10 };

describe('cart rules', () => {
  it('lets an empty cart take any slot', () => {
    expect(cartRules([], slot('a', '2026-12-01', '09:00', '10:00'), limits)).toEqual([]);
  });

  it('says only "already in the cart" for a slot of the cart', () => {
    const a = slot('a', '2026-12-01', '09:00', '10:00');
    expect(cartRules([a], a, { ...limits, maxCartTickets: 1 })).toEqual([
      'timeslot_already_in_transaction',
    ]);
  });

  it('marks a day whose cart tickets are at the per-day maximum, with an overlap first', () => {
    const cart = [slot('a', '2026-12-01', '09:00', '10:00')];
    expect(cartRules(cart, slot('b', '2026-12-01', '11:00', '12:00'), limits)).toEqual([
      'max_tickets_per_day_reached',
    ]);
    expect(cartRules(cart, slot('c', '2026-12-01', '09:30', '10:30'), limits)).toEqual([
      'max_tickets_per_time_reached',
      'max_tickets_per_day_reached',
    ]);
    expect(cartRules(cart, slot('d', '2026-12-02', '09:00', '10:00'), limits)).toEqual([]);
    const two = { ...limits, maxTicketsPerDay: 2 };
    expect(cartRules(cart, slot('b', '2026-12-01', '11:00', '12:00'), two)).toEqual([]);
  });

  it('marks every slot of a full cart, first of all', () => {
    const cart = [
      slot('a', '2026-12-01', '09:00', '10:00'),
      slot('b', '2026-12-02', '09:00', '10:00'),
      slot('c', '2026-12-03', '09:00', '10:00'),
    ];
    expect(cartRules(cart, slot('d', '2026-12-04', '09:00', '10:00'), limits)).toEqual([
      'max_tickets_per_transaction_reached',
    ]);
    expect(cartRules(cart, slot('e', '2026-12-01', '11:00', '12:00'), limits)).toEqual([
      'max_tickets_per_transaction_reached',
      'max_tickets_per_day_reached',
    ]);
  });

  it('marks a cart holding the per-visitor maximum when that is below the cart size', () => {
    const cart = [
      slot('a', '2026-12-01', '09:00', '10:00'),
      slot('b', '2026-12-02', '09:00', '10:00'),
    ];
    const few = { ...limits, maxTicketsPerVisitor: 2 };
    expect(cartRules(cart, slot('c', '2026-12-03', '09:00', '10:00'), few)).toEqual([
      'max_tickets_by_user_reached',
    ]);
  });

  it('follows the configuration defaults: 5 per cart, 2 per day', () => {
    const cart = [
      slot('a', '2026-12-01', '09:00', '10:00'),
      slot('b', '2026-12-01', '11:00', '12:00'),
    ];
    expect(
      cartRules(cart, slot('c', '2026-12-01', '13:00', '14:00'), defaultBookingLimits),
    ).toEqual(['max_tickets_per_day_reached']);
    const five = ['01', '02', '03', '04', '07'].map((d) =>
      slot(d, `2026-12-${d}`, '09:00', '10:00'),
    );
    expect(
      cartRules(five, slot('x', '2026-12-08', '09:00', '10:00'), defaultBookingLimits),
    ).toEqual(['max_tickets_per_transaction_reached']);
  });
});

describe('cart rules per site (LIMITS_PER_SITE)', () => {
  const at = (site: string, id: string, date: string, start: string, end: string) => ({
    ...slot(id, date, start, end),
    siteId: site,
  });
  const law = (id: string, start: string, end: string) => at('law', id, '2026-12-01', start, end);
  const main = (id: string, start: string, end: string) => at('main', id, '2026-12-01', start, end);
  const perSite = { ...limits, maxTicketsPerDay: 1, maxTicketsPerVisitor: 2 };

  it('counts across sites while off: a person at her day’s limit at one site is at it everywhere', () => {
    const held = [law('a', '09:00', '10:00')];
    expect(cartRules(held, main('b', '11:00', '12:00'), perSite)).toEqual([
      'max_tickets_per_day_reached',
    ]);
    expect(
      cartRules(held, main('b', '11:00', '12:00'), { ...perSite, limitsPerSite: false }),
    ).toEqual(['max_tickets_per_day_reached']);
  });

  it('counts only the slot’s site while on: the day and the total maxima of each site apart', () => {
    const on = { ...perSite, limitsPerSite: true };
    const held = [law('a', '09:00', '10:00'), at('law', 'b', '2026-12-02', '09:00', '10:00')];
    // At her law library's limits (a day's one, a total of two), the main library still takes her.
    expect(cartRules(held, main('c', '11:00', '12:00'), on)).toEqual([]);
    expect(cartRules(held, law('d', '11:00', '12:00'), on)).toEqual([
      'max_tickets_by_user_reached',
      'max_tickets_per_day_reached',
    ]);
  });

  it('keeps the overlap and the cart’s size across sites: one person is at one place at a time', () => {
    const on = { ...perSite, limitsPerSite: true, maxCartTickets: 1 };
    expect(cartRules([law('a', '09:00', '10:00')], main('b', '09:30', '10:30'), on)).toEqual([
      'max_tickets_per_transaction_reached',
      'max_tickets_per_time_reached',
    ]);
  });

  it('refuses to count a ticket whose site the loader did not give', () => {
    const on = { ...perSite, limitsPerSite: true };
    expect(() =>
      cartRules([slot('a', '2026-12-01', '09:00', '10:00')], main('b', '11:00', '12:00'), on),
    ).toThrow(/site/);
    // Nothing held: nothing to count, whatever the slot names.
    expect(cartRules([], slot('b', '2026-12-01', '11:00', '12:00'), on)).toEqual([]);
  });
});

describe('times overlap', () => {
  it('counts shared minutes, not touching ends', () => {
    const nine = { startTime: '09:00', endTime: '10:00' };
    expect(timesOverlap(nine, { startTime: '09:59', endTime: '11:00' })).toBe(true);
    expect(timesOverlap(nine, { startTime: '10:00', endTime: '11:00' })).toBe(false);
    expect(timesOverlap(nine, { startTime: '08:00', endTime: '09:00' })).toBe(false);
  });
});
