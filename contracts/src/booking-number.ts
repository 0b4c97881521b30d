/**
 * Booking numbers (`R-7K3QX2`: `R-` and six characters without 0/O and 1/I) are shown upper-case;
 * what staff type or scan may be lower-case and carry spaces around it.
 */
export const normalBookingNumber = (s: string) => s.trim().toUpperCase();

const BOOKING_NUMBER = /^R-[2-9A-HJ-NP-Z]{6}$/;

/** Whether a typed text is a booking number (no name, organisation or address has this shape). */
export const isBookingNumber = (s: string) => BOOKING_NUMBER.test(normalBookingNumber(s));

const BOOKING_NUMBER_PART = /^(R-[2-9A-HJ-NP-Z]{1,6}|[2-9A-HJ-NP-Z]{3,6})$/;

/**
 * Whether a typed text may be a part of a booking number (`R-7K3`, `7K3Q`, `QX2`): three of its
 * characters, or `R-` and at least one. Such a text may be a part of a name as well.
 */
export const isBookingNumberPart = (s: string) => BOOKING_NUMBER_PART.test(normalBookingNumber(s));
