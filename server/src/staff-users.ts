import { randomBytes } from 'node:crypto';
import { createUser, STAFF_ROLES, type Pool, type Role } from '@rr/platform';

/**
 * Staff users from the command line (`npm run staff-user -- <username> <role>[,<role>...]`): the
 * product has no user administration screen, and the first admin comes from the environment, so
 * this is how a library adds a reports-only or check-in-only account or changes one's
 * roles and password. The password comes from `STAFF_USER_PASSWORD` (at least 12 characters);
 * without it one is generated and printed once.
 */
const MIN_PASSWORD = 12;

export interface StaffUserRequest {
  username: string;
  roles: Role[];
  password: string;
  generated: boolean;
}

const isRole = (r: string): r is Role => (STAFF_ROLES as readonly string[]).includes(r);

/** The account the arguments ask for, or an Error whose message says what is wrong. */
export function staffUserRequest(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): StaffUserRequest | Error {
  const usage = `usage: npm run staff-user -- <username> <role>[,<role>...] (roles: ${STAFF_ROLES.join(', ')})`;
  const [username = '', roleList = '', ...rest] = args;
  if (!username.trim() || !roleList || rest.length) return new Error(usage);
  if (username.trim() !== username || username.length > 100)
    return new Error(
      'The user name must not start or end with spaces and has at most 100 characters.',
    );
  const roles = [...new Set(roleList.split(',').map((r) => r.trim()))];
  const unknown = roles.filter((r) => !isRole(r));
  if (unknown.length) return new Error(`Unknown role ${unknown.join(', ')}. ${usage}`);
  const given = env.STAFF_USER_PASSWORD;
  if (given !== undefined && (given.length < MIN_PASSWORD || given.length > 200))
    return new Error(`STAFF_USER_PASSWORD needs ${MIN_PASSWORD} to 200 characters.`);
  return {
    username,
    roles: roles.filter(isRole),
    password: given ?? randomBytes(12).toString('base64url'),
    generated: given === undefined,
  };
}

/** Creates the account, or sets the roles and password of an existing one. */
export async function saveStaffUser(pool: Pool, request: StaffUserRequest): Promise<void> {
  await createUser(pool, request.username, request.password, request.roles);
}
