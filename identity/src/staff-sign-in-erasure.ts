import type { Queryable } from '@rr/platform';

/**
 * Removes the records of staff sign-ins made before `before` (the erasure job's round): the
 * record is written and read by staff-sso.ts; its expiry runs in the command side's erasure job
 * with that of the rest of the personal data.
 */
export async function eraseStaffSignInsBefore(pool: Queryable, before: Date): Promise<number> {
  const r = await pool.query('DELETE FROM staff_sign_ins WHERE at < $1', [before]);
  return r.rowCount ?? 0;
}
