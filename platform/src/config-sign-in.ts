import { z } from 'zod';
import { parseRoleGrant } from '@rr/contracts/staff-roles';
import { STAFF_ROLES } from './access.ts';
import { bool, nameList } from './config-values.ts';
import { isLoopbackHost } from './loopback.ts';

/**
 * STAFF_ROLE_MAP: a JSON object from a group as the identity provider sends it (a claim value,
 * an attribute value or a group's DN) to the staff roles its members get, for all sites or for
 * one (`checkin@jura`).
 */
const roleMap = z
  .string()
  .transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string().min(1, 'a group name must not be empty'),
      z
        .array(
          z.string().refine((role) => parseRoleGrant(role) !== null, {
            error: `roles are ${STAFF_ROLES.join(', ')}, for one site with its slug: admin@jura`,
          }),
        )
        .min(1, 'each group needs at least one role'),
      { error: 'must be a JSON object of group name to a list of roles' },
    ),
  );

/**
 * The configuration of staff sign-in (@rr/identity): how failed sign-ins delay further attempts,
 * the campus identity's providers, which local accounts keep their password.
 */
export const staffSignInConfig = z.object({
  // Failed sign-ins per user name and address, per address, per user name (in a window), and
  // the longest delay they cause (identity/src/sign-in-limit.ts).
  SIGN_IN_FAILURES_PER_ACCOUNT_ADDRESS: z.coerce.number().int().min(1).max(100000).default(5),
  SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(1000000).default(50),
  SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000000).default(25),
  SIGN_IN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  SIGN_IN_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  // Staff sign-in with the campus identity (identity/src/staff-sso.ts): roles from groups, how
  // long such a session lasts at most, and which local accounts keep their password sign-in.
  STAFF_ROLE_MAP: roleMap.optional(),
  STAFF_SSO_SESSION_HOURS: z.coerce.number().min(0.05).max(168).default(10),
  // How long the record of staff sign-ins keeps each sign-in and refusal (the erasure job).
  STAFF_SIGN_IN_RECORD_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  LOCAL_SIGN_IN: bool.default(true),
  LOCAL_SIGN_IN_ACCOUNTS: nameList.default(['admin']),
  // LDAP / Active Directory on the sign-in form (identity/src/ldap-sign-in.ts): ldaps://, or
  // ldap:// always upgraded with StartTLS.
  LDAP_URL: z.url({ protocol: /^ldaps?$/ }).optional(),
  LDAP_BIND_DN: z.string().min(1).optional(),
  LDAP_BIND_PASSWORD: z.string().min(1).optional(),
  LDAP_SEARCH_BASE: z.string().min(1).optional(),
  LDAP_USER_FILTER: z
    .string()
    .refine((f) => f.includes('{{username}}'), 'must contain {{username}}')
    .default('(uid={{username}})'),
  LDAP_GROUPS_ATTRIBUTE: z.string().min(1).default('memberOf'),
  // A PEM file of the certificate authorities the directory's certificate is checked against
  // (the system's list when unset).
  LDAP_TLS_CA_FILE: z.string().min(1).optional(),
  LDAP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(10000),
  // OpenID Connect (identity/src/oidc-sign-in.ts): the provider by discovery from its issuer.
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_SCOPES: z.string().min(1).default('openid profile email'),
  OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
  OIDC_USERNAME_CLAIM: z.string().min(1).default('preferred_username'),
  OIDC_LABEL: z.string().min(1).max(100).default('Campus account'),
  // The callback the provider knows (https://host/api/auth/oidc/callback); from the request if unset.
  OIDC_REDIRECT_URI: z.url({ protocol: /^https?$/ }).optional(),
  // SAML 2.0 (identity/src/saml-sign-in.ts): the identity provider's metadata (a file or an
  // https:// URL), this service provider's entity ID, the attributes naming groups and account.
  SAML_IDP_METADATA: z.string().min(1).optional(),
  SAML_SP_ENTITY_ID: z.string().min(1).optional(),
  SAML_GROUPS_ATTRIBUTE: z.string().min(1).default('groups'),
  SAML_USERNAME_ATTRIBUTE: z.string().min(1).default('NameID'),
  // PEM files: the key signs the sign-in requests, the certificate goes into the SP metadata.
  SAML_SP_KEY: z.string().min(1).optional(),
  SAML_SP_CERT: z.string().min(1).optional(),
  SAML_LABEL: z.string().min(1).max(100).default('Campus account (SAML)'),
  // Where the provider posts its answer; from SAML_SP_ENTITY_ID's origin when that is a URL.
  SAML_ACS_URL: z.url({ protocol: /^https?$/ }).optional(),
});

