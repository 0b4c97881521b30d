import type { Logger } from '@rr/platform';

/**
 * The human check (reCAPTCHA-compatible siteverify). Without a secret the check is disabled.
 * A verification service that cannot be reached counts as failed: no cart is created then.
 */
export function humanCheck(
  secret: string | undefined,
  verifyUrl: string,
  logger: Logger,
): (token: string | undefined) => Promise<boolean> {
  if (!secret) return () => Promise.resolve(true);
  return async (token) => {
    if (!token) return false;
    try {
      const res = await fetch(verifyUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret, response: token }),
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) return false;
      const body = (await res.json()) as { success?: unknown };
      return body.success === true;
    } catch (err) {
      logger.warn({ err: String(err) }, 'human check service unreachable');
      return false;
    }
  };
}
