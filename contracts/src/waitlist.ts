import * as z from 'zod/mini';
import { LANGUAGES } from './owner.ts';
import { requiredEmail } from './rules.ts';

/**
 * Joining a full slot's waitlist. The e-mail as a booking's (required, valid, at most
 * 320) and the language of the offer mail.
 */
export const WaitlistInput = z.object({
  email: requiredEmail(),
  language: z._default(z.enum(LANGUAGES), 'de'),
});
