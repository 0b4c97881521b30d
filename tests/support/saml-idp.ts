import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { signAssertion } from './saml-sign.mjs';

const run = promisify(execFile);

export const IDP_ENTITY_ID = 'https://idp.campus.example/idp/shibboleth';
const SSO_URL = 'https://idp.campus.example/idp/profile/SAML2/Redirect/SSO';

export interface SigningKey {
  key: string;
  cert: string;
}

/** A throwaway RSA key and self-signed certificate (openssl) for an identity provider. */
export async function makeSigningKey(dir: string, name: string): Promise<SigningKey> {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
  await run('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`,
    '-keyout', key, '-out', cert,
  ]); // prettier-ignore
  return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
}

const certBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

export interface TestIdp {
  /** The throwaway folder of its files (removed by stop). */
  dir: string;
  /** The metadata file (SAML_IDP_METADATA). */
  metadataFile: string;
  key: SigningKey;
  /** Another key the provider does not publish. */
  stranger: SigningKey;
  stop(): Promise<void>;
}

/** An identity provider's metadata and keys in a throwaway folder under the system temp dir. */
export async function startTestIdp(): Promise<TestIdp> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rr-saml-'));
  const key = await makeSigningKey(dir, 'idp');
  const stranger = await makeSigningKey(dir, 'stranger');
  const metadataFile = path.join(dir, 'idp-metadata.xml');
  await writeFile(
    metadataFile,
    `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${IDP_ENTITY_ID}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(key.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${SSO_URL}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`,
  );
  return {
    dir,
    metadataFile,
    key,
    stranger,
    stop: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The ID of the AuthnRequest in a redirect to the provider (SAMLRequest, deflated base64). */
export function requestIdOf(redirect: URL): string {
  const xml = inflateRawSync(
    Buffer.from(redirect.searchParams.get('SAMLRequest') ?? '', 'base64'),
  ).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no request ID in ${xml}`);
  return id;
}

export interface AssertionParts {
  inResponseTo?: string;
  nameId: string;
  groups: string[];
  audience: string;
  recipient: string;
  /** The time the assertion is made at, and how long it holds. */
  now: Date;
  validMs?: number;
  assertionId?: string;
  issuer?: string;
  /** The NameID's format (unspecified by default). */
  nameIdFormat?: string;
  /** Attributes beside `groups`, by name (an eduPersonTargetedID value is a NameID element). */
  attributes?: Record<string, string[]>;
}

const attributeXml = (name: string, values: readonly string[]) =>
  `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join('')}</saml:Attribute>`;

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function assertionXml(p: AssertionParts): string {
  const until = new Date(p.now.getTime() + (p.validMs ?? 5 * 60_000));
  const inResponseTo = p.inResponseTo ? ` InResponseTo="${p.inResponseTo}"` : '';
  return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${p.assertionId ?? `_${randomUUID()}`}" Version="2.0" IssueInstant="${iso(p.now)}"><saml:Issuer>${p.issuer ?? IDP_ENTITY_ID}</saml:Issuer><saml:Subject><saml:NameID Format="${p.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'}">${p.nameId}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${iso(until)}" Recipient="${p.recipient}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(new Date(p.now.getTime() - 60_000))}" NotOnOrAfter="${iso(until)}"><saml:AudienceRestriction><saml:Audience>${p.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(p.now)}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attributeXml('groups', p.groups)}${Object.entries(
    p.attributes ?? {},
  )
    .map(([name, values]) => attributeXml(name, values))
    .join('')}</saml:AttributeStatement></saml:Assertion>`;
}

/** A Response around assertions (signed or not), as the provider posts it. */
export function responseXml(
  assertions: string,
  p: Pick<AssertionParts, 'inResponseTo' | 'recipient' | 'now'>,
): string {
  const inResponseTo = p.inResponseTo ? ` InResponseTo="${p.inResponseTo}"` : '';
  return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${iso(p.now)}" Destination="${p.recipient}"${inResponseTo}><saml:Issuer>${IDP_ENTITY_ID}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertions}</samlp:Response>`;
}

/** A response whose one assertion is signed by `key`. */
export function signedResponse(p: AssertionParts, key: SigningKey): string {
  return signAssertion(responseXml(assertionXml(p), p), key.key, key.cert);
}

export const encodeResponse = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
