import { RoomServicesInput } from '@rr/contracts/rooms';
import type { Room } from '../../../api/types';
import { formCheck } from '../../../lib/form-check';
import { numberOf } from '../../../lib/staff-forms';

/** The reading-room services of a room, each off while its field is empty. */
export const SERVICE_FIELDS = [
  'checkInMinutesBefore',
  'noShowReleaseMinutes',
  'waitlistOfferMinutes',
  'reminderHoursBefore',
] as const;

export type ServiceField = (typeof SERVICE_FIELDS)[number];
export type ServiceFormValues = Record<ServiceField, string>;

/** The request of the form: an empty field turns its service off (null). */
export const checkServicesForm = formCheck(RoomServicesInput, (values: ServiceFormValues) =>
  Object.fromEntries(SERVICE_FIELDS.map((field) => [field, numberOf(values[field]) ?? null])),
);

export function servicesToFormValues(room: Room): ServiceFormValues {
  const value = (n: number | null | undefined) => (n == null ? '' : String(n));
  return {
    checkInMinutesBefore: value(room.services.checkInMinutesBefore),
    noShowReleaseMinutes: value(room.services.noShowReleaseMinutes),
    waitlistOfferMinutes: value(room.services.waitlistOfferMinutes),
    reminderHoursBefore: value(room.services.reminderHoursBefore),
  };
}
