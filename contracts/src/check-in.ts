import { requiredText } from './rules.ts';

/**
 * docs/product.md#check-in-and-no-show-release: what the desk types or scans to find a ticket, a
 * ticket's QR reference or a booking number, trimmed; the check-in and its look-up take the same.
 */
export const CheckInCode = requiredText(200);
