import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';

/**
 * GET /api/session: the staff app asks it on every load; signed out is an answer
 * (200), not an error, so the sign-in page logs no failed request. GET /api/auth/me keeps its
 * 401 for its other callers.
 */
let db: TestDatabase;
let app: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db);
  await addUser(db, 'reader', 'correct horse', ['reports']);
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('session state', () => {
  it('answers 200 "not signed in" without a session, the user and roles with one', async () => {
    const c = new Client(app.baseUrl);
    const out = await c.get('/api/session');
    expect(out.status).toBe(200);
    expect(out.headers.get('cache-control')).toBe('no-store');
    expect(await out.json()).toEqual({ signedIn: false, user: null });
    // The former check is unchanged.
    expect((await c.get('/api/auth/me')).status).toBe(401);

    expect((await c.login('reader', 'correct horse')).status).toBe(200);
    const signedIn = await c.get('/api/session');
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({
      signedIn: true,
      user: { username: 'reader', roles: ['reports'], grants: ['reports'] },
    });
    expect(await (await c.get('/api/auth/me')).json()).toEqual({
      username: 'reader',
      roles: ['reports'],
      grants: ['reports'],
    });

    expect((await c.request('POST', '/api/auth/logout')).status).toBe(204);
    expect(await (await c.get('/api/session')).json()).toEqual({ signedIn: false, user: null });
  });

  it('says "not signed in" for an unknown or expired session cookie, still with 200', async () => {
    const res = await fetch(`${app.baseUrl}/api/session`, {
      headers: { cookie: 'rr.sid=s%3Aunknown.signature', 'X-Requested-With': 'XMLHttpRequest' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ signedIn: false, user: null });
  });
});
