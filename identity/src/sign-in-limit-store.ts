import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ipKeyGenerator } from 'express-rate-limit';
import { type Clock, inTransaction } from '@rr/platform';
import {
  afterSuccess,
  decideSignInAttempt,
  expiresAt,
  noFailures,
  SIGN_IN_SCOPES,
  type FailureCounters,
  type SignInLimits,
  type SignInScope,
} from './sign-in-limit.ts';

/** An attempt that may check its password: counted as a failure until `succeeded` says otherwise. */
export interface SignInAttempt {
  allowed: true;
  subjects: Record<SignInScope, string>;
  before: FailureCounters;
  counted: FailureCounters;
}

export type SignInAttemptResult =
  SignInAttempt | { allowed: false; retryAfterSeconds: number; scope: SignInScope };

/**
 * The client address a limit counts: IPv4 as it is, IPv6 by its /56 network (one subscriber
 * usually has a whole range), an IPv4-mapped IPv6 address as the IPv4 one.
 */
export function clientAddressKey(ip: string | undefined): string {
  return ip ? ipKeyGenerator(ip) : 'unknown';
}

/**
 * The failed sign-in counters, in PostgreSQL (`sign_in_failures`, migration 016), so every process
 * and every restart shares them. An attempt locks its three rows (in one order, so two attempts
 * never deadlock), the decider decides, the new counters are written, all in one short
 * transaction: two processes cannot both pass a limit with the same failure. Times are the
 * clock's, given as parameters.
 */
export class SignInLimitStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    private readonly limits: SignInLimits,
  ) {}

  /** Counts the attempt as a failure and lets it check its password, or refuses it. */
  async attempt(username: string, address: string): Promise<SignInAttemptResult> {
    const now = this.clock.now();
    await this.removeExpired(now);
    const subjects = signInSubjects(username, address);
    return inTransaction(this.pool, async (client) => {
      const before = await this.lock(client, subjects, now);
      const decision = decideSignInAttempt(before, now, this.limits);
      if (!decision.allowed) return decision;
      await this.write(client, subjects, decision.counters);
      return { allowed: true, subjects, before, counted: decision.counters };
    });
  }

  /** The attempt signed in: reset its account's counter from its address, uncount it elsewhere. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const now = this.clock.now();
    await inTransaction(this.pool, async (client) => {
      const current = await this.lock(client, attempt.subjects, now);
      await this.write(
        client,
        attempt.subjects,
        afterSuccess(current, attempt.before, attempt.counted, now),
      );
    });
  }

  /**
   * Locks the attempt's rows (creating missing ones without failures) and reads them. The rows
   * come in the order of SIGN_IN_SCOPES, and an INSERT takes its rows' locks in its VALUES order.
   */
  private async lock(
    client: pg.PoolClient,
    subjects: Record<SignInScope, string>,
    now: Date,
  ): Promise<FailureCounters> {
    const r = await client.query<{
      scope: SignInScope;
      failures: number;
      window_start: Date;
      last_failure_at: Date;
    }>(
      `INSERT INTO sign_in_failures AS f
              (scope, subject, failures, window_start, last_failure_at, expires_at)
       VALUES ($1, $2, 0, $7, $7, $7), ($3, $4, 0, $7, $7, $7), ($5, $6, 0, $7, $7, $7)
       ON CONFLICT (scope, subject) DO UPDATE SET failures = f.failures
       RETURNING scope, failures, window_start, last_failure_at`,
      [...SIGN_IN_SCOPES.flatMap((scope) => [scope, subjects[scope]]), now],
    );
    const counters: FailureCounters = {
      account: noFailures(now),
      account_address: noFailures(now),
      address: noFailures(now),
    };
    for (const row of r.rows) {
      counters[row.scope] = {
        failures: row.failures,
        windowStart: row.window_start,
        lastFailureAt: row.last_failure_at,
      };
    }
    return counters;
  }

  private async write(
    client: pg.PoolClient,
    subjects: Record<SignInScope, string>,
    counters: FailureCounters,
  ): Promise<void> {
    const rows = SIGN_IN_SCOPES.map((scope) => ({
      scope,
      subject: subjects[scope],
      ...counters[scope],
    }));
    await client.query(
      `UPDATE sign_in_failures f
          SET failures = u.failures, window_start = u.window_start,
              last_failure_at = u.last_failure_at, expires_at = u.expires_at
         FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::timestamptz[],
                     $6::timestamptz[])
              AS u(scope, subject, failures, window_start, last_failure_at, expires_at)
        WHERE f.scope = u.scope AND f.subject = u.subject`,
      [
        rows.map((r) => r.scope),
        rows.map((r) => r.subject),
        rows.map((r) => r.failures),
        rows.map((r) => r.windowStart),
        rows.map((r) => r.lastFailureAt),
        rows.map((r) => expiresAt(r, r.scope, this.limits)),
      ],
    );
  }

  /**
   * Deletes counters whose window has ended and whose delay has run out (a few at a time, on
   * every attempt). Skips rows that an attempt holds, so it never waits and never deadlocks.
   */
  private async removeExpired(now: Date): Promise<void> {
    await this.pool.query(
      `DELETE FROM sign_in_failures
        WHERE (scope, subject) IN (
          SELECT scope, subject FROM sign_in_failures
           WHERE expires_at <= $1
           LIMIT 200
             FOR UPDATE SKIP LOCKED)`,
      [now],
    );
  }
}

/**
 * What the counters of an attempt are keyed by: digests, not the text, since a password typed
 * into the user-name field must not be stored, and the counters only need equality.
 */
export function signInSubjects(username: string, address: string): Record<SignInScope, string> {
  return {
    account: digest(['account', username]),
    account_address: digest(['account_address', username, address]),
    address: digest(['address', address]),
  };
}

const digest = (parts: string[]) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
