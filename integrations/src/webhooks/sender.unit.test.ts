import { describe, expect, it } from 'vitest';
import { retryDelayMs, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_RETRY_MS } from './sender.ts';

describe('the retry delays of webhook deliveries', () => {
  it('retry the first failure within a minute, then wait longer each time, at most four hours', () => {
    expect(retryDelayMs(1)).toBeLessThanOrEqual(60_000);
    for (let n = 2; n <= WEBHOOK_RETRY_DELAYS_MS.length; n++)
      expect(retryDelayMs(n)).toBeGreaterThan(retryDelayMs(n - 1));
    expect(retryDelayMs(50)).toBe(4 * 60 * 60_000);
  });

  it('keep trying for the whole day before a delivery is given up', () => {
    let elapsed = 0;
    let attempts = 1;
    while (elapsed < WEBHOOK_RETRY_MS) {
      elapsed += retryDelayMs(attempts);
      attempts += 1;
    }
    // About a dozen attempts in 24 hours: enough for a receiver back after a day's outage.
    expect(attempts).toBeGreaterThanOrEqual(10);
    expect(attempts).toBeLessThanOrEqual(16);
  });
});
