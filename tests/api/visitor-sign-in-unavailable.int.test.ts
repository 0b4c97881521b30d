import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { Client, startTestApp, type TestApp } from '../support/app.ts';
import {
  signInAtProvider,
  startVisitorOidcProvider,
  VISITOR_OIDC_CLIENT,
  type TestOidcProvider,
} from '../support/oidc-servers.ts';
import { freePort } from '../support/ports.ts';
import { visitorOidcSignIn } from '../support/visitor-sign-in.ts';

/**
 * A visitor's campus sign-in while the identity provider does not answer
 * (docs/product.md#visitor-sign-in): nothing listens at the OpenID issuer nor at the SAML
 * metadata's address, or the OpenID provider goes away between the browser's visit and the
 * code's exchange. The browser is sent back to the visitor page it came from with
 * `?visitorSignIn=unavailable`, never to an error of the API, and nobody is signed in. Once the
 * provider answers, the same button signs in.
 */
let db: TestDatabase;
let app: TestApp;
let issuerPort: number;
let provider: TestOidcProvider | null = null;
// The provider's ID tokens are checked against the app's clock: the real time here.
const clock = new ManualClock(new Date());

beforeAll(async () => {
  db = await createTestDatabase(clock);
  issuerPort = await freePort();
  const metadataPort = await freePort();
  app = await startTestApp(db, clock, {
    env: {
      VISITOR_OIDC_ISSUER: `http://127.0.0.1:${issuerPort}`,
      VISITOR_OIDC_CLIENT_ID: VISITOR_OIDC_CLIENT.id,
      VISITOR_OIDC_CLIENT_SECRET: VISITOR_OIDC_CLIENT.secret,
      VISITOR_SAML_IDP_METADATA: `https://127.0.0.1:${metadataPort}/metadata`,
      VISITOR_SAML_SP_ENTITY_ID: 'https://reading-room.campus.example/visitors',
    },
  });
});

afterAll(async () => {
  await app?.close();
  await provider?.stop();
  await db?.drop();
});

async function go(c: Client, path: string) {
  const res = await c.request('GET', path, { redirect: 'manual' });
  return {
    status: res.status,
    location: res.headers.get('location'),
    cache: res.headers.get('cache-control'),
  };
}

const signedIn = async (c: Client) => (await c.get('/api/visitor-auth/me')).status === 200;

describe('a visitor sign-in while the identity provider does not answer', () => {
  it('sends the browser back to the visitor page it came from, saying the provider is down', async () => {
    const c = new Client(app.baseUrl);
    const page = '/book/room-1?lang=en';
    expect(
      await go(c, `/api/visitor-auth/oidc/start?returnTo=${encodeURIComponent(page)}`),
    ).toEqual({ status: 302, location: `${page}&visitorSignIn=unavailable`, cache: 'no-store' });
    expect(await go(c, '/api/visitor-auth/saml/start')).toEqual({
      status: 302,
      location: '/?visitorSignIn=unavailable',
      cache: 'no-store',
    });
    // An answer posted back while the metadata cannot be read is not checked: nobody signs in.
    const posted = await fetch(`${app.baseUrl}/api/visitor-auth/saml/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        SAMLResponse: Buffer.from('<samlp:Response/>').toString('base64'),
        RelayState: page,
      }),
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get('location')).toBe(`${page}&visitorSignIn=unavailable`);
    expect(posted.headers.get('set-cookie')).toBeNull();
    expect(await signedIn(c)).toBe(false);
    // A return path outside the visitor app is still refused, whether the provider answers or not.
    const display = await go(
      c,
      `/api/visitor-auth/oidc/start?returnTo=${encodeURIComponent('/display')}`,
    );
    expect(display.status).toBe(400);
  });

  it('signs in once the provider answers; says it is down when it goes away before the code is exchanged', async () => {
    provider = await startVisitorOidcProvider(
      app.baseUrl,
      { stud1: { email: 'stud1@uni-x.de', email_verified: true } },
      issuerPort,
    );
    const first = new Client(app.baseUrl);
    expect(await visitorOidcSignIn(first, 'stud1')).toBe('/book/room-1');
    expect(await signedIn(first)).toBe(true);

    const second = new Client(app.baseUrl);
    const started = await go(second, '/api/visitor-auth/oidc/start?returnTo=%2Fbook%2Froom-1');
    expect(started.status).toBe(302);
    const back = await signInAtProvider(started.location!, 'stud1', app.baseUrl);
    await provider.stop();
    provider = null;
    expect(await go(second, back.pathname + back.search)).toEqual({
      status: 302,
      location: '/book/room-1?visitorSignIn=unavailable',
      cache: 'no-store',
    });
    expect(await signedIn(second)).toBe(false);
  });
});
