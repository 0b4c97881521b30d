import { messages, optionalText, requiredText, z } from '@rr/platform';

const salutation = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(['MR', 'MS', 'NONE'], { error: 'Choose Mr, Ms or none' }))
  .default('NONE');

const phonePattern = /^\+?[0-9]+$/;
const phoneMessage = 'Enter a telephone number with numbers or plus only';

const email = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .max(320, messages.maxLength(320))
  .pipe(z.email(messages.email));

/**
 * Owner data of staff edits and admin bookings (spec section 5): title, organisation and phone at
 * most 40; names required, at most 40; e-mail valid; phone digits and plus only.
 */
export const StaffOwnerBody = z.object({
  salutation,
  title: optionalText(40),
  firstName: requiredText(40),
  lastName: requiredText(40),
  organisation: optionalText(40),
  email: z.union([z.literal('').transform(() => undefined), email]).optional(),
  phone: optionalText(40).refine((v) => v === undefined || phonePattern.test(v), phoneMessage),
  accessibility: z.boolean().default(false),
});

/** The visitor's booking form: as staff's, but e-mail and phone are required; plus the language. */
export const VisitorOwnerBody = StaffOwnerBody.extend({
  email,
  phone: requiredText(40).refine((v) => phonePattern.test(v), phoneMessage),
  language: z.enum(['de', 'en']).default('de'),
}).openapi('BookingInput');

export type VisitorOwner = z.output<typeof VisitorOwnerBody>;
