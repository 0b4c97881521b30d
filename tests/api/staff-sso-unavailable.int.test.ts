import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { Client, startTestApp, type TestApp } from '../support/app.ts';
import {
  signInAtProvider,
  startOidcProvider,
  type TestOidcProvider,
} from '../support/oidc-servers.ts';
import { freePort } from '../support/ports.ts';

/**
 * A campus sign-in while the identity provider does not answer (nothing listens at the OpenID
 * issuer nor at the SAML metadata's address): the browser is sent back to the staff app, to the
 * page it came from with `?signIn=unavailable-oidc` or `-saml`, whose sign-in page says what to
 * do, instead of an error of the API. Once the provider answers again, the same button signs in.
 */
let db: TestDatabase;
let app: TestApp;
let issuerPort: number;
let provider: TestOidcProvider | null = null;

beforeAll(async () => {
  db = await createTestDatabase();
  issuerPort = await freePort();
  const metadataPort = await freePort();
  app = await startTestApp(db, undefined, {
    env: {
      OIDC_ISSUER: `http://127.0.0.1:${issuerPort}`,
      OIDC_CLIENT_ID: 'reading-room-staff',
      OIDC_CLIENT_SECRET: 'a client secret of the tests',
      SAML_IDP_METADATA: `https://127.0.0.1:${metadataPort}/metadata`,
      SAML_SP_ENTITY_ID: 'https://reading-room.campus.example/sp',
      STAFF_ROLE_MAP: JSON.stringify({ 'reading-room-admins': ['admin'] }),
    },
  });
});

afterAll(async () => {
  await app?.close();
  await provider?.stop();
  await db?.drop();
});

async function start(c: Client, path: string) {
  const res = await c.request('GET', path, { redirect: 'manual' });
  return {
    status: res.status,
    location: res.headers.get('location'),
    cache: res.headers.get('cache-control'),
  };
}

describe('a campus sign-in while the identity provider is down', () => {
  it('tells the sign-in page that the form signs in with a password', async () => {
    const res = await new Client(app.baseUrl).get('/api/auth/providers');
    expect(await res.json()).toMatchObject({
      providers: [{ id: 'oidc' }, { id: 'saml' }],
      directory: false,
      passwordSignIn: true,
    });
  });

  it('sends the browser back to the staff page it came from, saying the provider is down', async () => {
    const c = new Client(app.baseUrl);
    expect(
      await start(c, `/api/auth/oidc/start?returnTo=${encodeURIComponent('/admin/reports?x=1')}`),
    ).toEqual({
      status: 302,
      location: '/admin/reports?x=1&signIn=unavailable-oidc',
      cache: 'no-store',
    });
    expect(await start(c, '/api/auth/saml/start')).toEqual({
      status: 302,
      location: '/admin/?signIn=unavailable-saml',
      cache: 'no-store',
    });
    // Nobody is signed in, and a return path outside the staff app is still refused.
    const session = (await (await c.get('/api/session')).json()) as { signedIn: boolean };
    expect(session.signedIn).toBe(false);
    const foreign = await start(c, `/api/auth/oidc/start?returnTo=${encodeURIComponent('//evil')}`);
    expect(foreign.status).toBe(400);
  });

  it('signs in with the same button once the provider answers again', async () => {
    provider = await startOidcProvider(app.baseUrl, { alice: ['reading-room-admins'] }, issuerPort);
    const c = new Client(app.baseUrl);
    const started = await start(c, '/api/auth/oidc/start?returnTo=%2Fadmin%2Freports');
    expect(started.status).toBe(302);
    expect(new URL(started.location!).origin).toBe(provider.issuer);
    const back = await signInAtProvider(started.location!, 'alice', app.baseUrl);
    const done = await start(c, back.pathname + back.search);
    expect(done).toMatchObject({ status: 302, location: '/admin/reports' });
    expect(await (await c.get('/api/auth/me')).json()).toEqual({
      username: 'alice',
      roles: ['admin'],
      grants: ['admin'],
    });
  });
});
