import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffUserCommand } from '../../server/src/staff-users.ts';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createJura } from '../support/site-roles.ts';

/**
 * `npm run staff-user` against the suite's database: a library adds a check-in-only account and
 * changes its roles; the account signs in with exactly those rights. The command runs for real
 * (a process of its own, as `npm run` starts it) once for each exit code; its other calls run the
 * same command in this process, on the suite's pool (a process costs seconds of CPU to load).
 */
const root = path.resolve(import.meta.dirname, '../..');
let suite: AdminSuite;

beforeAll(async () => {
  suite = await openAdminSuite();
});
afterAll(async () => {
  await suite.close();
});

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command in a process of its own, without blocking this process, whose server answers
 * the test's requests: a server held still for seconds finds its idle keep-alive connections due
 * and resets them while the next request goes out.
 */
function staffUserProcess(args: string[], password?: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
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
      (error, stdout, stderr) => {
        const code = error && typeof error.code === 'number' ? error.code : error ? null : 0;
        resolve({ status: code, stdout, stderr });
      },
    );
  });
}

/** The same command in this process, on the suite's pool. */
async function staffUser(args: string[], password?: string): Promise<Ran> {
  const env = password ? { STAFF_USER_PASSWORD: password } : {};
  const outcome = await staffUserCommand(args, env, (use) => use(suite.db.pool));
  const lines = (l: string[]) => l.map((line) => `${line}\n`).join('');
  return { status: outcome.code, stdout: lines(outcome.out), stderr: lines(outcome.err) };
}

describe('npm run staff-user', () => {
  it('adds a check-in-only account that signs in with exactly that right, and changes it', async () => {
    const made = await staffUserProcess(['einlass', 'checkin'], 'einlass-password-1');
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('staff user einlass: roles checkin');
    const desk = new Client(suite.app.baseUrl);
    const signedIn = await desk.login('einlass', 'einlass-password-1');
    expect(await signedIn.json()).toEqual({
      username: 'einlass',
      roles: ['checkin'],
      grants: ['checkin'],
    });
    expect((await desk.get('/api/admin/check-in')).status).toBe(200);
    expect((await desk.get('/api/admin/rooms')).status).toBe(403);

    // Roles changed and a generated password, printed once.
    const changed = await staffUser(['einlass', 'checkin,reports']);
    expect(changed.status, changed.stderr).toBe(0);
    const password = /password \(shown once\): (\S+)/.exec(changed.stdout)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    const again = new Client(suite.app.baseUrl);
    expect((await again.login('einlass', 'einlass-password-1')).status).toBe(401);
    const res = await again.login('einlass', password);
    expect(await res.json()).toEqual({
      username: 'einlass',
      roles: ['checkin', 'reports'],
      grants: ['checkin', 'reports'],
    });
  });

  it('changes only the roles with --keep-password, and ends the sessions with --end-sessions', async () => {
    expect((await staffUser(['pforte', 'admin'], 'pforte-password-1')).status).toBe(0);
    const desk = new Client(suite.app.baseUrl);
    expect((await desk.login('pforte', 'pforte-password-1')).status).toBe(200);

    const demoted = await staffUser(['pforte', 'checkin', '--keep-password']);
    expect(demoted.status, demoted.stderr).toBe(0);
    expect(demoted.stdout).toContain('staff user pforte: roles checkin');
    expect(demoted.stdout).not.toContain('password');
    expect(await (await desk.get('/api/auth/me')).json()).toEqual({
      username: 'pforte',
      roles: ['checkin'],
      grants: ['checkin'],
    });
    expect((await desk.get('/api/admin/rooms')).status).toBe(403);

    const ended = await staffUser(['pforte', '--end-sessions']);
    expect(ended.status, ended.stderr).toBe(0);
    expect(ended.stdout).toContain('staff user pforte: sessions ended');
    expect((await desk.get('/api/auth/me')).status).toBe(401);
    expect((await desk.login('pforte', 'pforte-password-1')).status).toBe(200);

    const unknown = await staffUserProcess(['niemand', '--end-sessions']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('There is no staff user niemand.');
  });

  it('refuses an unknown role with a message and exit code 2, changing nothing', async () => {
    const refused = await staffUserProcess(['chef', 'superuser'], 'chef-password-12');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/Unknown role superuser/);
    expect((await new Client(suite.app.baseUrl).login('chef', 'chef-password-12')).status).toBe(
      401,
    );
  });

  it('gives a role for one site by its slug (admin@jura); refuses a slug no site has', async () => {
    await createJura(suite.admin);
    // The command finds slugs in the sites' read model: once the new site has reached it.
    await expect
      .poll(async () => JSON.stringify(await (await suite.admin.get('/api/admin/sites')).json()))
      .toContain('"slug":"jura"');
    const made = await staffUser(['jura-chefin', 'admin@jura,checkin@jura'], 'jura-password-12');
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('staff user jura-chefin: roles admin@jura, checkin@jura');
    const branch = new Client(suite.app.baseUrl);
    expect(await (await branch.login('jura-chefin', 'jura-password-12')).json()).toEqual({
      username: 'jura-chefin',
      roles: ['admin', 'checkin'],
      grants: ['admin@jura', 'checkin@jura'],
    });
    const sites = (await (await branch.get('/api/admin/sites')).json()) as {
      content: { slug: string }[];
    };
    expect(sites.content.map((s) => s.slug)).toEqual(['jura']);

    const nowhere = await staffUser(['chef', 'admin@nowhere'], 'chef-password-12');
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toContain('No site has the slug of admin@nowhere.');
    const malformed = await staffUser(['chef', 'admin@Jura!'], 'chef-password-12');
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toMatch(/Unknown role admin@Jura!/);
    expect((await new Client(suite.app.baseUrl).login('chef', 'chef-password-12')).status).toBe(
      401,
    );
  });
});
