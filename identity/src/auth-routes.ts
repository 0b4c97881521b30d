import type pg from 'pg';
import { persistentSecret, type Clock, type Logger, type RouteDef } from '@rr/platform';
import type { LdapDirectory } from './ldap-sign-in.ts';
import type { OidcProvider } from './oidc-sign-in.ts';
import { oidcRoutes } from './oidc-routes.ts';
import { passwordSignInRoutes } from './password-sign-in-routes.ts';
import type { SamlServiceProvider } from './saml-sign-in.ts';
import { samlRoutes } from './saml-routes.ts';
import { sessionRoutes } from './session-routes.ts';
import type { SignInContext } from './sign-in-context.ts';
import type { SignInLimits } from './sign-in-limit.ts';
import { SignInLimitStore } from './sign-in-limit-store.ts';
import { staffAccountRoutes } from './staff-account-routes.ts';
import {
  type KnownSiteSlugs,
  localOnlyPolicy,
  SignInRecords,
  type StaffSignInPolicy,
} from './staff-sso.ts';

export interface AuthOptions {
  /** The time failed sign-ins are counted at. */
  clock: Clock;
  /** How failed sign-ins delay further attempts (config SIGN_IN_*, see signInLimitsFrom). */
  signInLimits: SignInLimits;
  logger?: Logger;
  /** Roles from groups, campus session length, local sign-in (every local account by default). */
  policy?: StaffSignInPolicy;
  /** The directory the sign-in form also asks (LDAP_URL), if any. */
  ldap?: LdapDirectory | null;
  /** The OpenID provider staff may sign in with (OIDC_ISSUER), if any. */
  oidc?: OidcProvider | null;
  /** The SAML identity provider staff may sign in with (SAML_IDP_METADATA), if any. */
  saml?: SamlServiceProvider | null;
  /**
   * SESSION_SECRET (else the one generated and kept in the database): the secret the record of
   * sign-ins keys typed names with.
   */
  sessionSecret?: string;
  /** Which slugs name sites (roles of STAFF_ROLE_MAP for other slugs are left out). */
  knownSiteSlugs?: KnownSiteSlugs;
}

/**
 * Staff sign-in and the staff accounts: the sign-in form, the campus identity's providers, the
 * session, the admins' view of the accounts and of the record of sign-ins.
 */
export function authRoutes(pool: pg.Pool, options: AuthOptions): RouteDef[] {
  let secret: Promise<string> | null = null;
  const records = new SignInRecords(pool, options.clock, () =>
    (secret ??= persistentSecret(pool, 'session_secret', options.sessionSecret)).catch(
      (err: unknown) => {
        secret = null;
        throw err;
      },
    ),
  );
  const ctx: SignInContext = {
    pool,
    clock: options.clock,
    policy: options.policy ?? localOnlyPolicy,
    records,
    logger: options.logger,
    knownSiteSlugs: options.knownSiteSlugs,
  };
  const providers = {
    ldap: options.ldap ?? null,
    oidc: options.oidc ?? null,
    saml: options.saml ?? null,
  };
  const limiter = new SignInLimitStore(pool, options.clock, options.signInLimits);
  return [
    ...passwordSignInRoutes(ctx, limiter, providers.ldap),
    ...sessionRoutes(providers, ctx.policy),
    ...(providers.oidc ? oidcRoutes(ctx, providers.oidc) : []),
    ...(providers.saml ? samlRoutes(ctx, providers.saml) : []),
    ...staffAccountRoutes(pool, records),
  ];
}
