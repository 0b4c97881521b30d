import { check } from '@rr/contracts/issues';
import { RoomServicesInput } from '@rr/contracts/rooms';
import type { Room } from '../../../api/types';
import type { FormCheck } from '../../../lib/form-check';
import { numberOf } from '../../../lib/staff-forms';
import {
  AFFILIATIONS_FIELD,
  affiliationsText,
  listFieldErrors,
  membersRuleRequest,
  SIGN_IN_FIELD,
  signInText,
} from '../../../lib/members-rule';

export { AFFILIATIONS_FIELD, SIGN_IN_FIELD };

/** The reading-room services of a room, each off while its field is empty. */
export const SERVICE_FIELDS = [
  'checkInMinutesBefore',
  'noShowReleaseMinutes',
  'waitlistOfferMinutes',
  'reminderHoursBefore',
] as const;

export type NumberServiceField = (typeof SERVICE_FIELDS)[number];
/** The members-only domains: one text field, the domains separated by commas or spaces. */
export const DOMAINS_FIELD = 'allowedEmailDomains' as const;
/** Confirmed addresses: minutes a booking awaits its confirmation (left out while empty). */
export const CONFIRM_FIELD = 'confirmBookingMinutes' as const;
export type ServiceField =
  | NumberServiceField
  | typeof DOMAINS_FIELD
  | typeof CONFIRM_FIELD
  | typeof SIGN_IN_FIELD
  | typeof AFFILIATIONS_FIELD;
export type ServiceFormValues = Record<NumberServiceField, string> & {
  [DOMAINS_FIELD]?: string;
  [CONFIRM_FIELD]?: string;
  /** Members of the university: 'true' while sign-in is required (members-rule.ts). */
  [SIGN_IN_FIELD]?: string;
  /** Members of the university: the admitted affiliations, one a line. */
  [AFFILIATIONS_FIELD]?: string;
};

/** The domains typed into the field, in their order, without empty parts. */
export const domainsOf = (text: string): string[] => text.split(/[\s,;]+/).filter(Boolean);

/**
 * The request of the form: an empty field turns its service off (null); a domain that breaks the
 * rule is the domains field's error.
 */
export const checkServicesForm: FormCheck<
  ServiceFormValues,
  ReturnType<typeof RoomServicesInput.parse>
> = (values) => {
  const domains = domainsOf(values[DOMAINS_FIELD] ?? '');
  const confirmMinutes = numberOf(values[CONFIRM_FIELD] ?? '');
  const result = check(RoomServicesInput, {
    ...Object.fromEntries(SERVICE_FIELDS.map((field) => [field, numberOf(values[field]) ?? null])),
    // Left out while empty: everyone is admitted, as without the field.
    ...(domains.length ? { [DOMAINS_FIELD]: domains } : {}),
    // Left out while empty: bookings are booked at once, as without the field.
    ...(confirmMinutes === undefined ? {} : { [CONFIRM_FIELD]: confirmMinutes }),
    // Left out while off: everyone is admitted, as without the fields.
    ...membersRuleRequest(values),
  });
  return listFieldErrors(result, [DOMAINS_FIELD, AFFILIATIONS_FIELD]);
};

export function servicesToFormValues(room: Room): ServiceFormValues {
  const value = (n: number | null | undefined) => (n == null ? '' : String(n));
  return {
    checkInMinutesBefore: value(room.services.checkInMinutesBefore),
    noShowReleaseMinutes: value(room.services.noShowReleaseMinutes),
    waitlistOfferMinutes: value(room.services.waitlistOfferMinutes),
    reminderHoursBefore: value(room.services.reminderHoursBefore),
    allowedEmailDomains: (room.services.allowedEmailDomains ?? []).join(', '),
    confirmBookingMinutes: value(room.services.confirmBookingMinutes),
    [SIGN_IN_FIELD]: signInText(room.services.signInRequired),
    [AFFILIATIONS_FIELD]: affiliationsText(room.services.allowedAffiliations),
  };
}
