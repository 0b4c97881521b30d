import { expect } from 'vitest';
import type { Clock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from './app.ts';
import {
  signInAtProvider,
  startVisitorOidcProvider,
  type TestOidcProvider,
} from './oidc-servers.ts';
import { reservePort } from './ports.ts';
import {
  encodeResponse,
  requestIdOf,
  signedResponse,
  startTestIdp,
  type TestIdp,
} from './saml-idp.ts';

/** eduPerson and SCHAC attribute names as SAML identity providers send them. */
export const SAML_ATTRIBUTES = {
  pairwiseId: 'urn:oasis:names:tc:SAML:attribute:pairwise-id',
  targetedId: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.10',
  scopedAffiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.9',
  affiliation: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1',
  homeOrganization: 'urn:oid:1.3.6.1.4.1.25178.1.2.9',
  mail: 'urn:oid:0.9.2342.19200300.100.1.3',
  displayName: 'urn:oid:2.16.840.1.113730.3.1.241',
};

/**
 * A visitor's OpenID Connect sign-in in the client's session: the app's start, the provider's
 * pages as `login`, the app's callback. Answers where the app sends the browser then.
 */
export async function visitorOidcSignIn(
  c: Client,
  login: string,
  returnTo = '/book/room-1',
): Promise<string> {
  const res = await c.request(
    'GET',
    `/api/visitor-auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`,
    { redirect: 'manual' },
  );
  expect(res.status).toBe(302);
  const back = await signInAtProvider(res.headers.get('location')!, login, c.baseUrl);
  expect(back.pathname).toBe('/api/visitor-auth/oidc/callback');
  const done = await c.request('GET', back.pathname + back.search, { redirect: 'manual' });
  expect(done.status).toBe(302);
  return done.headers.get('location')!;
}

/** What a SAML answer of the test's identity provider says besides its attributes. */
export interface SamlAnswerOptions {
  /** The NameID and its format: a new transient one by default. */
  nameId?: { value: string; format: string };
  /** The RelayState posted back with the answer (`/` by default). */
  relayState?: string;
}

/**
 * A visitor's SAML sign-in: the app's start, an answer of the test's identity provider signed
 * with its key (the attributes given, a transient NameID unless another is given), posted as the
 * browser posts it. Answers where the app sends the browser, and a client with the session it
 * made.
 */
export async function visitorSamlSignIn(
  baseUrl: string,
  idp: TestIdp,
  sp: { entityId: string; acs: string },
  clock: Clock,
  attributes: Record<string, string[]>,
  options: SamlAnswerOptions = {},
): Promise<{ location: string | null; client: Client }> {
  const res = await new Client(baseUrl).request(
    'GET',
    `/api/visitor-auth/saml/start?returnTo=${encodeURIComponent('/')}`,
    { redirect: 'manual' },
  );
  expect(res.status).toBe(302);
  const xml = signedResponse(
    {
      inResponseTo: requestIdOf(new URL(res.headers.get('location')!)),
      nameId: options.nameId?.value ?? `_transient-${Math.random().toString(36).slice(2)}`,
      nameIdFormat: options.nameId?.format ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
      groups: [],
      attributes,
      audience: sp.entityId,
      recipient: sp.acs,
      now: clock.now(),
    },
    idp.key,
  );
  const posted = await fetch(`${baseUrl}/api/visitor-auth/saml/acs`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      SAMLResponse: encodeResponse(xml),
      RelayState: options.relayState ?? '/',
    }),
  });
  expect(posted.status).toBe(302);
  return {
    location: posted.headers.get('location'),
    client: new Client(baseUrl).takeCookie(posted),
  };
}

/** The app as the SAML service provider of visitor sign-in in the tests. */
export const VISITOR_SP = {
  entityId: 'https://rr.uni-x.de/visitors',
  acs: 'https://rr.uni-x.de/api/visitor-auth/saml/acs',
};

/** An admin suite whose visitors sign in with the test's OpenID provider and SAML provider. */
export interface VisitorSignInSuite {
  suite: AdminSuite;
  provider: TestOidcProvider;
  idp: TestIdp;
  close(): Promise<void>;
}

/**
 * Starts the test's OpenID provider (with these people, by their login), the signing SAML
 * identity provider, and the app with visitor sign-in by both (and the settings of `env`).
 */
export async function openVisitorSignInSuite(
  clock: Clock,
  people: Record<string, Record<string, unknown>>,
  env: Record<string, string> = {},
): Promise<VisitorSignInSuite> {
  const reserved = await reservePort();
  const port = reserved.port;
  const provider = await startVisitorOidcProvider(`http://127.0.0.1:${port}`, people);
  const idp = await startTestIdp();
  const suite = await openAdminSuite(clock, {
    env: {
      ...provider.env,
      VISITOR_SAML_IDP_METADATA: idp.metadataFile,
      VISITOR_SAML_SP_ENTITY_ID: VISITOR_SP.entityId,
      ...env,
    },
    port: reserved,
  });
  return {
    suite,
    provider,
    idp,
    close: async () => {
      await suite.close();
      await provider.stop();
      await idp.stop();
    },
  };
}

/** A cart of the slot, booked for `owner` with the address: the booking's answer. */
export async function bookSlotAs(
  v: Client,
  timeSlotId: string,
  owner: Record<string, unknown>,
  email: string,
): Promise<Response> {
  const r = await v.request('POST', '/api/transactions', { json: { timeSlotId } });
  expect(r.status, await r.clone().text()).toBe(201);
  const tx = ((await r.json()) as { transactionId: string }).transactionId;
  return v.request('PUT', `/api/transactions/${tx}/booking`, { json: { ...owner, email } });
}
