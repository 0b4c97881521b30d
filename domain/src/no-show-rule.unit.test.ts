import { describe, expect, it } from 'vitest';
import { Refused } from './refusal.ts';
import {
  mustNotBeNoShowBlocked,
  noShowBlockedUntil,
  noShowDaysCounted,
  noShowsErasableThrough,
} from './no-show-rule.ts';

// Politecnico di Milano's rule: two no-shows within 30 days block for 14 days.
const rule = { limit: 2, windowDays: 30, blockDays: 14 };

describe('the no-show rule', () => {
  it('counts no release up to a lift, and later ones from none', () => {
    const days = ['2026-11-01', '2026-11-02', '2026-11-20'];
    expect(noShowDaysCounted(days, null)).toEqual(days);
    expect(noShowDaysCounted(days, '2026-11-02')).toEqual(['2026-11-20']);
    expect(
      noShowBlockedUntil(noShowDaysCounted(days, '2026-11-02'), '2026-11-20', rule),
    ).toBeNull();
  });

  it('is off without its settings, and below the limit', () => {
    expect(noShowBlockedUntil(['2026-11-01', '2026-11-02'], '2026-11-03', undefined)).toBeNull();
    expect(noShowBlockedUntil(['2026-11-02'], '2026-11-03', rule)).toBeNull();
  });

  it('blocks from the release that reached the limit within the window, for the block days', () => {
    // 1 and 30 November lie within 30 days: blocked 30 November to 13 December.
    expect(noShowBlockedUntil(['2026-11-30', '2026-11-01'], '2026-11-30', rule)).toBe('2026-12-13');
    expect(noShowBlockedUntil(['2026-11-01', '2026-11-30'], '2026-12-13', rule)).toBe('2026-12-13');
    expect(noShowBlockedUntil(['2026-11-01', '2026-11-30'], '2026-12-14', rule)).toBeNull();
    // 1 November and 1 December are 31 days: no block.
    expect(noShowBlockedUntil(['2026-11-01', '2026-12-01'], '2026-12-01', rule)).toBeNull();
    // A later release with one within the window before it starts a later block.
    expect(noShowBlockedUntil(['2026-11-01', '2026-11-02', '2026-11-25'], '2026-11-25', rule)).toBe(
      '2026-12-08',
    );
  });

  it('refuses with the last blocked day', () => {
    try {
      mustNotBeNoShowBlocked(['2026-11-01', '2026-11-02'], '2026-11-05', rule);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(Refused);
      expect((err as Refused).refusal).toEqual({
        code: 'booking__no_show_blocked',
        until: '2026-11-15',
      });
    }
  });

  it('keeps a release as long as its window and a block from it may last', () => {
    expect(noShowsErasableThrough('2026-12-31', rule)).toBe('2026-11-17');
    expect(noShowsErasableThrough('2026-12-31', undefined)).toBe('2026-12-31');
  });
});
