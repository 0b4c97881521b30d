import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from './db.ts';

/**
 * The secret of a confirmation mail's link (docs/product.md#confirmed-addresses): what proves the
 * visitor reads the booking's mailbox. The owner id cannot: the booker has it from the booking's
 * answer whatever address they typed. Each confirmation mail sent gets a random token of its own
 * (so every link sent works, a mail sent twice too); only its SHA-256 is kept, beside the log in
 * `confirmation_tokens`, never in an event, a read model or the outbox: the token itself is only
 * in the mail. This module is the table's one writer and reader.
 */

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** A new token for the owner's confirmation link: its hash is stored, the token answered. */
export async function issueConfirmationToken(
  db: Queryable,
  ownerId: string,
  at: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    'INSERT INTO confirmation_tokens (token_hash, owner_id, created_at) VALUES ($1, $2, $3)',
    [hashOf(token), ownerId, at],
  );
  return token;
}

/**
 * Whether a token is one of the owner's links: compared by hash in constant time with each hash
 * of the owner (a token of another owner, an altered or missing one: false).
 */
export async function confirmationTokenMatches(
  db: Queryable,
  ownerId: string,
  token: string | undefined,
): Promise<boolean> {
  if (!token) return false;
  const given = hashOf(token);
  const r = await db.query<{ token_hash: Buffer }>(
    'SELECT token_hash FROM confirmation_tokens WHERE owner_id = $1',
    [ownerId],
  );
  let matches = false;
  for (const { token_hash } of r.rows)
    if (token_hash.length === given.length && timingSafeEqual(token_hash, given)) matches = true;
  return matches;
}

/** The owner's tokens go with the booking's personal data (the erasure). */
export async function eraseConfirmationTokens(db: Queryable, ownerId: string): Promise<void> {
  await db.query('DELETE FROM confirmation_tokens WHERE owner_id = $1', [ownerId]);
}
