import { describe, expect, it } from 'vitest';
import { loadConfig } from '@rr/platform';
import {
  afterSuccess,
  decideSignInAttempt,
  delayAfter,
  expiresAt,
  noFailures,
  signInLimitsFrom,
  type FailureCounters,
  type SignInLimits,
} from './sign-in-limit.ts';

const limits: SignInLimits = {
  windowMs: 15 * 60_000,
  maxFailures: { account_address: 5, address: 50, account: 25 },
  firstDelayMs: 30_000,
  maxDelayMs: 300_000,
};
const T0 = new Date('2030-03-04T08:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const none = (): FailureCounters => ({
  account_address: noFailures(T0),
  address: noFailures(T0),
  account: noFailures(T0),
});

/** Fails `n` attempts, one at each of `times` (seconds after T0), as the store would count them. */
function fail(counters: FailureCounters, times: number[]): FailureCounters {
  let c = counters;
  for (const t of times) {
    const d = decideSignInAttempt(c, at(t), limits);
    if (!d.allowed) throw new Error(`refused at ${t}s`);
    c = d.counters;
  }
  return c;
}

describe('sign-in limits', () => {
  it('come from the configuration, with a first delay no longer than the maximum', () => {
    expect(signInLimitsFrom(loadConfig({}))).toEqual(limits);
    const short = signInLimitsFrom(loadConfig({ SIGN_IN_MAX_DELAY_SECONDS: '10' }));
    expect(short.firstDelayMs).toBe(10_000);
    expect(short.maxDelayMs).toBe(10_000);
    expect(() => loadConfig({ SIGN_IN_FAILURES_PER_ADDRESS: '0' })).toThrow(
      /SIGN_IN_FAILURES_PER_ADDRESS/,
    );
  });

  it('delay from the threshold on, doubling, never more than the maximum', () => {
    expect([4, 5, 6, 7, 8, 9, 50, 10_000].map((n) => delayAfter(n, 5, limits))).toEqual([
      0, 30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000,
    ]);
  });

  it('counts an attempt as a failure in every scope, in a window from its first failure', () => {
    const d = decideSignInAttempt(none(), at(0), limits);
    expect(d).toEqual({
      allowed: true,
      counters: {
        account_address: { failures: 1, windowStart: at(0), lastFailureAt: at(0) },
        address: { failures: 1, windowStart: at(0), lastFailureAt: at(0) },
        account: { failures: 1, windowStart: at(0), lastFailureAt: at(0) },
      },
    });
    const later = fail(none(), [0, 60, 120]);
    expect(later.account_address).toEqual({
      failures: 3,
      windowStart: at(0),
      lastFailureAt: at(120),
    });
    // After the window a failure starts a new one.
    expect(fail(later, [900]).address).toEqual({
      failures: 1,
      windowStart: at(900),
      lastFailureAt: at(900),
    });
  });

  it('refuses the attempt after the fifth failure of one account from one address, until the delay ends', () => {
    const c = fail(none(), [0, 1, 2, 3, 4]);
    expect(decideSignInAttempt(c, at(5), limits)).toEqual({
      allowed: false,
      retryAfterSeconds: 29,
      scope: 'account_address',
    });
    expect(decideSignInAttempt(c, at(33.5), limits)).toMatchObject({ retryAfterSeconds: 1 });
    expect(decideSignInAttempt(c, at(34), limits).allowed).toBe(true);
    // The next failure doubles the delay; refused attempts do not count.
    const c6 = fail(c, [34]);
    expect(decideSignInAttempt(c6, at(35), limits)).toMatchObject({ retryAfterSeconds: 59 });
    expect(decideSignInAttempt(c6, at(94), limits).allowed).toBe(true);
  });

  it('never refuses for longer than the maximum delay', () => {
    let c = none();
    let t = 0;
    for (let i = 0; i < 40; i++) {
      const d = decideSignInAttempt(c, at(t), limits);
      if (d.allowed) c = d.counters;
      else {
        expect(d.retryAfterSeconds).toBeLessThanOrEqual(300);
        t += d.retryAfterSeconds;
      }
    }
    expect(c.account_address.failures).toBeGreaterThan(5);
    expect(t).toBeGreaterThan(300);
  });

  it('refuses an address after its budget across user names, and an account after its own across addresses', () => {
    // 50 failures from one address, 5 per user name: the next user name is refused there.
    const address: FailureCounters = {
      ...none(),
      address: { failures: 50, windowStart: at(0), lastFailureAt: at(100) },
    };
    expect(decideSignInAttempt(address, at(110), limits)).toEqual({
      allowed: false,
      retryAfterSeconds: 20,
      scope: 'address',
    });
    const account: FailureCounters = {
      ...none(),
      account: { failures: 26, windowStart: at(0), lastFailureAt: at(100) },
    };
    expect(decideSignInAttempt(account, at(110), limits)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 50,
      scope: 'account',
    });
    expect(decideSignInAttempt(account, at(160), limits).allowed).toBe(true);
  });

  it('answers the longest wait of the refusing scopes', () => {
    const c: FailureCounters = {
      account_address: { failures: 5, windowStart: at(0), lastFailureAt: at(10) },
      address: noFailures(T0),
      account: { failures: 27, windowStart: at(0), lastFailureAt: at(10) },
    };
    expect(decideSignInAttempt(c, at(20), limits)).toMatchObject({
      retryAfterSeconds: 110,
      scope: 'account',
    });
  });

  it('keeps a counter until its window has ended and its delay has run out', () => {
    const c = fail(none(), [0, 1, 2, 3, 4]);
    expect(expiresAt(c.address, 'address', limits)).toEqual(at(900));
    const locked = { failures: 9, windowStart: at(0), lastFailureAt: at(800) };
    expect(expiresAt(locked, 'account_address', limits)).toEqual(at(1100));
    expect(expiresAt(noFailures(at(5)), 'account', limits)).toEqual(at(5));
  });
});

