import { createHmac } from 'node:crypto';
import { normalizeEmail } from '@rr/domain/email';

/**
 * A key for an e-mail address that events can carry instead of the address itself: an HMAC with
 * a secret kept outside the log, so the log holds no personal data yet equal addresses match.
 */
export function emailKey(secret: string, email: string): string {
  return createHmac('sha256', secret).update(normalizeEmail(email)).digest('hex').slice(0, 40);
}
