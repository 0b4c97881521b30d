import { OwnerInput, SALUTATIONS, StaffBookingInput, type Salutation } from '@rr/contracts/owner';
import type { Ticket } from '../../../api/types';
import { formCheck } from '../../../lib/form-check';

/** Owner data of the reservation edit and the admin booking (docs/product.md#entities and #validation). */

export { SALUTATIONS, type Salutation };

/** The text fields in form order (the first invalid one gets focus). */
export const OWNER_FIELDS = [
  'title',
  'firstName',
  'lastName',
  'organisation',
  'email',
  'phone',
] as const;
export type OwnerField = (typeof OWNER_FIELDS)[number];

export type OwnerValues = Record<OwnerField, string> & {
  salutation: Salutation;
  accessibility: boolean;
};

/**
 * docs/product.md#validation, reservation edit: the owner contract checks the values and makes the body of
 * `PUT admin/tickets/{id}/owner` (texts trimmed, empty optional fields left out).
 */
export const checkOwnerForm = formCheck(OwnerInput, (values: OwnerValues) => values);

/** The admin booking: the owner plus the language of the confirmation. */
export interface StaffBookingValues extends OwnerValues {
  language: 'de' | 'en';
}
export const checkStaffBookingForm = formCheck(
  StaffBookingInput,
  (values: StaffBookingValues) => values,
);

export const EMPTY_OWNER: OwnerValues = {
  salutation: 'NONE',
  title: '',
  firstName: '',
  lastName: '',
  organisation: '',
  email: '',
  phone: '',
  accessibility: false,
};

export function isSalutation(value: unknown): value is Salutation {
  return (SALUTATIONS as readonly unknown[]).includes(value);
}

/** The form values of a ticket's owner (erased data gives empty fields). */
export function ticketToOwnerValues(ticket: Ticket): OwnerValues {
  return {
    salutation: isSalutation(ticket.salutation) ? ticket.salutation : 'NONE',
    title: ticket.title ?? '',
    firstName: ticket.firstName ?? '',
    lastName: ticket.lastName ?? '',
    organisation: ticket.organisation ?? '',
    email: ticket.email ?? '',
    phone: ticket.phone ?? '',
    accessibility: ticket.accessibility ?? false,
  };
}

/** "Last, First" of a ticket; null when the personal data was erased. */
export function ownerName(ticket: Pick<Ticket, 'firstName' | 'lastName'>): string | null {
  const parts = [ticket.lastName, ticket.firstName].filter(
    (part): part is string => part !== null && part.trim() !== '',
  );
  return parts.length > 0 ? parts.join(', ') : null;
}
