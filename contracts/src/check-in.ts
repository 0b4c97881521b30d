import * as z from 'zod/mini';
import { BookingInput } from './owner.ts';
import { requiredEmail, requiredText } from './rules.ts';

/**
 * docs/product.md#check-in-and-no-show-release: what the desk types or scans to find a ticket, a
 * ticket's QR reference or a booking number, trimmed; the check-in and its look-up take the same.
 */
export const CheckInCode = requiredText(200);

/**
 * docs/product.md#at-the-seat: the visitor proves the booking at the seat with its booking number
 * (any case, blanks around it) and the booking's e-mail address (as the cart rules compare
 * addresses).
 */
export const SeatCheckInInput = z.object({
  bookingNumber: requiredText(20),
  email: requiredEmail(),
});

/** docs/product.md#at-the-seat: a walk-in's personal data (the booking form's) and the slot. */
export const WalkInInput = z.object({
  ...BookingInput.shape,
  timeSlotId: z.uuid(),
});
