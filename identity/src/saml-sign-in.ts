import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import {
  SAML,
  ValidateInResponseTo,
  type CacheProvider,
  type SamlConfig,
} from '@node-saml/node-saml';
import { parseStringPromise, processors } from 'xml2js';
import type pg from 'pg';
import { type Clock, samlAcsUrl, type Config } from '@rr/platform';

/** A SAML service provider of the service: staff sign-in's (SAML_*) or visitors' (VISITOR_SAML_*). */
export interface SamlSpSettings {
  /** The ACS URL the provider posts to (https://host/api/auth/saml/acs). */
  acsUrl: string;
  /** A file path or an https:// URL of the identity provider's metadata. */
  idpMetadata: string;
  spEntityId: string;
  spKey?: string | undefined;
  spCert?: string | undefined;
  /** The label of the button on the sign-in page. */
  label: string;
  /** How far the identity provider's clock may be off. */
  skewMs: number;
}

/** Staff sign-in's service provider: the attributes naming the account and its groups. */
export interface SamlSettings extends SamlSpSettings {
  groupsAttribute: string;
  /** The attribute naming the account; the NameID when unset. */
  usernameAttribute?: string | undefined;
}

export function samlSettingsFrom(config: Config): SamlSettings | null {
  const acsUrl = samlAcsUrl(config);
  if (!config.SAML_IDP_METADATA || !config.SAML_SP_ENTITY_ID || !acsUrl) return null;
  return {
    acsUrl,
    idpMetadata: config.SAML_IDP_METADATA,
    spEntityId: config.SAML_SP_ENTITY_ID,
    groupsAttribute: config.SAML_GROUPS_ATTRIBUTE,
    usernameAttribute:
      config.SAML_USERNAME_ATTRIBUTE === 'NameID' ? undefined : config.SAML_USERNAME_ATTRIBUTE,
    spKey: config.SAML_SP_KEY ? readFileSync(config.SAML_SP_KEY, 'utf8') : undefined,
    spCert: config.SAML_SP_CERT ? readFileSync(config.SAML_SP_CERT, 'utf8') : undefined,
    label: config.SAML_LABEL,
    skewMs: 30_000,
  };
}

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** The provider's signing certificates (base64 DER, as in the metadata). */
  certs: string[];
}

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

type Parsed = { $?: Record<string, string>; _?: string; [k: string]: unknown };
const all = (node: unknown, name: string): Parsed[] => {
  const v = (node as Record<string, unknown> | undefined)?.[name];
  // xml2js gives the root element as an object, every other as an array.
  if (Array.isArray(v)) return v as Parsed[];
  return v && typeof v === 'object' ? [v as Parsed] : [];
};

/**
 * The entity ID, the HTTP-Redirect sign-in URL and the signing certificates of IdP metadata (an
 * EntityDescriptor, or the first with an IDPSSODescriptor in an EntitiesDescriptor).
 */
export async function parseIdpMetadata(xml: string): Promise<IdpMetadata> {
  const doc = (await parseStringPromise(xml, {
    tagNameProcessors: [processors.stripPrefix],
    explicitRoot: true,
  })) as Record<string, unknown>;
  const entities = [
    ...all(doc, 'EntityDescriptor'),
    ...all(doc, 'EntitiesDescriptor').flatMap((e) => all(e, 'EntityDescriptor')),
  ];
  const entity = entities.find((e) => all(e, 'IDPSSODescriptor').length > 0);
  const idp = all(entity, 'IDPSSODescriptor')[0];
  const entityId = entity?.$?.entityID;
  const ssoUrl = all(idp, 'SingleSignOnService').find((s) => s.$?.Binding === REDIRECT)?.$
    ?.Location;
  const certs = all(idp, 'KeyDescriptor')
    .filter((k) => !k.$?.use || k.$.use === 'signing')
    .flatMap((k) => all(k, 'KeyInfo'))
    .flatMap((k) => all(k, 'X509Data'))
    .flatMap((d) => ((d as Record<string, unknown>).X509Certificate as unknown[] | undefined) ?? [])
    .map((c) => (typeof c === 'string' ? c : ((c as Parsed)._ ?? '')).replace(/\s+/g, ''))
    .filter(Boolean);
  if (!entityId || !ssoUrl || certs.length === 0)
    throw new Error(
      'the identity provider metadata needs an entityID, an HTTP-Redirect SingleSignOnService and a signing certificate',
    );
  return { entityId, ssoUrl, certs };
}

