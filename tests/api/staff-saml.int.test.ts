import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { ManualClock } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import {
  assertionXml,
  encodeResponse,
  makeSigningKey,
  requestIdOf,
  responseXml,
  signedResponse,
  startTestIdp,
  type AssertionParts,
  type TestIdp,
} from '../support/saml-idp.ts';

/**
 * Staff sign in with a SAML 2.0 identity provider (node-saml as the service provider): the
 * provider's metadata from a file, its answers made and signed in the test (xml-crypto, a
 * throwaway key from openssl). Signed assertions answering our request, for our audience and
 * recipient, in their time by the app's clock, each used once; anything else refused with no
 * session.
 */
let idp: TestIdp;
let db: TestDatabase;
let app: TestApp;
let boss: Client;
const clock = new ManualClock(new Date());
const SP = 'https://reading-room.campus.example/sp';
let acs: string;

beforeAll(async () => {
  idp = await startTestIdp();
  db = await createTestDatabase(clock);
  app = await startTestApp(db, clock, {
    env: {
      SAML_IDP_METADATA: idp.metadataFile,
      SAML_SP_ENTITY_ID: SP,
      SAML_GROUPS_ATTRIBUTE: 'groups',
      STAFF_ROLE_MAP: JSON.stringify({ 'reading-room-admins': ['admin'], desk: ['checkin'] }),
    },
  });
  acs = 'https://reading-room.campus.example/api/auth/saml/acs';
  await addUser(db, 'boss', 'correct horse', ['admin']);
  boss = new Client(app.baseUrl);
  expect((await boss.login('boss', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
  await idp?.stop();
});

const signedIn = async (c: Client) =>
  ((await (await c.get('/api/session')).json()) as { signedIn: boolean }).signedIn;

/** Starts a sign-in: answers the request ID the provider's answer must name. */
async function start(returnTo = '/admin/reports'): Promise<string> {
  const res = await new Client(app.baseUrl).request(
    'GET',
    `/api/auth/saml/start?returnTo=${encodeURIComponent(returnTo)}`,
    { redirect: 'manual' },
  );
  expect(res.status).toBe(302);
  const url = new URL(res.headers.get('location')!);
  expect(url.origin + url.pathname).toBe(
    'https://idp.campus.example/idp/profile/SAML2/Redirect/SSO',
  );
  expect(url.searchParams.get('RelayState')).toBe(returnTo);
  return requestIdOf(url);
}

/** Posts the answer as the browser does (a form, no XHR header): a client with its session. */
async function post(xml: string, relayState = '/admin/reports') {
  const res = await fetch(`${app.baseUrl}/api/auth/saml/acs`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: encodeResponse(xml), RelayState: relayState }),
  });
  expect(res.status).toBe(302);
  const client = new Client(app.baseUrl).takeCookie(res);
  return { location: res.headers.get('location'), client };
}

const parts = (inResponseTo: string, over: Partial<AssertionParts> = {}): AssertionParts => ({
  inResponseTo,
  nameId: 'alice',
  groups: ['reading-room-admins', 'students'],
  audience: SP,
  recipient: acs,
  now: clock.now(),
  ...over,
});

async function refused(xml: string) {
  const { location, client } = await post(xml);
  expect(location).toBe('/admin/?signIn=failed');
  expect(await signedIn(client)).toBe(false);
}

