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
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://staff.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://staff.invalid') return null;
  if (url.pathname !== '/admin' && !url.pathname.startsWith('/admin/')) return null;
  return url.pathname + url.search + url.hash;
}

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
