import * as z from 'zod/mini';
import { futureDate } from './fields.ts';
import { optionalText, requiredEmail } from './rules.ts';

/**
 * docs/product.md#validation, blacklist. `today` is the caller's today (`YYYY-MM-DD`): the server's clock in
 * the library's time zone, the browser's own date in a form.
 */

/** The blocked address: required, valid, at most 320 characters. */
export const BlacklistEmail = requiredEmail();

/** The entry's note: at most 250 characters. */
export const BlacklistDescription = optionalText(250, 'multi');

/** Blacklist edit: expiredAt required, a date, in the future; description at most 250. */
export function blacklistEntryUpdateInput(today: () => string) {
  return z.object({ expiredAt: futureDate(today), description: BlacklistDescription });
}

/** Blacklist add: as the edit, plus the address. */
export function blacklistEntryInput(today: () => string) {
  return z.object({
    email: BlacklistEmail,
    expiredAt: futureDate(today),
    description: BlacklistDescription,
  });
}
