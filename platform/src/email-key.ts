import { createHmac } from 'node:crypto';
import { emailKeyForm } from '@rr/domain/email';
import { subjectKeyForm } from '@rr/domain/person-key';

/**
 * A key for an e-mail address that events can carry instead of the address itself: an HMAC with
 * a secret kept outside the log, so the log holds no personal data yet equal addresses match.
 * Addresses are keyed in their folded form (`emailKeyForm`): one person's spellings (`+tag`,
 * Gmail's dots) are one key.
 */
export function emailKey(secret: string, email: string): string {
  return createHmac('sha256', secret).update(emailKeyForm(email)).digest('hex').slice(0, 40);
}

/**
 * The key of a visitor's campus subject (`<issuer>!<subject>`) that events carry instead of the
 * subject: an HMAC with the same secret, of a form that never equals an address's
 * (subjectKeyForm), so the per-visitor limits count a signed-in person once whatever address they
 * give (docs/product.md#one-person-one-set-of-limits).
 */
export function subjectKey(secret: string, subject: string): string {
  return createHmac('sha256', secret).update(subjectKeyForm(subject)).digest('hex').slice(0, 40);
}
