import { z } from 'zod';
import { nameList } from './config-values.ts';
import { isLoopbackHost } from './loopback.ts';

/**
 * Visitors' sign-in with the campus identity (identity/src/visitor-sign-in.ts), apart from staff
 * sign-in: its own OpenID client and SAML service provider, and the claims or attributes read.
 * All optional: with none set, visitors book with their address alone, as before.
 */
export const visitorSignInConfig = z.object({
  // OpenID Connect: the provider by discovery from its issuer; the subject is always `sub`.
  VISITOR_OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  VISITOR_OIDC_CLIENT_ID: z.string().min(1).optional(),
  VISITOR_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  VISITOR_OIDC_SCOPES: z.string().min(1).default('openid profile email'),
  // The callback the provider knows (https://host/api/visitor-auth/oidc/callback); from the request if unset.
  VISITOR_OIDC_REDIRECT_URI: z.url({ protocol: /^https?$/ }).optional(),
  VISITOR_OIDC_LABEL: z.string().min(1).max(100).default('Campus account'),
  // The claims (names as REFEDS / OIDCre and eduGAIN's OpenID providers send them).
  VISITOR_OIDC_EMAIL_CLAIM: z.string().min(1).default('email'),
  VISITOR_OIDC_NAME_CLAIM: z.string().min(1).default('name'),
  VISITOR_OIDC_SCOPED_AFFILIATION_CLAIM: z.string().min(1).default('eduperson_scoped_affiliation'),
  VISITOR_OIDC_AFFILIATION_CLAIM: z.string().min(1).default('eduperson_affiliation'),
  VISITOR_OIDC_HOME_ORGANIZATION_CLAIM: z.string().min(1).default('schac_home_organization'),
  VISITOR_OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
  // SAML 2.0: the identity provider's (or federation's) metadata, a file or an https:// URL, and
  // this service provider's entity ID (another than staff sign-in's SAML_SP_ENTITY_ID).
  VISITOR_SAML_IDP_METADATA: z.string().min(1).optional(),
  VISITOR_SAML_SP_ENTITY_ID: z.string().min(1).optional(),
  // Where the provider posts its answer; /api/visitor-auth/saml/acs at the entity ID's origin if unset.
  VISITOR_SAML_ACS_URL: z.url({ protocol: /^https?$/ }).optional(),
  VISITOR_SAML_LABEL: z.string().min(1).max(100).default('Campus account (SAML)'),
  // The subject: the first of these the assertion has (NameID: a persistent NameID only).
  VISITOR_SAML_SUBJECT_ATTRIBUTES: nameList.default([
    'urn:oasis:names:tc:SAML:attribute:pairwise-id',
    'urn:oid:1.3.6.1.4.1.5923.1.1.1.10',
    'NameID',
  ]),
  VISITOR_SAML_EMAIL_ATTRIBUTE: z.string().min(1).default('urn:oid:0.9.2342.19200300.100.1.3'),
  VISITOR_SAML_NAME_ATTRIBUTE: z.string().min(1).default('urn:oid:2.16.840.1.113730.3.1.241'),
  VISITOR_SAML_SCOPED_AFFILIATION_ATTRIBUTE: z
    .string()
    .min(1)
    .default('urn:oid:1.3.6.1.4.1.5923.1.1.1.9'),
  VISITOR_SAML_AFFILIATION_ATTRIBUTE: z.string().min(1).default('urn:oid:1.3.6.1.4.1.5923.1.1.1.1'),
  VISITOR_SAML_HOME_ORGANIZATION_ATTRIBUTE: z
    .string()
    .min(1)
    .default('urn:oid:1.3.6.1.4.1.25178.1.2.9'),
  VISITOR_SAML_GROUPS_ATTRIBUTE: z.string().min(1).default('urn:oid:1.3.6.1.4.1.5923.1.5.1.1'),
  // How long a visitor stays signed in at most, from the sign-in.
  VISITOR_SESSION_HOURS: z.coerce.number().min(0.05).max(168).default(8),
});

export type VisitorSignInConfig = z.infer<typeof visitorSignInConfig>;

/** Whether visitors may sign in with the campus identity (either provider configured). */
export const visitorSignInConfigured = (
  config: Pick<VisitorSignInConfig, 'VISITOR_OIDC_ISSUER' | 'VISITOR_SAML_IDP_METADATA'>,
): boolean =>
  config.VISITOR_OIDC_ISSUER !== undefined || config.VISITOR_SAML_IDP_METADATA !== undefined;

/** The visitors' SAML ACS URL: VISITOR_SAML_ACS_URL, or at the origin of a URL entity ID. */
export function visitorSamlAcsUrl(
  config: Pick<VisitorSignInConfig, 'VISITOR_SAML_ACS_URL' | 'VISITOR_SAML_SP_ENTITY_ID'>,
): string | null {
  if (config.VISITOR_SAML_ACS_URL) return config.VISITOR_SAML_ACS_URL;
  const entityId = config.VISITOR_SAML_SP_ENTITY_ID;
  if (!entityId || !URL.canParse(entityId)) return null;
  const entity = new URL(entityId);
  if (entity.protocol !== 'https:' && entity.protocol !== 'http:') return null;
  return `${entity.origin}/api/visitor-auth/saml/acs`;
}

/** What the settings of visitor sign-in lack together (each variable alone is checked above). */
export function visitorSignInConfigProblems(config: VisitorSignInConfig): string[] {
  const problems: string[] = [];
  if (config.VISITOR_OIDC_ISSUER) {
    if (!config.VISITOR_OIDC_CLIENT_ID)
      problems.push('VISITOR_OIDC_CLIENT_ID: required with VISITOR_OIDC_ISSUER');
    const issuer = new URL(config.VISITOR_OIDC_ISSUER);
    if (issuer.protocol !== 'https:' && !isLoopbackHost(issuer.hostname))
      problems.push(
        'VISITOR_OIDC_ISSUER: must be https:// (plain http only on loopback, for tests)',
      );
  }
  if (config.VISITOR_SAML_IDP_METADATA) {
    if (!config.VISITOR_SAML_SP_ENTITY_ID)
      problems.push('VISITOR_SAML_SP_ENTITY_ID: required with VISITOR_SAML_IDP_METADATA');
    else if (!visitorSamlAcsUrl(config))
      problems.push(
        'VISITOR_SAML_ACS_URL: required when VISITOR_SAML_SP_ENTITY_ID is not an http(s) URL',
      );
    if (
      /^[a-z]+:\/\//i.test(config.VISITOR_SAML_IDP_METADATA) &&
      !config.VISITOR_SAML_IDP_METADATA.startsWith('https://')
    )
      problems.push('VISITOR_SAML_IDP_METADATA: a file path or an https:// URL');
  }
  return problems;
}
