import { describe, expect, it } from 'vitest';
import { staffUserCommand, staffUserRequest } from './staff-users.ts';

describe('staff users from the command line', () => {
  it('takes a user name and roles, the password from the environment or a generated one', () => {
    expect(
      staffUserRequest(['einlass', 'checkin'], { STAFF_USER_PASSWORD: 'a-long-password' }),
    ).toEqual({
      action: 'save',
      username: 'einlass',
      roles: ['checkin'],
      password: 'a-long-password',
      generated: false,
    });
    const generated = staffUserRequest(['leitung', 'reports, checkin,reports'], {});
    expect(generated).toMatchObject({ roles: ['reports', 'checkin'], generated: true });
    expect((generated as { password: string }).password.length).toBeGreaterThanOrEqual(16);
  });

  it('changes only the roles with --keep-password, ends sessions or removes an account', () => {
    const env = { STAFF_USER_PASSWORD: 'a-long-password' };
    expect(staffUserRequest(['einlass', 'checkin,reports', '--keep-password'], env)).toEqual({
      action: 'roles',
      username: 'einlass',
      roles: ['checkin', 'reports'],
    });
    expect(staffUserRequest(['einlass', '--end-sessions'], {})).toEqual({
      action: 'end-sessions',
      username: 'einlass',
    });
    expect(staffUserRequest(['einlass', '--remove'], {})).toEqual({
      action: 'remove',
      username: 'einlass',
    });
  });

  it('refuses a missing name or role, an unknown role and a short password, saying why', () => {
    const message = (args: string[], env: Record<string, string> = {}) =>
      (staffUserRequest(args, env) as Error).message;
    expect(message([])).toMatch(/^usage: npm run staff-user/);
    expect(message(['einlass'])).toMatch(/^usage/);
    expect(message(['einlass', 'checkin', 'extra'])).toMatch(/^usage/);
    expect(message(['einlass', '--end-sessions', 'checkin'])).toMatch(/^usage/);
    expect(message(['--remove', 'einlass'])).toMatch(/^usage/);
    expect(message(['einlass', 'superuser'])).toMatch(/^Unknown role superuser/);
    expect(message([' einlass', 'checkin'])).toMatch(/spaces/);
    expect(message(['einlass', 'checkin'], { STAFF_USER_PASSWORD: 'short' })).toMatch(
      /12 to 200 characters/,
    );
  });

  it('opens no database for arguments it refuses (exit code 2)', async () => {
    let opened = false;
    const outcome = await staffUserCommand(['einlass', 'superuser'], {}, () => {
      opened = true;
      return Promise.resolve('never');
    });
    expect(outcome).toMatchObject({ code: 2, out: [] });
    expect(outcome.err[0]).toMatch(/^Unknown role superuser/);
    expect(opened).toBe(false);
  });
});
