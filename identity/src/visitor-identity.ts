import type { Request, RequestHandler } from 'express';
import type pg from 'pg';
import type { Clock, Config } from '@rr/platform';
import { visitorSamlAcsUrl } from '@rr/platform';
import {
  asStrings,
  type OidcAnswer,
  type OidcClientSettings,
  type PendingOidcSignIn,
} from './oidc-sign-in.ts';
import { attributeStrings, type SamlAnswer, type SamlSpSettings } from './saml-sign-in.ts';

/**
 * A visitor signed in with the campus identity, as the session keeps it: the subject (issuer and
 * the provider's stable identifier of the person) and what the provider said of them. Only in
 * the session: the service stores the subject where a booking needs it, never the rest.
 */
export interface SignedInVisitor {
  /** `<issuer>!<subject>`: the provider's identifier of the person, unique with its issuer. */
  subject: string;
  email: string | null;
  name: string | null;
  /** eduPersonScopedAffiliation (student@uni-x.de) and eduPersonAffiliation (student). */
  affiliations: string[];
  /** schacHomeOrganization (uni-x.de). */
  homeOrganization: string | null;
  groups: string[];
  method: 'oidc' | 'saml';
  /** When the visitor's sign-in ends, in ms since the epoch by the clock. */
  until: number;
}

declare module 'express-session' {
  interface SessionData {
    /** The visitor signed in with the campus identity (never a staff user: see `user`). */
    visitor?: SignedInVisitor;
    /** A visitor's OpenID Connect sign-in under way in this browser, used once. */
    visitorOidcPending?: PendingOidcSignIn;
  }
}

/** Which claims (OpenID Connect) or attributes (SAML) carry what of a visitor. */
export interface VisitorClaimNames {
  email: string;
  name: string;
  scopedAffiliation: string;
  affiliation: string;
  homeOrganization: string;
  groups: string;
}

export interface VisitorOidcSettings extends OidcClientSettings {
  claims: VisitorClaimNames;
}

export interface VisitorSamlSettings extends SamlSpSettings {
  /** The first of these the assertion has is the subject; `NameID`: a persistent NameID. */
  subjectAttributes: readonly string[];
  attributes: VisitorClaimNames;
}

export interface VisitorSignInSettings {
  oidc: VisitorOidcSettings | null;
  saml: VisitorSamlSettings | null;
  sessionMs: number;
}

export function visitorSignInSettingsFrom(config: Config): VisitorSignInSettings {
  const acsUrl = visitorSamlAcsUrl(config);
  return {
    oidc:
      config.VISITOR_OIDC_ISSUER && config.VISITOR_OIDC_CLIENT_ID
        ? {
            issuer: new URL(config.VISITOR_OIDC_ISSUER),
            clientId: config.VISITOR_OIDC_CLIENT_ID,
            clientSecret: config.VISITOR_OIDC_CLIENT_SECRET,
            scopes: config.VISITOR_OIDC_SCOPES,
            label: config.VISITOR_OIDC_LABEL,
            redirectUri: config.VISITOR_OIDC_REDIRECT_URI,
            claims: {
              email: config.VISITOR_OIDC_EMAIL_CLAIM,
              name: config.VISITOR_OIDC_NAME_CLAIM,
              scopedAffiliation: config.VISITOR_OIDC_SCOPED_AFFILIATION_CLAIM,
              affiliation: config.VISITOR_OIDC_AFFILIATION_CLAIM,
              homeOrganization: config.VISITOR_OIDC_HOME_ORGANIZATION_CLAIM,
              groups: config.VISITOR_OIDC_GROUPS_CLAIM,
            },
          }
        : null,
    saml:
      config.VISITOR_SAML_IDP_METADATA && config.VISITOR_SAML_SP_ENTITY_ID && acsUrl
        ? {
            acsUrl,
            idpMetadata: config.VISITOR_SAML_IDP_METADATA,
            spEntityId: config.VISITOR_SAML_SP_ENTITY_ID,
            label: config.VISITOR_SAML_LABEL,
            skewMs: 30_000,
            subjectAttributes: config.VISITOR_SAML_SUBJECT_ATTRIBUTES,
            attributes: {
              email: config.VISITOR_SAML_EMAIL_ATTRIBUTE,
              name: config.VISITOR_SAML_NAME_ATTRIBUTE,
              scopedAffiliation: config.VISITOR_SAML_SCOPED_AFFILIATION_ATTRIBUTE,
              affiliation: config.VISITOR_SAML_AFFILIATION_ATTRIBUTE,
              homeOrganization: config.VISITOR_SAML_HOME_ORGANIZATION_ATTRIBUTE,
              groups: config.VISITOR_SAML_GROUPS_ATTRIBUTE,
            },
          }
        : null,
    sessionMs: Math.round(config.VISITOR_SESSION_HOURS * 3_600_000),
  };
}