async function loadMetadata(source: string): Promise<string> {
  if (!source.startsWith('https://')) return readFile(source, 'utf8');
  const res = await fetch(source, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`metadata ${source} answered ${res.status}`);
  return res.text();
}

/**
 * The IDs of the requests sent to the provider, in PostgreSQL so any process can take the
 * answer. node-saml asks it for the InResponseTo of every response; the clock decides lapse.
 */
class RequestIds implements CacheProvider {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    private readonly lifetimeMs: number,
  ) {}

  async saveAsync(key: string, value: string) {
    const now = this.clock.now();
    await this.pool.query('DELETE FROM saml_requests WHERE created_at < $1', [
      new Date(now.getTime() - this.lifetimeMs),
    ]);
    await this.pool.query(
      'INSERT INTO saml_requests (id, value, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [key, value, now],
    );
    return { value, createdAt: now.getTime() };
  }

  async getAsync(key: string) {
    const r = await this.pool.query<{ value: string }>(
      'SELECT value FROM saml_requests WHERE id = $1 AND created_at >= $2',
      [key, new Date(this.clock.now().getTime() - this.lifetimeMs)],
    );
    return r.rows[0]?.value ?? null;
  }

  async removeAsync(key: string | null) {
    if (key === null) return null;
    const r = await this.pool.query<{ value: string }>(
      'DELETE FROM saml_requests WHERE id = $1 RETURNING value',
      [key],
    );
    return r.rows[0]?.value ?? null;
  }
}

/** node-saml reading the time from the clock (its own checks read the machine's). */
class ClockedSaml extends SAML {
  constructor(
    config: SamlConfig,
    private readonly clock: Clock,
  ) {
    super(config);
  }

  protected override checkTimestampsValidityError(
    _nowMs: number,
    notBefore: string,
    notOnOrAfter: string,
    maxTimeLimitMs?: number,
  ): Error | null {
    return super.checkTimestampsValidityError(
      this.clock.now().getTime(),
      notBefore,
      notOnOrAfter,
      maxTimeLimitMs,
    );
  }
}

export interface SamlIdentity {
  username: string;
  groups: string[];
}

/** What a checked assertion says of a person: its issuer, NameID and attributes. */
export interface SamlAnswer {
  issuer: string;
  nameId: string | undefined;
  nameIdFormat: string | undefined;
  attributes: Record<string, unknown>;
}

/** The identity provider could not be asked (its metadata unreadable). */
export class IdentityProviderUnavailable extends Error {
  override name = 'IdentityProviderUnavailable';
}

const REQUEST_LIFETIME_MS = 10 * 60_000;

