import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { startVisitorOidcProvider, type TestOidcProvider } from '../support/oidc-servers.ts';
import { IDP_ENTITY_ID, startTestIdp, type TestIdp } from '../support/saml-idp.ts';
import {
  SAML_ATTRIBUTES,
  visitorOidcSignIn,
  visitorSamlSignIn,
  type SamlAnswerOptions,
} from '../support/visitor-sign-in.ts';
import { reservePort } from '../support/ports.ts';

/**
 * Visitors sign in with the campus identity, apart from staff: oidc-provider on loopback as the
 * OpenID provider, a SAML identity provider whose signed answers the test makes. /me answers the
 * claims; sign-out ends every session of the subject; a visitor never holds a staff right, and a
 * staff session is no visitor.
 */
let db: TestDatabase;
let app: TestApp;
let provider: TestOidcProvider;
let idp: TestIdp;
const clock = new ManualClock(new Date());
const SP = 'https://reading-room.campus.example/visitors';
const ACS = 'https://reading-room.campus.example/api/visitor-auth/saml/acs';
const EPPN_SCOPED = SAML_ATTRIBUTES.scopedAffiliation;
const PAIRWISE = SAML_ATTRIBUTES.pairwiseId;

beforeAll(async () => {
  db = await createTestDatabase(clock);
  const reserved = await reservePort();
  const port = reserved.port;
  const appBaseUrl = `http://127.0.0.1:${port}`;
  provider = await startVisitorOidcProvider(appBaseUrl, {
    stud1: {
      email: 'Stud1@Uni-X.de',
      email_verified: true,
      name: 'Sam Student',
      eduperson_scoped_affiliation: ['student@uni-x.de', 'member@uni-x.de'],
      eduperson_affiliation: ['student', 'member'],
      schac_home_organization: 'uni-x.de',
    },
  });
  idp = await startTestIdp();
  // The provider's answers are checked against the app's clock: the real time here.
  clock.set(new Date());
  app = await startTestApp(db, clock, {
    env: {
      ...provider.env,
      VISITOR_SAML_IDP_METADATA: idp.metadataFile,
      VISITOR_SAML_SP_ENTITY_ID: SP,
    },
    port: reserved,
  });
  await addUser(db, 'boss', 'correct horse', ['admin']);
});

afterAll(async () => {
  await app?.close();
  await provider?.stop();
  await idp?.stop();
  await db?.drop();
});

const oidcSignIn = (c: Client, login: string, returnTo?: string) =>
  visitorOidcSignIn(c, login, returnTo);
const samlSignIn = (attributes: Record<string, string[]>, options?: SamlAnswerOptions) =>
  visitorSamlSignIn(app.baseUrl, idp, { entityId: SP, acs: ACS }, clock, attributes, options);
const me = async (c: Client) => (await c.get('/api/visitor-auth/me')).json();
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