const LONGEST = 200;
const short = (v: string | undefined): string | null =>
  v !== undefined && v.trim() !== '' && v.length <= LONGEST ? v.trim() : null;
const shortList = (vs: readonly string[]) =>
  [...new Set(vs.map((v) => v.trim()).filter((v) => v !== '' && v.length <= LONGEST))].slice(
    0,
    100,
  );
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Read = (name: string) => string[];

function visitorOf(
  issuer: string,
  subject: string | undefined,
  read: Read,
  names: VisitorClaimNames,
  method: SignedInVisitor['method'],
  until: number,
  emailVerified: boolean,
): SignedInVisitor | Error {
  if (!subject || subject.length > LONGEST) return new Error('the answer names no subject');
  const email = emailVerified ? short(read(names.email)[0]) : null;
  return {
    subject: `${issuer}!${subject}`,
    email: email && EMAIL.test(email) ? email.toLowerCase() : null,
    name: short(read(names.name)[0]),
    affiliations: shortList([...read(names.scopedAffiliation), ...read(names.affiliation)]),
    homeOrganization: short(read(names.homeOrganization)[0]),
    groups: shortList(read(names.groups)),
    method,
    until,
  };
}

/** The visitor an OpenID provider's answer names (its `sub`, the claims of VISITOR_OIDC_*). */
export function visitorOfOidc(
  answer: OidcAnswer | Error,
  names: VisitorClaimNames,
  until: number,
): SignedInVisitor | Error {
  if (answer instanceof Error) return answer;
  const { claims } = answer;
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  // An address the provider says it has not verified is not the person's to fill in.
  const verified = claims.email_verified !== false;
  return visitorOf(answer.issuer, sub, (n) => asStrings(claims[n]), names, 'oidc', until, verified);
}

const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/** The visitor a SAML assertion names (pairwise-id, eduPersonTargetedID or a persistent NameID). */
export function visitorOfSaml(
  answer: SamlAnswer | Error,
  settings: Pick<VisitorSamlSettings, 'subjectAttributes' | 'attributes'>,
  until: number,
): SignedInVisitor | Error {
  if (answer instanceof Error) return answer;
  const read: Read = (n) => attributeStrings(answer.attributes[n]);
  const subject = settings.subjectAttributes
    .map((n) =>
      n === 'NameID'
        ? answer.nameIdFormat === PERSISTENT
          ? answer.nameId
          : undefined
        : read(n)[0],
    )
    .find((v) => v !== undefined && v !== '');
  return visitorOf(answer.issuer, subject, read, settings.attributes, 'saml', until, true);
}

/**
 * The visitor signed in on this request, or null: a session's visitor until its time (by the
 * clock). A staff user's session has none: staff sign-in never makes a visitor.
 */
export function signedInVisitor(req: Request, clock: Clock): SignedInVisitor | null {
  const visitor = req.session?.visitor;
  if (!visitor || clock.now().getTime() >= visitor.until) return null;
  return visitor;
}

/** Puts the request's signed-in visitor where the commands read it (`req.signedInVisitor`). */
export function visitorOfRequest(clock: Clock): RequestHandler {
  return (req, _res, next) => {
    const visitor = signedInVisitor(req, clock);
    if (visitor)
      req.signedInVisitor = {
        subject: visitor.subject,
        memberships: [
          ...visitor.affiliations,
          ...(visitor.homeOrganization ? [visitor.homeOrganization] : []),
          ...visitor.groups,
        ],
      };
    next();
  };
}

/** Ends every session of the visitor's subject, in every browser (sign-out everywhere). */
export async function endVisitorSessions(pool: pg.Pool, subject: string): Promise<number> {
  const r = await pool.query(`DELETE FROM sessions WHERE sess->'visitor'->>'subject' = $1`, [
    subject,
  ]);
  return r.rowCount ?? 0;
}
