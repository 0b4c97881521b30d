import * as z from 'zod/mini';
import { requiredText } from './rules.ts';

/** Sign-in: user name and password required (the password as typed, not trimmed). */
export const SignInInput = z.object({
  username: requiredText(100),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
});
