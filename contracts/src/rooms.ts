import * as z from 'zod/mini';
import { crossRule, intBetween } from './fields.ts';
import { imageFile } from './files.ts';
import { requiredText } from './rules.ts';

/** docs/product.md#validation, room. */

export const DAY_TYPES = ['WORKING_DAY', 'DAY'] as const;
export type DayType = (typeof DAY_TYPES)[number];

/** Name 3-50, description 3-100, capacity 0-99999, open start and end values 0-365. */
export const RoomInput = z.object({
  name: requiredText(50, 3),
  description: requiredText(100, 3),
  capacity: intBetween(0, 99999),
  openStartValue: intBetween(0, 365),
  openStartType: z.enum(DAY_TYPES),
  openEndValue: intBetween(0, 365),
  openEndType: z.enum(DAY_TYPES),
});

/** The image's alt text: required, 5-150 characters. */
export const RoomImageAlt = requiredText(150, 5);

/** The image form: the chosen file (required unless the room has an image) and its alt text. */
export function roomImageInput(imageRequired: boolean) {
  return z.object({ image: imageFile(imageRequired), alt: RoomImageAlt });
}

/**
 * The reading-room services of a room, each off while empty (null or absent):
 * - `checkInMinutesBefore`: check-in is used; a booked ticket can be checked in from this many
 *   minutes before its slot's start (0-1440) until its release time (or the slot's end);
 * - `noShowReleaseMinutes`: that many minutes after a slot's start (1-1440), its booked tickets not
 *   checked in are released; needs check-in;
 * - `waitlistOfferMinutes`: a full slot can be waited for; a freed seat is offered to the first in
 *   line and held for them this many minutes (5-1440, never past the slot's start);
 * - `reminderHoursBefore`: a reminder mail this many hours before the slot (1-168).
 */
export const RoomServicesInput = z
  .object({
    checkInMinutesBefore: z.optional(z.nullable(intBetween(0, 1440))),
    noShowReleaseMinutes: z.optional(z.nullable(intBetween(1, 1440))),
    waitlistOfferMinutes: z.optional(z.nullable(intBetween(5, 1440))),
    reminderHoursBefore: z.optional(z.nullable(intBetween(1, 168))),
  })
  .check(
    crossRule(
      'required',
      'checkInMinutesBefore',
      (v) => v.noShowReleaseMinutes == null || v.checkInMinutesBefore != null,
    ),
  );

/** The services of a room, each null while off (see RoomServicesInput). */
export interface RoomServices {
  checkInMinutesBefore: number | null;
  noShowReleaseMinutes: number | null;
  waitlistOfferMinutes: number | null;
  reminderHoursBefore: number | null;
}

export const NO_ROOM_SERVICES: RoomServices = {
  checkInMinutesBefore: null,
  noShowReleaseMinutes: null,
  waitlistOfferMinutes: null,
  reminderHoursBefore: null,
};

/** The default offer time of a waitlist, in minutes (30). */
export const DEFAULT_WAITLIST_OFFER_MINUTES = 30;
/** The default time of a reminder before its slot, in hours (24). */
export const DEFAULT_REMINDER_HOURS = 24;
