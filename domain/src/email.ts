/** The visitor is the e-mail address, trimmed and lower-cased (platform's emailKey keys it). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
