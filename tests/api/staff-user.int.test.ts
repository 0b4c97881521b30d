import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';

/**
 * `npm run staff-user`, run for real against the suite's database: a library adds a check-in-only
 * account and changes its roles; the account signs in with exactly those rights.
 */
const root = path.resolve(import.meta.dirname, '../..');
let suite: AdminSuite;

beforeAll(async () => {
  suite = await openAdminSuite();
});
afterAll(async () => {
  await suite.close();
});

function staffUser(args: string[], password?: string) {
  return spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/src/staff-user.ts', ...args],
    {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: suite.db.url,
        LOG_LEVEL: 'silent',
        ...(password ? { STAFF_USER_PASSWORD: password } : {}),
      },
    },
  );
}

describe('npm run staff-user', () => {
  it('adds a check-in-only account that signs in with exactly that right, and changes it', async () => {
    const made = staffUser(['einlass', 'checkin'], 'einlass-password-1');
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('staff user einlass: roles checkin');
    const desk = new Client(suite.app.baseUrl);
    const signedIn = await desk.login('einlass', 'einlass-password-1');
    expect(await signedIn.json()).toEqual({ username: 'einlass', roles: ['checkin'] });
    expect((await desk.get('/api/admin/check-in')).status).toBe(200);
    expect((await desk.get('/api/admin/rooms')).status).toBe(403);

    // Roles changed and a generated password, printed once.
    const changed = staffUser(['einlass', 'checkin,reports']);
    expect(changed.status, changed.stderr).toBe(0);
    const password = /password \(shown once\): (\S+)/.exec(changed.stdout)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    const again = new Client(suite.app.baseUrl);
    expect((await again.login('einlass', 'einlass-password-1')).status).toBe(401);
    const res = await again.login('einlass', password);
    expect(await res.json()).toEqual({ username: 'einlass', roles: ['checkin', 'reports'] });
  }, 60_000);

  it('refuses an unknown role with a message and exit code 2, changing nothing', async () => {
    const refused = staffUser(['chef', 'superuser'], 'chef-password-12');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/Unknown role superuser/);
    expect((await new Client(suite.app.baseUrl).login('chef', 'chef-password-12')).status).toBe(
      401,
    );
  });
});
