import * as z from 'zod/mini';
import { LANGUAGES } from './owner.ts';
import { requiredEmail } from './rules.ts';

/**
 * Asking for the "my bookings" link: the address (as a booking's: required, valid, at most 320)
 * and the language of the mail.
 */
export const MyBookingsLinkInput = z.object({
  email: requiredEmail(),
  language: z._default(z.enum(LANGUAGES), 'de'),
});
