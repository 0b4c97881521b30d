import { describe, expect, it } from 'vitest';
import { BLOCKED_URL, isSafeUrl, sanitizeUrl, urlScheme } from './sanitize-url';

describe('sanitizeUrl', () => {
  it.each([
    'https://example.org/faq',
    'http://example.org/?a=1&b=2',
    'mailto:lesesaal@example.org',
    'tel:+431234',
    '/your-reservations',
    'room/42',
    '#top',
    '?reset=y',
  ])('keeps %s', (url) => {
    expect(sanitizeUrl(url)).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    '  javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'DATA:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:msgbox(1)',
  ])('blocks %j', (url) => {
    expect(sanitizeUrl(url)).toBe(BLOCKED_URL);
    expect(isSafeUrl(url)).toBe(false);
  });

  it('blocks empty input and trims kept addresses', () => {
    expect(sanitizeUrl('')).toBe(BLOCKED_URL);
    expect(sanitizeUrl(undefined)).toBe(BLOCKED_URL);
    expect(sanitizeUrl('  https://example.org  ')).toBe('https://example.org');
  });

  it('does not mistake a path containing a colon for a scheme', () => {
    expect(sanitizeUrl('/search?q=javascript:x')).toBe('/search?q=javascript:x');
    expect(urlScheme('./data:thing')).toBeNull();
  });
});
