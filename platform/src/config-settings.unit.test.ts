import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { bookingLimitsOf } from './config-settings.ts';

const ALL = { NO_SHOW_LIMIT: '2', NO_SHOW_WINDOW_DAYS: '30', NO_SHOW_BLOCK_DAYS: '14' };

describe('the no-show rule of the settings (docs/product.md#no-show-rule)', () => {
  it('is on with all three settings', () => {
    expect(bookingLimitsOf(loadConfig(ALL)).noShowRule).toEqual({
      limit: 2,
      windowDays: 30,
      blockDays: 14,
    });
  });

  it.each(Object.keys(ALL))('is off without %s, whatever the other two say', (left) => {
    const env: Record<string, string> = { ...ALL };
    delete env[left];
    expect(bookingLimitsOf(loadConfig(env))).not.toHaveProperty('noShowRule');
  });

  it('is off by default', () => {
    expect(bookingLimitsOf(loadConfig({}))).not.toHaveProperty('noShowRule');
  });
});

describe('the limits of the settings', () => {
  it('are the documented defaults: a cart of 5 held 15 minutes, 2 a day, 10 in all, counted library-wide', () => {
    expect(bookingLimitsOf(loadConfig({}))).toEqual({
      holdMinutes: 15,
      maxCartTickets: 5,
      maxTicketsPerDay: 2,
      maxTicketsPerVisitor: 10,
    });
  });

  it('count per site with LIMITS_PER_SITE=true', () => {
    expect(bookingLimitsOf(loadConfig({ LIMITS_PER_SITE: 'true' })).limitsPerSite).toBe(true);
  });
});
