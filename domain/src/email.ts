/** The visitor is the e-mail address, trimmed and lower-cased (platform's emailKey keys it). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Providers that deliver `a.b@…` and `ab@…` to one mailbox, by the domain their key is folded
 * to: Google's two domains are one mailbox (`x@googlemail.com` is `x@gmail.com`).
 */
const DOTS_IGNORED: Readonly<Record<string, string>> = {
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
};

/** The domains whose addresses fold more than a sub-address (their dots). */
export const DOT_FOLDING_DOMAINS: readonly string[] = Object.keys(DOTS_IGNORED);

/**
 * The form of an address that its key is made of (docs/product.md#one-person-one-key): one
 * person's spellings fold into one form, so the blacklist, the per-visitor limits, the no-show
 * rule and the waitlist see one visitor. Normalised, the sub-address (`+tag`) is dropped, and for
 * providers that ignore dots in the local part the dots are dropped and the domain is the
 * provider's one. Only the key uses this form: mails go to the address as typed.
 */
export function emailKeyForm(email: string): string {
  const normalized = normalizeEmail(email);
  const at = normalized.lastIndexOf('@');
  if (at <= 0) return normalized;
  let local = normalized.slice(0, at);
  let domain = normalized.slice(at + 1);
  const plus = local.indexOf('+');
  // `+tag` alone (nothing before the plus) is left as it is: there is no mailbox to fold it to.
  if (plus > 0) local = local.slice(0, plus);
  const provider = DOTS_IGNORED[domain];
  if (provider !== undefined) {
    const undotted = local.replaceAll('.', '');
    if (undotted) local = undotted;
    domain = provider;
  }
  return `${local}@${domain}`;
}
