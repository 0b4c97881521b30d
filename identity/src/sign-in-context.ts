import type { Request, Response } from 'express';
import type pg from 'pg';
import type { Clock, Logger } from '@rr/platform';
import { startStaffSession } from './sessions.ts';
import {
  campusAccount,
  type CampusSignInMethod,
  type KnownSiteSlugs,
  type SignInRecords,
  type StaffSignInPolicy,
} from './staff-sso.ts';
import { SIGN_IN_REFUSED } from './staff-return-path.ts';

/** What every sign-in route works with: the accounts' database, the time, the rules, the record. */
export interface SignInContext {
  pool: pg.Pool;
  clock: Clock;
  policy: StaffSignInPolicy;
  records: SignInRecords;
  logger?: Logger | undefined;
  /** Which slugs name sites: roles the role map gives for other slugs are left out. */
  knownSiteSlugs?: KnownSiteSlugs | undefined;
}

/** A person the campus identity provider vouched for: the name and groups it answered. */
export interface CampusIdentity {
  username: string;
  groups: readonly string[];
  /** OpenID Connect: the ID token, kept for the sign-out at the provider. */
  idToken?: string | undefined;
}

/**
 * The end of every campus sign-in (OpenID Connect, SAML) once its provider answered: the account
 * by the person's groups now (campusAccount), then the staff session and the way back into the
 * staff app, or the page of the refusal; each outcome recorded. `keepSession` saves what the
 * route changed of the session before a refusal's redirect (OIDC's pending sign-in, used once).
 */
export async function finishCampusSignIn(
  ctx: SignInContext,
  req: Request,
  res: Response,
  method: CampusSignInMethod,
  identity: CampusIdentity | Error,
  returnTo: string,
  keepSession: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  if (identity instanceof Error) {
    await ctx.records.record(method, '', 'refused', 'provider-refused');
    await keepSession();
    res.redirect(302, SIGN_IN_REFUSED.failed);
    return;
  }
  const account = await campusAccount(
    ctx.pool,
    ctx.clock,
    ctx.policy,
    method,
    identity.username,
    identity.groups,
    { known: ctx.knownSiteSlugs, logger: ctx.logger },
  );
  if (!account.ok) {
    await ctx.records.record(method, identity.username, 'refused', account.reason);
    await keepSession();
    res.redirect(302, SIGN_IN_REFUSED.noRole);
    return;
  }
  await startStaffSession(
    req,
    account.user,
    account.generation,
    method,
    ctx.clock.now().getTime() + ctx.policy.campusSessionMs,
    { idToken: identity.idToken },
  );
  await ctx.records.record(method, identity.username, 'signed-in');
  res.redirect(302, returnTo);
}
