import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * A secret from configuration, or else generated once and kept in the database, so every
 * instance and every restart uses the same one.
 */
export async function persistentSecret(
  pool: pg.Pool,
  key: string,
  configured: string | undefined,
): Promise<string> {
  if (configured) return configured;
  await pool.query(
    `INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`,
    [key, randomBytes(32).toString('base64url')],
  );
  const r = await pool.query<{ value: string }>(`SELECT value FROM app_settings WHERE key = $1`, [
    key,
  ]);
  return r.rows[0]!.value;
}
