import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import {
  OIDC_CLIENT,
  signInAtProvider,
  startCraftedProvider,
  startOidcProvider,
  type CraftedProvider,
  type TestOidcProvider,
} from '../support/oidc-servers.ts';
import { reservePort } from '../support/ports.ts';

/**
 * Staff sign in with an OpenID provider (authorization code + PKCE S256, state, nonce, discovery):
 * the npm package oidc-provider on loopback with its login and consent pages, and a provider of
 * the test's making that answers crafted ID tokens. Each attack is refused with no session.
 */
let db: TestDatabase;
let app: TestApp;
let crafted: CraftedProvider;
let craftedApp: TestApp;
let provider: TestOidcProvider;
let boss: Client;

const ROLE_MAP = { 'reading-room-admins': ['admin'], desk: ['checkin'] };
/** The provider's groups per login, read at each sign-in: a test may change them. */
const groups: Record<string, string[]> = {
  alice: ['reading-room-admins', 'students'],
  dave: ['students'],
  frank: ['reading-room-admins'],
};

beforeAll(async () => {
  db = await createTestDatabase();
  // The provider must know the app's callback before the app knows the provider: a fixed port.
  const reserved = await reservePort();
  const port = reserved.port;
  const appBaseUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider(appBaseUrl, groups);
  app = await startTestApp(db, undefined, {
    env: { ...provider.env, STAFF_ROLE_MAP: JSON.stringify(ROLE_MAP) },
    port: reserved,
  });
  crafted = await startCraftedProvider();
  craftedApp = await startTestApp(db, undefined, {
    env: { ...crafted.env, STAFF_ROLE_MAP: JSON.stringify(ROLE_MAP) },
  });
  await addUser(db, 'boss', 'correct horse', ['admin']);
  boss = new Client(app.baseUrl);
  expect((await boss.login('boss', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await craftedApp?.close();
  await crafted?.stop();
  await app?.close();
  await provider?.stop();
  await db?.drop();
});

const signedIn = async (c: Client) =>
  ((await (await c.get('/api/session')).json()) as { signedIn: boolean }).signedIn;

async function start(c: Client, returnTo = '/admin/reports'): Promise<URL> {
  const res = await c.request(
    'GET',
    `/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`,
    {
      redirect: 'manual',
    },
  );
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

async function callback(c: Client, url: URL): Promise<string | null> {
  const res = await c.request('GET', url.pathname + url.search, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location');
}

describe('OpenID Connect sign-in', () => {
  it('lists the provider for the sign-in page', async () => {
    const res = await new Client(app.baseUrl).get('/api/auth/providers');
    expect(await res.json()).toEqual({
      providers: [{ id: 'oidc', label: 'Campus account', startUrl: 'auth/oidc/start' }],
      directory: false,
      passwordSignIn: true,
    });
  });

  it('sends the browser to the provider with PKCE S256, state and nonce', async () => {
    const url = await start(new Client(app.baseUrl));
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    expect(url.searchParams.get('client_id')).toBe(OIDC_CLIENT.id);
  });

  it('signs a member of a mapped group in through the provider pages, back to the page asked', async () => {
    const c = new Client(app.baseUrl);
    const back = await signInAtProvider((await start(c)).href, 'alice', app.baseUrl);
    expect(await callback(c, back)).toBe('/admin/reports');
    expect(await (await c.get('/api/auth/me')).json()).toEqual({
      username: 'alice',
      roles: ['admin'],
      grants: ['admin'],
    });
    const accounts = (await (await boss.get('/api/auth/staff-accounts')).json()) as {
      items: { username: string; source: string }[];
    };
    expect(accounts.items).toContainEqual(
      expect.objectContaining({ username: 'alice', source: 'oidc' }),
    );

    // Signing out ends the provider's session too: the answer names its end-session page.
    const out = await c.request('POST', '/api/auth/logout');
    expect(out.status).toBe(200);
    const end = new URL(((await out.json()) as { endSessionUrl: string }).endSessionUrl);
    expect(end.origin).toBe(provider.issuer);
    expect(end.searchParams.get('id_token_hint')).toBeTruthy();
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${app.baseUrl}/admin/`);
    expect(await signedIn(c)).toBe(false);
  });

  it('refuses a person in no mapped group: the permission screen, no session', async () => {
    const c = new Client(app.baseUrl);
    const back = await signInAtProvider((await start(c)).href, 'dave', app.baseUrl);
    expect(await callback(c, back)).toBe('/admin/?signIn=no-role');
    expect(await signedIn(c)).toBe(false);
  });

  it('takes the roles and every session of an account whose person left the mapped groups, at the next sign-in', async () => {
    const signInAs = async (c: Client, login: string) =>
      callback(c, await signInAtProvider((await start(c)).href, login, app.baseUrl));
    const office = new Client(app.baseUrl);
    const laptop = new Client(app.baseUrl);
    for (const c of [office, laptop]) {
      expect(await signInAs(c, 'frank')).toBe('/admin/reports');
      expect((await c.get('/api/admin/rooms')).status).toBe(200);
    }

    // The provider no longer puts frank in a mapped group: his next sign-in is refused, and the
    // sessions he opened before end with it (signed out: 401, not merely without a role).
    groups.frank = ['students'];
    const again = new Client(app.baseUrl);
    expect(await signInAs(again, 'frank')).toBe('/admin/?signIn=no-role');
    expect(await signedIn(again)).toBe(false);
    for (const c of [office, laptop]) {
      expect((await c.get('/api/admin/rooms')).status).toBe(401);
      expect(await signedIn(c)).toBe(false);
    }
    const accounts = (await (await boss.get('/api/auth/staff-accounts')).json()) as {
      items: { username: string; roles: string[] }[];
    };
    expect(accounts.items.find((a) => a.username === 'frank')?.roles).toEqual([]);
    const records = (await (await boss.get('/api/auth/sign-ins?name=frank')).json()) as {
      items: { outcome: string; reason: string | null }[];
    };
    expect(records.items[0]).toMatchObject({ outcome: 'refused', reason: 'no-mapped-group' });

    // Back in the group, he signs in anew with the roles it maps to.
    groups.frank = ['reading-room-admins'];
    const back = new Client(app.baseUrl);
    expect(await signInAs(back, 'frank')).toBe('/admin/reports');
    expect((await back.get('/api/admin/rooms')).status).toBe(200);
  });

  it('refuses a wrong state', async () => {
    const c = new Client(app.baseUrl);
    const back = await signInAtProvider((await start(c)).href, 'alice', app.baseUrl);
    back.searchParams.set('state', 'not-the-state');
    expect(await callback(c, back)).toBe('/admin/?signIn=failed');
    expect(await signedIn(c)).toBe(false);
    // The attempt is used up: the right answer afterwards finds nothing to finish.
    back.searchParams.delete('state');
    expect(await callback(c, back)).toBe('/admin/?signIn=failed');
    expect(await signedIn(c)).toBe(false);
  });

  it('refuses a replayed code, in the same browser and in another', async () => {
    const victim = new Client(app.baseUrl);
    const back = await signInAtProvider((await start(victim)).href, 'alice', app.baseUrl);
    expect(await callback(victim, back)).toBe('/admin/reports');
    // The same answer again in another browser that started a sign-in of its own.
    const attacker = new Client(app.baseUrl);
    const own = await start(attacker);
    const replay = new URL(back);
    replay.searchParams.set('state', own.searchParams.get('state')!);
    expect(await callback(attacker, replay)).toBe('/admin/?signIn=failed');
    expect(await signedIn(attacker)).toBe(false);
    // And in a browser with no sign-in under way.
    const stranger = new Client(app.baseUrl);
    expect(await callback(stranger, back)).toBe('/admin/?signIn=failed');
    expect(await signedIn(stranger)).toBe(false);
  });

  it.each([
    'https://evil.example/admin/',
    '//evil.example/admin/',
    '/\\evil.example/admin/',
    'javascript:alert(1)',
    '/visitor/page',
    '/administrator',
  ])('refuses returnTo=%s', async (returnTo) => {
    const c = new Client(app.baseUrl);
    const res = await c.request(
      'GET',
      `/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`,
      {
        redirect: 'manual',
      },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('crafted ID tokens', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const good = (nonce: string, issuer: string) => ({
    iss: issuer,
    aud: OIDC_CLIENT.id,
    sub: 'carol-sub',
    preferred_username: 'carol',
    groups: ['desk'],
    nonce,
    iat: now(),
    exp: now() + 300,
  });

  async function signInWithCrafted(c: Client): Promise<string | null> {
    const authorize = await start(c);
    const res = await fetch(authorize, { redirect: 'manual' });
    return callback(c, new URL(res.headers.get('location')!));
  }

  it('signs in with a well-made token (the crafted provider itself works)', async () => {
    crafted.craft(({ nonce, issuer }) => ({ claims: good(nonce, issuer) }));
    const c = new Client(craftedApp.baseUrl);
    expect(await signInWithCrafted(c)).toBe('/admin/reports');
    expect(await (await c.get('/api/auth/me')).json()).toEqual({
      username: 'carol',
      roles: ['checkin'],
      grants: ['checkin'],
    });
  });

  it.each<
    [string, (nonce: string, issuer: string) => ReturnType<Parameters<CraftedProvider['craft']>[0]>]
  >([
    [
      'a wrong nonce',
      (nonce, issuer) => ({ claims: { ...good(nonce, issuer), nonce: 'another' } }),
    ],
    ['no nonce', (nonce, issuer) => ({ claims: { ...good(nonce, issuer), nonce: undefined } })],
    [
      'another audience',
      (nonce, issuer) => ({ claims: { ...good(nonce, issuer), aud: 'another-app' } }),
    ],
    ['another issuer', (nonce) => ({ claims: good(nonce, 'https://idp.elsewhere.example') })],
    [
      'an expired token',
      (nonce, issuer) => ({
        claims: { ...good(nonce, issuer), iat: now() - 7200, exp: now() - 3600 },
      }),
    ],
    [
      'a token signed by another key',
      (nonce, issuer) => ({ claims: good(nonce, issuer), foreignKey: true }),
    ],
    ['an unsigned token', (nonce, issuer) => ({ claims: good(nonce, issuer), unsigned: true })],
  ])('refuses %s, with no session', async (_what, make) => {
    crafted.craft(({ nonce, issuer }) => make(nonce, issuer));
    const c = new Client(craftedApp.baseUrl);
    expect(await signInWithCrafted(c)).toBe('/admin/?signIn=failed');
    expect(await signedIn(c)).toBe(false);
  });

  it('records refused and made sign-ins for admins, without tokens', async () => {
    const items = (
      (await (await boss.get('/api/auth/sign-ins')).json()) as {
        items: { method: string; username: string; outcome: string; reason: string | null }[];
      }
    ).items;
    expect(items).toContainEqual(
      expect.objectContaining({ method: 'oidc', username: 'carol', outcome: 'signed-in' }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({ method: 'oidc', outcome: 'refused', reason: 'provider-refused' }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({ method: 'oidc', username: 'dave', reason: 'no-mapped-group' }),
    );
    expect(JSON.stringify(items)).not.toMatch(/eyJ/);
  });
});