describe('visitor sign-in with the campus identity', () => {
  it('names the ways to sign in in the settings the visitor app reads', async () => {
    const settings = (await (await new Client(app.baseUrl).get('/api/settings')).json()) as {
      visitorSignIn?: string[];
    };
    expect(settings.visitorSignIn).toEqual(['oidc', 'saml']);
  });

  it('signs a student in with OpenID Connect: /me answers the claims, the way back is the page asked', async () => {
    const c = new Client(app.baseUrl);
    expect((await c.get('/api/visitor-auth/me')).status).toBe(401);
    expect(await oidcSignIn(c, 'stud1')).toBe('/book/room-1');
    const me = await c.get('/api/visitor-auth/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      subject: `${provider.issuer}!stud1`,
      email: 'stud1@uni-x.de',
      name: 'Sam Student',
      affiliations: ['student@uni-x.de', 'member@uni-x.de', 'student', 'member'],
    });
    // A visitor holds no staff right.
    expect((await c.get('/api/auth/me')).status).toBe(401);
    expect((await c.get('/api/auth/staff-accounts')).status).toBe(401);
  });

  it('signs a student in with SAML by the pairwise-id; a transient NameID is no subject', async () => {
    const { location, client } = await samlSignIn({
      [PAIRWISE]: ['ABC123@uni-x.de'],
      [EPPN_SCOPED]: ['student@uni-x.de'],
      'urn:oid:0.9.2342.19200300.100.1.3': ['kim@uni-x.de'],
      'urn:oid:2.16.840.1.113730.3.1.241': ['Kim Kommilitonin'],
    });
    expect(location).toBe('/');
    expect(await (await client.get('/api/visitor-auth/me')).json()).toEqual({
      subject: `${IDP_ENTITY_ID}!ABC123@uni-x.de`,
      email: 'kim@uni-x.de',
      name: 'Kim Kommilitonin',
      affiliations: ['student@uni-x.de'],
    });
    const nobody = await samlSignIn({ [EPPN_SCOPED]: ['student@uni-x.de'] });
    expect(nobody.location).toBe('/?visitorSignIn=failed');
    expect((await nobody.client.get('/api/visitor-auth/me')).status).toBe(401);
  });

  it('takes an eduPersonTargetedID, or else a persistent NameID, as the subject', async () => {
    // eduPersonTargetedID's value is a NameID element of its own; the assertion's NameID is
    // transient here, which names nobody.
    const targeted = await samlSignIn({
      [SAML_ATTRIBUTES.targetedId]: [
        `<saml:NameID Format="${PERSISTENT}" NameQualifier="${IDP_ENTITY_ID}" SPNameQualifier="${SP}">tgt-4711</saml:NameID>`,
      ],
      [SAML_ATTRIBUTES.mail]: ['tina@uni-x.de'],
    });
    expect(targeted.location).toBe('/');
    expect(await me(targeted.client)).toMatchObject({
      subject: `${IDP_ENTITY_ID}!tgt-4711`,
      email: 'tina@uni-x.de',
    });
    // Neither a pairwise-id nor an eduPersonTargetedID: the persistent NameID names the person.
    const persistent = await samlSignIn(
      { [SAML_ATTRIBUTES.mail]: ['pia@uni-x.de'] },
      { nameId: { value: 'pers-0815', format: PERSISTENT } },
    );
    expect(persistent.location).toBe('/');
    expect(await me(persistent.client)).toMatchObject({
      subject: `${IDP_ENTITY_ID}!pers-0815`,
      email: 'pia@uni-x.de',
    });
  });

  it('signing out ends every session of the subject, in every browser', async () => {
    const phone = new Client(app.baseUrl);
    const laptop = new Client(app.baseUrl);
    await oidcSignIn(phone, 'stud1');
    await oidcSignIn(laptop, 'stud1');
    expect((await laptop.get('/api/visitor-auth/me')).status).toBe(200);
    expect((await phone.request('POST', '/api/visitor-auth/logout')).status).toBe(204);
    expect((await phone.get('/api/visitor-auth/me')).status).toBe(401);
    expect((await laptop.get('/api/visitor-auth/me')).status).toBe(401);
  });

  it('a staff session is no visitor, and a visitor sign-in ends the staff session of the browser', async () => {
    const c = new Client(app.baseUrl);
    expect((await c.login('boss', 'correct horse')).status).toBe(200);
    expect((await c.get('/api/visitor-auth/me')).status).toBe(401);
    await oidcSignIn(c, 'stud1');
    expect((await c.get('/api/visitor-auth/me')).status).toBe(200);
    expect((await c.get('/api/auth/me')).status).toBe(401);
  });

  it('a staff sign-in ends the visitor session of the browser', async () => {
    const c = new Client(app.baseUrl);
    await oidcSignIn(c, 'stud1');
    expect((await c.get('/api/visitor-auth/me')).status).toBe(200);
    expect((await c.login('boss', 'correct horse')).status).toBe(200);
    expect((await c.get('/api/visitor-auth/me')).status).toBe(401);
    expect((await c.get('/api/auth/me')).status).toBe(200);
  });

  it('returns neither to the display nor to another path outside the visitor app', async () => {
    const c = new Client(app.baseUrl);
    for (const method of ['oidc', 'saml'])
      for (const returnTo of ['/display', '/display/', '/display?room=1', '/admin', '/api']) {
        const res = await c.request(
          'GET',
          `/api/visitor-auth/${method}/start?returnTo=${encodeURIComponent(returnTo)}`,
          { redirect: 'manual' },
        );
        expect(res.status, `${method} ${returnTo}`).toBe(400);
        expect(await res.json()).toMatchObject({
          error: 'validation__error',
          errors: [{ field: 'returnTo', rule: 'visitor_path' }],
        });
      }
    // The RelayState comes back through the browser: a path of the display is replaced by the
    // visitor app's start page, one of the visitor app is followed.
    const relayed = await samlSignIn(
      { [PAIRWISE]: ['relay@uni-x.de'] },
      { relayState: '/display' },
    );
    expect(relayed.location).toBe('/');
    expect((await relayed.client.get('/api/visitor-auth/me')).status).toBe(200);
    const kept = await samlSignIn(
      { [PAIRWISE]: ['relay@uni-x.de'] },
      { relayState: '/s/jura/room/r1?date=2026-12-01' },
    );
    expect(kept.location).toBe('/s/jura/room/r1?date=2026-12-01');
  });

  it('returns only to a path of the visitor app', async () => {
    const c = new Client(app.baseUrl);
    for (const returnTo of ['https://evil.example/', '//evil.example/', '/admin/', '/api/x']) {
      const res = await c.request(
        'GET',
        `/api/visitor-auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`,
        { redirect: 'manual' },
      );
      expect(res.status, returnTo).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('ends a sign-in after its time by the clock', async () => {
    const c = new Client(app.baseUrl);
    await oidcSignIn(c, 'stud1');
    clock.advance(8 * 3_600_000 + 1000);
    try {
      expect((await c.get('/api/visitor-auth/me')).status).toBe(401);
    } finally {
      clock.set(new Date());
    }
  });
});
