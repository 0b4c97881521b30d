import { createHmac } from 'node:crypto';

/** The visitor is the e-mail address, trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A key for an e-mail address that events can carry instead of the address itself: an HMAC with
 * a secret kept outside the log, so the log holds no personal data yet equal addresses match.
 */
export function emailKey(secret: string, email: string): string {
  return createHmac('sha256', secret).update(normalizeEmail(email)).digest('hex').slice(0, 40);
}
