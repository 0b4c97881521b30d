import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { roleGrantsOf, STAFF_ROLES, staffUserOf, type Logger, type Role } from '@rr/platform';
import { hashPassword } from './passwords.ts';
import type { SignInMethod } from './staff-sso.ts';

/**
 * Creates the account, or sets an existing one's roles and password. A new password ends the
 * account's sessions (its generation rises); its new roles hold from the next request of any.
 * The account is a local one from then on, also one the campus identity had made.
 */
export async function createUser(
  pool: pg.Pool,
  username: string,
  password: string,
  /** As written: `admin` for all sites, `admin@jura` for one (contracts' RoleGrantTexts). */
  roles: readonly string[],
): Promise<void> {
  await pool.query(
    `INSERT INTO admin_users (username, password_hash, roles, source) VALUES ($1, $2, $3, 'local')
     ON CONFLICT (username) DO UPDATE SET password_hash = EXCLUDED.password_hash,
       roles = EXCLUDED.roles, source = 'local',
       session_generation = admin_users.session_generation + 1`,
    [username, await hashPassword(password), roles],
  );
}

/** Sets an existing account's roles, keeping its password and sessions; false if there is none. */
export async function setUserRoles(
  pool: pg.Pool,
  username: string,
  roles: readonly string[],
): Promise<boolean> {
  const r = await pool.query('UPDATE admin_users SET roles = $2 WHERE username = $1', [
    username,
    roles,
  ]);
  return r.rowCount === 1;
}

/** Ends every session of the account in every process; false if there is no such account. */
export async function endUserSessions(pool: pg.Pool, username: string): Promise<boolean> {
  const r = await pool.query(
    'UPDATE admin_users SET session_generation = session_generation + 1 WHERE username = $1',
    [username],
  );
  return r.rowCount === 1;
}

/** Removes the account; its sessions are refused from their next request on. */
export async function removeUser(pool: pg.Pool, username: string): Promise<boolean> {
  const r = await pool.query('DELETE FROM admin_users WHERE username = $1', [username]);
  return r.rowCount === 1;
}

/** On first start, creates the admin from ADMIN_USERNAME/ADMIN_PASSWORD (or a generated password, printed once). */
export async function ensureFirstAdmin(
  pool: pg.Pool,
  username: string,
  password: string | undefined,
  logger: Logger,
): Promise<void> {
  const existing = await pool.query('SELECT 1 FROM admin_users LIMIT 1');
  if (existing.rowCount) return;
  const pw = password ?? randomBytes(12).toString('base64url');
  await createUser(pool, username, pw, ['admin']);
  if (password)
    logger.info({ username }, 'created the first admin user from ADMIN_USERNAME/ADMIN_PASSWORD');
  else {
    // Printed to the console, not the log stream: shown once to whoever started the server.
    console.log(
      `\n  First admin user created: ${username} / ${pw}\n  (set ADMIN_PASSWORD to choose it)\n`,
    );
  }
}

export interface StaffAccount {
  username: string;
  source: SignInMethod;
  roles: Role[];
  /** The roles with their sites, as written: `admin`, `admin@jura`. */
  grants: string[];
  lastSignInAt: string | null;
}

/** The staff accounts, by name, for the admins' list. */
export async function staffAccounts(pool: pg.Pool): Promise<StaffAccount[]> {
  const r = await pool.query<{
    username: string;
    source: SignInMethod;
    roles: string[];
    last_sign_in_at: Date | null;
  }>('SELECT username, source, roles, last_sign_in_at FROM admin_users ORDER BY username');
  return r.rows.map((row) => {
    const user = staffUserOf(row.username, row.roles);
    return {
      username: row.username,
      source: row.source,
      roles: STAFF_ROLES.filter((r) => user.roles.includes(r)),
      grants: roleGrantsOf(user),
      lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
    };
  });
}
