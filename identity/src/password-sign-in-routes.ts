import type { Request } from 'express';
import { SignInInput } from '@rr/contracts';
import {
  defineRoute,
  fromContract,
  Problem,
  problems,
  type RouteDef,
  type SessionUser,
  staffUserOf,
} from '@rr/platform';
import { DirectoryUnavailable, type LdapDirectory, type LdapResult } from './ldap-sign-in.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import { startStaffSession } from './sessions.ts';
import type { SignInContext } from './sign-in-context.ts';
import { clientAddressKey, type SignInLimitStore } from './sign-in-limit-store.ts';
import { campusAccount, localSignInAllowed, noStaffRole } from './staff-sso.ts';
import { UserSchema, userAnswer } from './user-schema.ts';

const LoginBody = fromContract(SignInInput);

const wrongCredentials = () =>
  new Problem(401, 'auth__invalid_credentials', 'Wrong user name or password');

interface Credentials {
  username: string;
  password: string;
}

/**
 * The sign-in form: a local account's password, or, with a directory (LDAP_URL), the
 * directory's for every name that is not a local account allowed to sign in here.
 */
export function passwordSignInRoutes(
  ctx: SignInContext,
  limiter: SignInLimitStore,
  ldap: LdapDirectory | null,
): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/login',
      summary: 'Sign in as staff',
      tags: ['auth'],
      access: 'public',
      body: LoginBody,
      responses: {
        200: { description: 'Signed in', schema: UserSchema },
        401: { description: 'Wrong credentials' },
        429: { description: 'Too many failed sign-ins: wait Retry-After seconds' },
      },
      handler: async ({ body, req }) => {
        // Failed sign-ins delay further attempts per user name and address, per address and per
        // user name; unknown users count like known ones, so a refusal tells nothing either.
        const attempt = await limiter.attempt(body.username, clientAddressKey(req.ip));
        if (!attempt.allowed) {
          ctx.logger?.warn({ scope: attempt.scope }, 'sign-in refused after repeated failures');
          throw new Problem(
            429,
            'http__too_many_requests',
            'Too many failed sign-ins, please try again later',
            [],
            undefined,
            { 'Retry-After': String(attempt.retryAfterSeconds) },
          );
        }
        const r = await ctx.pool.query<LocalAccount>(
          `SELECT password_hash, roles, session_generation, source FROM admin_users
           WHERE username = $1`,
          [body.username],
        );
        const row = r.rows[0];
        const local = row?.source === 'local' ? row : undefined;
        const allowed = localSignInAllowed(ctx.policy, body.username);
        // Once the credentials are right: the attempt no longer counts as a failure.
        const succeeded = () => limiter.succeeded(attempt);
        // The directory answers for every name that is not a local account allowed to sign in
        // with its password here; without a directory such a name is refused like a wrong one.
        const user =
          ldap && !(local && allowed)
            ? await directorySignIn(ctx, ldap, body, req, succeeded)
            : await localSignIn(ctx, body, req, succeeded, local, allowed);
        return { body: userAnswer(user) };
      },
    }),
  ];
}

interface LocalAccount {
  password_hash: string | null;
  roles: string[];
  session_generation: number;
  source: string;
}

/** Signs in with the directory's password; the account and its roles come from its groups. */
async function directorySignIn(
  ctx: SignInContext,
  ldap: LdapDirectory,
  credentials: Credentials,
  req: Request,
  succeeded: () => Promise<void>,
): Promise<SessionUser> {
  const username = credentials.username.toLowerCase();
  let result: LdapResult;
  try {
    result = await ldap.authenticate(username, credentials.password);
  } catch (err) {
    if (!(err instanceof DirectoryUnavailable)) throw err;
    ctx.logger?.error({ err: err.message }, 'the directory (LDAP) could not be asked');
    throw problems.unavailable();
  }
  if (!result.ok) {
    await ctx.records.record('ldap', username, 'refused', 'wrong-credentials');
    throw wrongCredentials();
  }
  await succeeded();
  const account = await campusAccount(
    ctx.pool,
    ctx.clock,
    ctx.policy,
    'ldap',
    username,
    result.groups,
    { known: ctx.knownSiteSlugs, logger: ctx.logger },
  );
  if (!account.ok) {
    await ctx.records.record('ldap', username, 'refused', account.reason);
    throw noStaffRole();
  }
  const expiresAt = ctx.clock.now().getTime() + ctx.policy.campusSessionMs;
  await startStaffSession(req, account.user, account.generation, 'ldap', expiresAt);
  await ctx.records.record('ldap', username, 'signed-in');
  return account.user;
}

/**
 * Signs in with a local account's own password, if `allowed` here. Without such an account the
 * password is checked against a stand-in hash, so a refusal takes as long whatever its reason.
 */
async function localSignIn(
  ctx: SignInContext,
  credentials: Credentials,
  req: Request,
  succeeded: () => Promise<void>,
  local: LocalAccount | undefined,
  allowed: boolean,
): Promise<SessionUser> {
  const stored = local && allowed ? local.password_hash : null;
  const ok = await verifyPassword(credentials.password, stored ?? (await dummyPasswordHash()));
  if (!local || !stored || !ok) {
    const reason = local && !allowed ? 'local-sign-in-off' : 'wrong-credentials';
    await ctx.records.record('local', credentials.username, 'refused', reason);
    throw wrongCredentials();
  }
  await succeeded();
  const user = staffUserOf(credentials.username, local.roles);
  await startStaffSession(req, user, local.session_generation, 'local');
  await ctx.pool.query('UPDATE admin_users SET last_sign_in_at = $2 WHERE username = $1', [
    credentials.username,
    ctx.clock.now(),
  ]);
  await ctx.records.record('local', credentials.username, 'signed-in');
  return user;
}
