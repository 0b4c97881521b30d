import type { Request } from 'express';
import { problems } from '@rr/platform';

/** The origin the browser used (behind TRUST_PROXY, the proxy's). */
export const origin = (req: Request): string =>
  `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/**
 * Where a sign-in may return to: a path of the staff app on this origin, nothing else (no other
 * origin, no protocol-relative or backslashed path); null for anything else.
 */
export function staffReturnPath(value: string): string | null {
  const url = sameOriginPath(value);
  if (!url || !inApp(url.pathname, '/admin')) return null;
  return url.pathname + url.search + url.hash;
}

/** A path on this origin (no other origin, no protocol-relative or backslashed path), or null. */
function sameOriginPath(value: string): URL | null {
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://app.invalid');
  } catch {
    return null;
  }
  return url.origin === 'http://app.invalid' ? url : null;
}

const inApp = (pathname: string, base: string) =>
  pathname === base || pathname.startsWith(`${base}/`);

/**
 * Where a visitor's sign-in may return to: a path of the visitor app on this origin (by the rule
 * of staffReturnPath), not of the staff app, the display or the API; null for anything else.
 */
export function visitorReturnPath(value: string): string | null {
  const url = sameOriginPath(value);
  if (!url || ['/admin', '/display', '/api'].some((base) => inApp(url.pathname, base))) return null;
  return url.pathname + url.search + url.hash;
}

/** The answer to a `returnTo` that is not a path of the visitor app. */
export const invalidVisitorReturnTo = () =>
  problems.validation([
    { field: 'returnTo', rule: 'visitor_path', message: 'must be a path of the visitor app' },
  ]);

/** The answer to a `returnTo` that is not a path of the staff app. */
export const invalidReturnTo = () =>
  problems.validation([
    { field: 'returnTo', rule: 'staff_path', message: 'must be a path of the staff app' },
  ]);

/**
 * Where the staff app says that the identity provider did not answer (`?signIn=unavailable-oidc`
 * or `-saml`): the page the sign-in was to return to, whose sign-in page explains what to do
 * instead of an error of the API.
 */
export function providerUnavailablePath(returnTo: string, provider: 'oidc' | 'saml'): string {
  const url = new URL(staffReturnPath(returnTo) ?? '/admin/', 'http://staff.invalid');
  url.searchParams.set('signIn', `unavailable-${provider}`);
  return url.pathname + url.search + url.hash;
}

/** Where the staff app shows a refused campus sign-in: no role, or the provider's answer refused. */
export const SIGN_IN_REFUSED = {
  noRole: '/admin/?signIn=no-role',
  failed: '/admin/?signIn=failed',
};
