/** Address used in place of a blocked link. */
export const BLOCKED_URL = 'about:blank';

const BLOCKED_SCHEMES = new Set(['javascript', 'data', 'vbscript']);

/**
 * Browsers ignore ASCII whitespace and control characters inside a scheme
 * ("java\tscript:" runs as JavaScript), so they are removed before the scheme is read.
 */
function stripIgnoredCharacters(url: string): string {
  let result = '';
  for (const char of url) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0x20 && !(code >= 0x7f && code <= 0x9f)) result += char;
  }
  return result;
}

/** The scheme of an absolute address in lower case, or null for a relative address. */
export function urlScheme(url: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(stripIgnoredCharacters(url));
  return match?.[1] ? match[1].toLowerCase() : null;
}

/**
 * Returns the address unchanged (trimmed) unless it uses a javascript:, data: or vbscript:
 * scheme, which is replaced by `about:blank`. Relative addresses pass.
 */
export function sanitizeUrl(url: string | null | undefined): string {
  const trimmed = (url ?? '').trim();
  if (trimmed === '') return BLOCKED_URL;
  const scheme = urlScheme(trimmed);
  return scheme !== null && BLOCKED_SCHEMES.has(scheme) ? BLOCKED_URL : trimmed;
}

export function isSafeUrl(url: string | null | undefined): boolean {
  return sanitizeUrl(url) !== BLOCKED_URL;
}
