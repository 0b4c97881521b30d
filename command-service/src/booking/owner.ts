import { BookingInput, OwnerInput, StaffBookingInput } from '@rr/contracts';
import { fromContract, type z } from '@rr/platform';

/**
 * Owner data of staff edits and admin bookings, and the visitor's booking form (docs/product.md#validation):
 * the contracts' rules, shared with the browser's forms.
 */
export const StaffOwnerBody = fromContract(OwnerInput).openapi('OwnerInput');

/** The admin booking: the owner plus the language of the confirmation. */
export const StaffBookingBody = fromContract(StaffBookingInput).openapi('StaffBookingInput');

/** The visitor's booking form: as staff's, but e-mail and phone are required; plus the language. */
export const VisitorOwnerBody = fromContract(BookingInput).openapi('BookingInput');

export type VisitorOwner = z.output<typeof VisitorOwnerBody>;
export type StaffOwner = z.output<typeof StaffOwnerBody>;
