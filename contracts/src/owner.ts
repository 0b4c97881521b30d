import * as z from 'zod/mini';
import {
  optionalEmail,
  optionalPhone,
  optionalText,
  requiredEmail,
  requiredPhone,
  requiredText,
} from './rules.ts';

/** docs/product.md#validation, owners and personal data. */

export const SALUTATIONS = ['NONE', 'MR', 'MS'] as const;
export type Salutation = (typeof SALUTATIONS)[number];
export const LANGUAGES = ['de', 'en'] as const;
/** The languages of the product's pages and mails. */
export type Language = (typeof LANGUAGES)[number];

/** Mr, Ms or none, in any case; none when left out. Free (any of them). */
const salutation = z._default(
  z.pipe(
    z.pipe(
      z.string().check(z.trim()),
      z.transform((s: string) => s.toUpperCase()),
    ),
    z.enum(['MR', 'MS', 'NONE'], 'Choose Mr, Ms or none'),
  ),
  'NONE',
);
const language = z._default(z.enum(LANGUAGES), 'de');

const owner = {
  salutation,
  title: optionalText(40),
  firstName: requiredText(40),
  lastName: requiredText(40),
  organisation: optionalText(40),
  email: optionalEmail(),
  phone: optionalPhone(40),
  accessibility: z._default(z.boolean(), false),
};

/**
 * Reservation edit / admin booking: title, organisation and phone at most 40; first and last
 * name required, at most 40; e-mail valid, at most 320; phone digits and plus only (spaces,
 * hyphens, slashes, dots and brackets between them are dropped);
 * salutation and accessibility free.
 */
export const OwnerInput = z.object(owner);

/**
 * The admin booking: the owner plus the language of the confirmation. `confirmOverbooking`
 * (optional): `false` books only while the slot has a free seat (else the refusal
 * `timeslot__overbooking_not_confirmed`), `true` books beyond the capacity; left out, a full
 * slot is overbooked as the spec has it. `seatId` (optional): in a room with a seat plan, the
 * seat to book; left out, the best free seat, and none when no seat is free.
 */
export const StaffBookingInput = z.object({
  ...owner,
  language,
  confirmOverbooking: z.optional(z.boolean()),
  /** In a room with a seat plan: the seat to book (else the best free one, or none beyond them). */
  seatId: z.optional(z.uuid()),
});

/** The visitor's personal data: as the owner, but e-mail and phone are required too. */
export const BookingInput = z.object({
  ...owner,
  email: requiredEmail(),
  phone: requiredPhone(40),
  language,
});

/**
 * The check of the visitor's address when it is entered (before the summary): whether it may
 * book at all (docs/product.md#one-person-one-key) and, with the cart, whether the cart's rooms
 * admit it (members-only rooms).
 */
export const VisitorEmailCheckInput = z.object({
  email: requiredEmail(),
  transactionId: z.optional(z.uuid()),
});

/**
 * A booking's confirmation (docs/product.md#confirmed-addresses): the token of the confirmation
 * mail's link, the secret only the mail carries (43 characters; longer is no token). Left out,
 * the confirmation is refused like a wrong token.
 */
export const ConfirmationInput = z.object({
  token: z.optional(z.string().check(z.maxLength(100))),
});