describe('sign-in limits after a success', () => {
  it('a success resets its account from its address and takes the attempt back elsewhere', () => {
    const before = fail(none(), [0, 10, 20]);
    const d = decideSignInAttempt(before, at(30), limits);
    if (!d.allowed) throw new Error('refused');
    const after = afterSuccess(d.counters, before, d.counters, at(31));
    expect(after.account_address.failures).toBe(0);
    expect(after.address).toEqual(before.address);
    expect(after.account).toEqual(before.account);
  });

  it('a success does not lock: an address at its budget stays free after a staff sign-in', () => {
    const before: FailureCounters = {
      ...none(),
      address: { failures: 50, windowStart: at(0), lastFailureAt: at(10) },
    };
    const d = decideSignInAttempt(before, at(60), limits);
    if (!d.allowed) throw new Error('refused');
    expect(d.counters.address.failures).toBe(51);
    const after = afterSuccess(d.counters, before, d.counters, at(61));
    expect(after.address).toEqual(before.address);
    expect(decideSignInAttempt(after, at(61), limits).allowed).toBe(true);
  });

  it('a success keeps failures counted meanwhile, and a window started meanwhile', () => {
    const before = fail(none(), [0]);
    const d = decideSignInAttempt(before, at(10), limits);
    if (!d.allowed) throw new Error('refused');
    // Another attempt failed from the same address while this one checked its password.
    const meanwhile = fail(d.counters, [11]);
    const after = afterSuccess(meanwhile, before, d.counters, at(12));
    expect(after.address).toEqual({ failures: 2, windowStart: at(0), lastFailureAt: at(11) });
    const newWindow = fail(d.counters, [1000]);
    expect(afterSuccess(newWindow, before, d.counters, at(1001)).address).toEqual(
      newWindow.address,
    );
  });
});
