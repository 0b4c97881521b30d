import type { Ticket } from '../../../api/types';
import { email, maxLength, required, type FormSchema, type Rule } from '../../../lib/validation';

/** Owner data of the reservation edit and the admin booking (spec sections 3 and 5). */

export const SALUTATIONS = ['NONE', 'MR', 'MS'] as const;
export type Salutation = (typeof SALUTATIONS)[number];

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

/** A telephone number: digits with an optional leading plus (spec section 5, "numbers or plus only"). */
export const phone: Rule = (value) => (/^\+?\d+$/.test(value) ? null : { key: 'phone' });

/**
 * Spec section 5, reservation edit / admin booking: title, organisation and phone at most 40;
 * first and last name required, at most 40; e-mail valid, at most 320; phone digits and plus only.
 */
export const OWNER_SCHEMA: FormSchema<OwnerField> = {
  title: [maxLength(40)],
  firstName: [required, maxLength(40)],
  lastName: [required, maxLength(40)],
  organisation: [maxLength(40)],
  email: [maxLength(320), email],
  phone: [maxLength(40), phone],
};

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

export interface OwnerPayload {
  salutation: Salutation;
  title?: string;
  firstName: string;
  lastName: string;
  organisation?: string;
  email?: string;
  phone?: string;
  accessibility: boolean;
}

/** The trimmed payload of `PUT admin/tickets/{id}/owner`; empty optional fields are left out. */
export function toOwnerPayload(values: OwnerValues): OwnerPayload {
  const optional = (value: string) => {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  };
  const payload: OwnerPayload = {
    salutation: values.salutation,
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    accessibility: values.accessibility,
  };
  const title = optional(values.title);
  const organisation = optional(values.organisation);
  const mail = optional(values.email);
  const tel = optional(values.phone);
  if (title !== undefined) payload.title = title;
  if (organisation !== undefined) payload.organisation = organisation;
  if (mail !== undefined) payload.email = mail;
  if (tel !== undefined) payload.phone = tel;
  return payload;
}

/** The body of the admin booking: the owner plus the language of the confirmation. */
export function toStaffBooking(values: OwnerValues, language: 'de' | 'en') {
  return { ...toOwnerPayload(values), language };
}

/** "Last, First" of a ticket; null when the personal data was erased. */
export function ownerName(ticket: Pick<Ticket, 'firstName' | 'lastName'>): string | null {
  const parts = [ticket.lastName, ticket.firstName].filter(
    (part): part is string => part !== null && part.trim() !== '',
  );
  return parts.length > 0 ? parts.join(', ') : null;
}