type XmlNode = { $?: Record<string, string>; _?: string; [k: string]: unknown };
const children = (node: unknown, name: string): XmlNode[] => {
  const v = (node as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(v) ? (v as XmlNode[]) : [];
};

/**
 * The values of an attribute as strings; a value that is an element (eduPersonTargetedID's
 * NameID) gives its text.
 */
export const attributeStrings = (v: unknown): string[] =>
  (Array.isArray(v) ? (v as unknown[]) : [v]).flatMap((x): string[] => {
    if (typeof x === 'string') return [x];
    if (x && typeof x === 'object') {
      const node = x as XmlNode;
      if (typeof node._ === 'string') return [node._];
      const nameId = (node as Record<string, unknown>).NameID;
      if (nameId !== undefined) return attributeStrings(nameId);
    }
    return [];
  });

/**
 * A SAML 2.0 service provider with node-saml: signed assertions required (the provider's
 * certificates from its metadata), audience the SP entity ID, the recipient this ACS, the time
 * window by the clock with a small skew, InResponseTo one of our requests (used once), and each
 * assertion ID used once (saml_assertions_used).
 */
export class SamlServiceProvider<S extends SamlSpSettings = SamlSettings> {
  private saml: Promise<ClockedSaml> | null = null;

  constructor(
    readonly settings: S,
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  get acsUrl(): string {
    return this.settings.acsUrl;
  }

  private instance(): Promise<ClockedSaml> {
    this.saml ??= (async () => {
      const metadata = await parseIdpMetadata(await loadMetadata(this.settings.idpMetadata));
      return new ClockedSaml(
        {
          callbackUrl: this.acsUrl,
          entryPoint: metadata.ssoUrl,
          issuer: this.settings.spEntityId,
          audience: this.settings.spEntityId,
          idpIssuer: metadata.entityId,
          idpCert: metadata.certs,
          wantAssertionsSigned: true,
          // Many providers sign only the assertion (which is what must be signed).
          wantAuthnResponseSigned: false,
          acceptedClockSkewMs: this.settings.skewMs,
          validateInResponseTo: ValidateInResponseTo.always,
          requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
          cacheProvider: new RequestIds(this.pool, this.clock, REQUEST_LIFETIME_MS),
          identifierFormat: null,
          disableRequestedAuthnContext: true,
          ...(this.settings.spKey
            ? { privateKey: this.settings.spKey, signatureAlgorithm: 'sha256' as const }
            : {}),
        },
        this.clock,
      );
    })().catch((err: unknown) => {
      this.saml = null;
      throw new IdentityProviderUnavailable(
        `SAML identity provider metadata: ${(err as Error).message}`,
      );
    });
    return this.saml;
  }

  /** The provider's sign-in URL with a new request (its ID kept), returning to `relayState`. */
  async start(relayState: string): Promise<string> {
    const saml = await this.instance();
    return saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /** The SP metadata the provider's administrator registers. */
  metadata(): string {
    const saml = new SAML({
      callbackUrl: this.acsUrl,
      issuer: this.settings.spEntityId,
      idpCert: 'unused',
      wantAssertionsSigned: true,
      identifierFormat: null,
      ...(this.settings.spKey ? { privateKey: this.settings.spKey } : {}),
    });
    return saml.generateServiceProviderMetadata(null, this.settings.spCert ?? null);
  }

  /** What a posted response says of a person, or an Error saying why it is refused. */
  async answer(samlResponse: string): Promise<SamlAnswer | Error> {
    const saml = await this.instance();
    let profile;
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
    if (!profile?.getAssertion) return new Error('no assertion');
    const assertion = (profile.getAssertion() as { Assertion?: XmlNode }).Assertion;
    const id = assertion?.$?.ID;
    if (!assertion || !id) return new Error('the assertion has no ID');
    // node-saml checks the issuer of the response only: the assertion's must be the provider.
    const issuer = ((assertion as Record<string, unknown>).Issuer as unknown[] | undefined)?.[0];
    const issuerName = typeof issuer === 'string' ? issuer : (issuer as XmlNode | undefined)?._;
    if (issuerName === undefined || issuerName !== saml.options.idpIssuer)
      return new Error('the assertion is of another issuer');
    // Nor does it check the recipient: a confirmation must name this ACS.
    const recipients = children(assertion, 'Subject')
      .flatMap((s) => children(s, 'SubjectConfirmation'))
      .flatMap((c) => children(c, 'SubjectConfirmationData'))
      .map((d) => d.$?.Recipient);
    if (!recipients.includes(this.acsUrl))
      return new Error('the assertion is for another recipient');
    const notOnOrAfter = children(assertion, 'Conditions')[0]?.$?.NotOnOrAfter;
    const now = this.clock.now().getTime();
    const expires = new Date(
      Math.max(notOnOrAfter ? Date.parse(notOnOrAfter) : 0, now) + this.settings.skewMs,
    );
    await this.pool.query('DELETE FROM saml_assertions_used WHERE expires_at < $1', [
      new Date(now),
    ]);
    const used = await this.pool.query(
      'INSERT INTO saml_assertions_used (id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [id, expires],
    );
    if (used.rowCount !== 1) return new Error('the assertion was used before');
    return {
      issuer: issuerName,
      nameId: profile.nameID,
      nameIdFormat: profile.nameIDFormat,
      attributes: (profile.attributes ?? {}) as Record<string, unknown>,
    };
  }
}

/** The staff member an answer names: the account's and the groups' attributes (SAML_*). */
export function staffSamlIdentityOf(
  answer: SamlAnswer | Error,
  settings: Pick<SamlSettings, 'usernameAttribute' | 'groupsAttribute'>,
): SamlIdentity | Error {
  if (answer instanceof Error) return answer;
  const username = settings.usernameAttribute
    ? attributeStrings(answer.attributes[settings.usernameAttribute])[0]
    : answer.nameId;
  if (!username || username.length > 200) return new Error('the assertion names nobody');
  return { username, groups: attributeStrings(answer.attributes[settings.groupsAttribute]) };
}
