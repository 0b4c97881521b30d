import * as z from 'zod/mini';
import { isValidLocalDate } from './dates.ts';
import { requiredText, rule } from './rules.ts';
import { RoleGrantTexts, STAFF_ROLE_NAMES, type StaffRoleName } from './staff-roles.ts';

/** The staff roles a machine's API token may hold (the same three as a staff user's). */
export const API_TOKEN_ROLES = STAFF_ROLE_NAMES;
export type ApiTokenRole = StaffRoleName;

/** What the secret of every API token starts with, so secret scanners recognise a leaked one. */
export const API_TOKEN_PREFIX = 'rr_';
/** The shape of a secret: the prefix and 32 bytes in base64url (43 characters). */
export const API_TOKEN_SECRET_PATTERN = /^rr_[A-Za-z0-9_-]{43}$/;

/** An instant with its offset: `2027-01-31T18:00:00Z`, `2027-01-31T19:00:00+01:00`. */
const INSTANT =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

export const isInstant = (v: string) => INSTANT.test(v) && isValidLocalDate(v.slice(0, 10));

/**
 * A new API token: a name (required, at most 100), at least one role, each once (for all sites or
 * one: `reports@jura`), and an optional
 * expiry, an instant after `now` (the server's clock; the browser's own in a form).
 */
export function apiTokenInput(now: () => Date) {
  return z.object({
    name: requiredText(100),
    // For all sites (`reports`) or some (`reports@jura`): staff-roles.ts.
    roles: RoleGrantTexts,
    expiresAt: z.optional(
      z.nullable(
        z.string().check(
          rule('date', isInstant),
          rule<string>('date-future', (v) => !isInstant(v) || Date.parse(v) > now().getTime()),
        ),
      ),
    ),
  });
}