export type StaffSignInConfig = z.infer<typeof staffSignInConfig>;

/** Whether staff may sign in with the campus identity (any provider configured). */
export const ssoConfigured = (
  config: Pick<StaffSignInConfig, 'LDAP_URL' | 'OIDC_ISSUER' | 'SAML_IDP_METADATA'>,
): boolean =>
  config.LDAP_URL !== undefined ||
  config.OIDC_ISSUER !== undefined ||
  config.SAML_IDP_METADATA !== undefined;

/** The SAML ACS URL: SAML_ACS_URL, or /api/auth/saml/acs at the origin of a URL entity ID. */
export function samlAcsUrl(
  config: Pick<StaffSignInConfig, 'SAML_ACS_URL' | 'SAML_SP_ENTITY_ID'>,
): string | null {
  if (config.SAML_ACS_URL) return config.SAML_ACS_URL;
  if (!config.SAML_SP_ENTITY_ID || !URL.canParse(config.SAML_SP_ENTITY_ID)) return null;
  const entity = new URL(config.SAML_SP_ENTITY_ID);
  if (entity.protocol !== 'https:' && entity.protocol !== 'http:') return null;
  return `${entity.origin}/api/auth/saml/acs`;
}

/** What the settings of the campus identity lack together (each variable alone is checked above). */
export function ssoConfigProblems(config: StaffSignInConfig): string[] {
  const problems: string[] = [];
  if (ssoConfigured(config) && !config.STAFF_ROLE_MAP)
    problems.push(
      'STAFF_ROLE_MAP: required with a campus sign-in (LDAP_URL, OIDC_ISSUER, SAML_IDP_METADATA): a JSON object of group to roles',
    );
  if (config.LDAP_URL && !config.LDAP_SEARCH_BASE)
    problems.push('LDAP_SEARCH_BASE: required with LDAP_URL');
  if (config.OIDC_ISSUER && !config.OIDC_CLIENT_ID)
    problems.push('OIDC_CLIENT_ID: required with OIDC_ISSUER');
  if (config.OIDC_ISSUER) {
    const issuer = new URL(config.OIDC_ISSUER);
    if (issuer.protocol !== 'https:' && !isLoopbackHost(issuer.hostname))
      problems.push('OIDC_ISSUER: must be https:// (plain http only on loopback, for tests)');
  }
  if (config.SAML_IDP_METADATA) {
    if (!config.SAML_SP_ENTITY_ID)
      problems.push('SAML_SP_ENTITY_ID: required with SAML_IDP_METADATA');
    else if (!samlAcsUrl(config))
      problems.push('SAML_ACS_URL: required when SAML_SP_ENTITY_ID is not an http(s) URL');
    if (
      /^[a-z]+:\/\//i.test(config.SAML_IDP_METADATA) &&
      !config.SAML_IDP_METADATA.startsWith('https://')
    )
      problems.push('SAML_IDP_METADATA: a file path or an https:// URL');
    if ((config.SAML_SP_KEY === undefined) !== (config.SAML_SP_CERT === undefined))
      problems.push('SAML_SP_KEY and SAML_SP_CERT: set both, or neither');
  }
  if ((config.LDAP_BIND_DN === undefined) !== (config.LDAP_BIND_PASSWORD === undefined))
    problems.push('LDAP_BIND_DN and LDAP_BIND_PASSWORD: set both, or neither (anonymous search)');
  if (!config.LOCAL_SIGN_IN && !ssoConfigured(config) && config.LOCAL_SIGN_IN_ACCOUNTS.length === 0)
    problems.push(
      'LOCAL_SIGN_IN_ACCOUNTS: with LOCAL_SIGN_IN=false and no campus sign-in, nobody could sign in',
    );
  return problems;
}
