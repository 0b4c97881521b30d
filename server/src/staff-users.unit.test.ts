import { describe, expect, it } from 'vitest';
import { staffUserRequest } from './staff-users.ts';

describe('staff users from the command line', () => {
  it('takes a user name and roles, the password from the environment or a generated one', () => {
    expect(
      staffUserRequest(['einlass', 'checkin'], { STAFF_USER_PASSWORD: 'a-long-password' }),
    ).toEqual({
      username: 'einlass',
      roles: ['checkin'],
      password: 'a-long-password',
      generated: false,
    });
    const generated = staffUserRequest(['leitung', 'reports, checkin,reports'], {});
    expect(generated).toMatchObject({ roles: ['reports', 'checkin'], generated: true });
    expect((generated as { password: string }).password.length).toBeGreaterThanOrEqual(16);
  });

  it('refuses a missing name or role, an unknown role and a short password, saying why', () => {
    const message = (args: string[], env: Record<string, string> = {}) =>
      (staffUserRequest(args, env) as Error).message;
    expect(message([])).toMatch(/^usage: npm run staff-user/);
    expect(message(['einlass'])).toMatch(/^usage/);
    expect(message(['einlass', 'checkin', 'extra'])).toMatch(/^usage/);
    expect(message(['einlass', 'superuser'])).toMatch(/^Unknown role superuser/);
    expect(message([' einlass', 'checkin'])).toMatch(/spaces/);
    expect(message(['einlass', 'checkin'], { STAFF_USER_PASSWORD: 'short' })).toMatch(
      /12 to 200 characters/,
    );
  });
});
