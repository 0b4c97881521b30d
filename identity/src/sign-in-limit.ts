/**
 * How failed sign-ins slow down guessing, without ever locking out a correct password for long.
 * Pure: the counters come from and go to PostgreSQL (sign-in-limit-store.ts), the time from the
 * injected clock.
 *
 * Failures are counted in three scopes, each in a fixed window (by default 15 minutes from its
 * first failure):
 * - `account_address`: one user name from one client address (someone mistyping, or guessing one
 *   account); a successful sign-in resets it.
 * - `address`: every user name from one address (spraying many accounts); a larger budget, as one
 *   library's NAT may carry many staff.
 * - `account`: one user name from every address (distributed guessing); a higher threshold.
 * Only failures count: an attempt is counted before its password is checked (so attempts sent in
 * parallel cannot all pass a limit at once) and uncounted when it succeeds. Once a scope reaches
 * its threshold, every further attempt waits a delay after the scope's last failure: the first
 * delay, doubled with each further failure, never more than the maximum delay. Refused attempts
 * are not counted, so waiting always ends the refusal and a correct password then signs in.
 */
import type { Config } from '@rr/platform';

export type SignInScope = 'account_address' | 'address' | 'account';

/** In this order the rows of an attempt are locked: one order everywhere, so no deadlock. */
export const SIGN_IN_SCOPES: readonly SignInScope[] = ['account', 'account_address', 'address'];

export interface FailureCounter {
  /** Failures in the current window. */
  failures: number;
  windowStart: Date;
  lastFailureAt: Date;
}

export type FailureCounters = Record<SignInScope, FailureCounter>;

export interface SignInLimits {
  /** How long a window counts failures, from its first failure. */
  windowMs: number;
  /** Failures in a window after which a scope delays further attempts. */
  maxFailures: Record<SignInScope, number>;
  /** The delay at the threshold; it doubles with each further failure. */
  firstDelayMs: number;
  /** The longest delay: no correct password waits longer than this. */
  maxDelayMs: number;
}

/** The delay before the first refused attempt, unless the maximum delay is shorter. */
export const FIRST_SIGN_IN_DELAY_MS = 30_000;

export function signInLimitsFrom(config: Config): SignInLimits {
  const maxDelayMs = config.SIGN_IN_MAX_DELAY_SECONDS * 1000;
  return {
    windowMs: config.SIGN_IN_FAILURE_WINDOW_MINUTES * 60_000,
    maxFailures: {
      account_address: config.SIGN_IN_FAILURES_PER_ACCOUNT_ADDRESS,
      address: config.SIGN_IN_FAILURES_PER_ADDRESS,
      account: config.SIGN_IN_FAILURES_PER_ACCOUNT,
    },
    firstDelayMs: Math.min(FIRST_SIGN_IN_DELAY_MS, maxDelayMs),
    maxDelayMs,
  };
}

/** A counter with no failures (a scope never seen, or reset). */
export function noFailures(now: Date): FailureCounter {
  return { failures: 0, windowStart: now, lastFailureAt: now };
}

/** How long a scope with this many failures delays the next attempt after its last failure. */
export function delayAfter(failures: number, threshold: number, limits: SignInLimits): number {
  if (failures < threshold) return 0;
  const doublings = Math.min(failures - threshold, 30);
  return Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** doublings);
}

/** Until when a scope refuses attempts (null: it does not). */
export function lockedUntil(
  counter: FailureCounter,
  scope: SignInScope,
  limits: SignInLimits,
): Date | null {
  const delay = delayAfter(counter.failures, limits.maxFailures[scope], limits);
  return delay > 0 ? new Date(counter.lastFailureAt.getTime() + delay) : null;
}

/** When a counter's row may be deleted: its window has ended and no delay is running. */
export function expiresAt(counter: FailureCounter, scope: SignInScope, limits: SignInLimits): Date {
  if (counter.failures === 0) return counter.lastFailureAt;
  const windowEnd = counter.windowStart.getTime() + limits.windowMs;
  const lockEnd = lockedUntil(counter, scope, limits)?.getTime() ?? 0;
  return new Date(Math.max(windowEnd, lockEnd));
}

export type AttemptDecision =
  | { allowed: false; retryAfterSeconds: number; scope: SignInScope }
  /** The counters with this attempt counted as a failure (uncounted by `afterSuccess`). */
  | { allowed: true; counters: FailureCounters };

/** Whether a sign-in attempt may check its password now, given the counters of its scopes. */
export function decideSignInAttempt(
  counters: FailureCounters,
  now: Date,
  limits: SignInLimits,
): AttemptDecision {
  let refusedUntil = 0;
  let refusedBy: SignInScope | null = null;
  for (const scope of SIGN_IN_SCOPES) {
    const until = lockedUntil(counters[scope], scope, limits)?.getTime() ?? 0;
    if (until > now.getTime() && until > refusedUntil) {
      refusedUntil = until;
      refusedBy = scope;
    }
  }
  if (refusedBy) {
    const retryAfterSeconds = Math.max(1, Math.ceil((refusedUntil - now.getTime()) / 1000));
    return { allowed: false, retryAfterSeconds, scope: refusedBy };
  }
  const counted = (c: FailureCounter): FailureCounter =>
    c.failures === 0 || now.getTime() >= c.windowStart.getTime() + limits.windowMs
      ? { failures: 1, windowStart: now, lastFailureAt: now }
      : { failures: c.failures + 1, windowStart: c.windowStart, lastFailureAt: now };
  return {
    allowed: true,
    counters: {
      account_address: counted(counters.account_address),
      address: counted(counters.address),
      account: counted(counters.account),
    },
  };
}

/**
 * The counters after the attempt counted as `counted` (from `before`) signed in: the account's
 * counter from this address is reset; the attempt is taken back from the others, and their last
 * failure is the one before it again, unless other failures came meanwhile (a new window, or a
 * later failure, stays as it is).
 */
export function afterSuccess(
  current: FailureCounters,
  before: FailureCounters,
  counted: FailureCounters,
  now: Date,
): FailureCounters {
  const uncount = (scope: SignInScope): FailureCounter => {
    const c = current[scope];
    const mine = counted[scope];
    if (c.windowStart.getTime() !== mine.windowStart.getTime() || c.failures === 0) return c;
    const untouched = c.lastFailureAt.getTime() === mine.lastFailureAt.getTime();
    return {
      failures: c.failures - 1,
      windowStart: c.windowStart,
      lastFailureAt: untouched ? before[scope].lastFailureAt : c.lastFailureAt,
    };
  };
  return {
    account_address: noFailures(now),
    address: uncount('address'),
    account: uncount('account'),
  };
}