describe('SAML sign-in', () => {
  it('publishes the SP metadata for the provider', async () => {
    const res = await fetch(`${app.baseUrl}/api/auth/saml/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/samlmetadata\+xml/);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${SP}"`);
    expect(xml).toContain(`Location="${acs}"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
  });

  it('signs a member of a mapped group in from a signed answer, to the page asked', async () => {
    const id = await start();
    const { location, client } = await post(signedResponse(parts(id), idp.key));
    expect(location).toBe('/admin/reports');
    expect(await (await client.get('/api/auth/me')).json()).toEqual({
      username: 'alice',
      roles: ['admin'],
      grants: ['admin'],
    });
  });

  it('refuses a person in no mapped group: the permission screen, no session', async () => {
    const id = await start();
    const { location, client } = await post(
      signedResponse(parts(id, { nameId: 'dave', groups: ['students'] }), idp.key),
    );
    expect(location).toBe('/admin/?signIn=no-role');
    expect(await signedIn(client)).toBe(false);
  });

  it('takes the roles and sessions of an account whose assertion names no mapped group any more', async () => {
    const first = await post(
      signedResponse(parts(await start(), { nameId: 'greta', groups: ['desk'] }), idp.key),
    );
    expect(first.location).toBe('/admin/reports');
    expect((await first.client.get('/api/admin/check-in')).status).toBe(200);
    const again = await post(
      signedResponse(parts(await start(), { nameId: 'greta', groups: ['students'] }), idp.key),
    );
    expect(again.location).toBe('/admin/?signIn=no-role');
    expect(await signedIn(again.client)).toBe(false);
    // The session opened before ends too: signed out (401), not merely without a role.
    expect((await first.client.get('/api/admin/check-in')).status).toBe(401);
    expect(await signedIn(first.client)).toBe(false);
  });

  it('refuses an unsigned assertion', async () => {
    const id = await start();
    await refused(responseXml(assertionXml(parts(id)), parts(id)));
  });

  it('refuses an assertion signed by a key the provider does not publish', async () => {
    const id = await start();
    await refused(signedResponse(parts(id), idp.stranger));
  });

  it('refuses a tampered assertion (the name changed after signing)', async () => {
    const id = await start();
    const signed = signedResponse(parts(id, { groups: ['desk'] }), idp.key);
    await refused(signed.replace('>desk<', '>reading-room-admins<'));
  });

  it('refuses signature wrapping: the signed assertion hidden, a forged one in its place', async () => {
    const id = await start();
    const signed = signedResponse(parts(id, { nameId: 'carol', groups: ['desk'] }), idp.key);
    const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed)![0];
    const forged = assertionXml(parts(id, { nameId: 'mallory' }));
    await refused(
      responseXml(`<samlp:Extensions>${signedAssertion}</samlp:Extensions>${forged}`, parts(id)),
    );
    // And both side by side, the forged one first.
    await refused(responseXml(`${forged}${signedAssertion}`, parts(id)));
  });

  it('refuses another audience, another recipient, another issuer', async () => {
    for (const over of [
      { audience: 'https://another-app.example/sp' },
      { recipient: 'https://another-app.example/acs' },
      { issuer: 'https://idp.elsewhere.example' },
    ]) {
      const id = await start();
      await refused(signedResponse(parts(id, over), idp.key));
    }
  });

  it('refuses an answer to no request of ours, or to one used already', async () => {
    await refused(signedResponse(parts('', { inResponseTo: undefined }), idp.key));
    await refused(signedResponse(parts('_never-sent'), idp.key));
    const id = await start();
    const answer = signedResponse(parts(id), idp.key);
    expect((await post(answer)).location).toBe('/admin/reports');
    // Replayed as it was.
    await refused(answer);
  });

  it('uses each assertion once, even answering another request', async () => {
    const first = await start();
    expect(
      (await post(signedResponse(parts(first, { assertionId: '_once' }), idp.key))).location,
    ).toBe('/admin/reports');
    const second = await start();
    await refused(signedResponse(parts(second, { assertionId: '_once' }), idp.key));
  });

  it("refuses an expired assertion by the app's clock, with a small skew", async () => {
    const id = await start();
    const answer = signedResponse(parts(id, { validMs: 60_000 }), idp.key);
    clock.advance(60_000 + 31_000);
    try {
      await refused(answer);
    } finally {
      clock.advance(-(60_000 + 31_000));
    }
    // A moment within the skew still holds.
    const again = await start();
    const fresh = signedResponse(parts(again, { validMs: 60_000 }), idp.key);
    clock.advance(60_000 + 10_000);
    try {
      expect((await post(fresh)).location).toBe('/admin/reports');
    } finally {
      clock.advance(-(60_000 + 10_000));
    }
  });

  it('follows only a path of the staff app in RelayState', async () => {
    const id = await start();
    const { location } = await post(signedResponse(parts(id), idp.key), 'https://evil.example/');
    expect(location).toBe('/admin/');
    const res = await new Client(app.baseUrl).request(
      'GET',
      `/api/auth/saml/start?returnTo=${encodeURIComponent('//evil.example/')}`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
  });

  it('records SAML sign-ins and refusals for admins, never the assertion', async () => {
    const items = (
      (await (await boss.get('/api/auth/sign-ins')).json()) as {
        items: { method: string; username: string; outcome: string; reason: string | null }[];
      }
    ).items;
    expect(items).toContainEqual(
      expect.objectContaining({ method: 'saml', username: 'alice', outcome: 'signed-in' }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({ method: 'saml', outcome: 'refused', reason: 'provider-refused' }),
    );
    expect(JSON.stringify(items)).not.toMatch(/Assertion|PHNhbWxw/);
  });

  it('signs its requests and publishes its certificate with SAML_SP_KEY and SAML_SP_CERT', async () => {
    const sp = await makeSigningKey(idp.dir, 'sp');
    const signing = await startTestApp(db, clock, {
      env: {
        SAML_IDP_METADATA: idp.metadataFile,
        SAML_SP_ENTITY_ID: SP,
        SAML_SP_KEY: path.join(idp.dir, 'sp.key'),
        SAML_SP_CERT: path.join(idp.dir, 'sp.pem'),
        STAFF_ROLE_MAP: JSON.stringify({ 'reading-room-admins': ['admin'] }),
      },
    });
    try {
      const metadata = await (await fetch(`${signing.baseUrl}/api/auth/saml/metadata`)).text();
      const body = sp.cert.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
      expect(metadata.replace(/\s+/g, '')).toContain(body);
      const res = await new Client(signing.baseUrl).request('GET', '/api/auth/saml/start', {
        redirect: 'manual',
      });
      const url = new URL(res.headers.get('location')!);
      expect(url.searchParams.get('SigAlg')).toBe(
        'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      );
      expect(url.searchParams.get('Signature')).toBeTruthy();
    } finally {
      await signing.close();
    }
  });
});
