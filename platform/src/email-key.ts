import { createHmac } from 'node:crypto';
import { emailKeyForm } from '@rr/domain/email';

/**
 * A key for an e-mail address that events can carry instead of the address itself: an HMAC with
 * a secret kept outside the log, so the log holds no personal data yet equal addresses match.
 * Addresses are keyed in their folded form (`emailKeyForm`): one person's spellings (`+tag`,
 * Gmail's dots) are one key.
 */
export function emailKey(secret: string, email: string): string {
  return createHmac('sha256', secret).update(emailKeyForm(email)).digest('hex').slice(0, 40);
}
