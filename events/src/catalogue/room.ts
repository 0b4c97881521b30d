import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { id } from './fields.ts';

/** A room's stream (`room-<id>`): the room, its image and its reading-room services. */

export const DayType = z.enum(['WORKING_DAY', 'DAY']);
export type DayType = z.infer<typeof DayType>;

export const OpenBound = z.object({ type: DayType, value: z.number().int().min(0).max(365) });
export type OpenBound = z.infer<typeof OpenBound>;

/**
 * The English texts of a room (`nameEn`, `descriptionEn`, and the image's `altEn`) are absent in
 * every event before them and wherever staff left them empty: the German text serves both
 * languages (docs/product.md#translations).
 */
const translation = z.string().min(1).optional();

const RoomDetails = z.object({
  roomId: id,
  name: z.string(),
  nameEn: translation,
  description: z.string(),
  descriptionEn: translation,
  capacity: z.number().int().min(0),
  openStart: OpenBound,
  openEnd: OpenBound,
});

export const RoomCreated = defineEvent('RoomCreated', RoomDetails);
export const RoomUpdated = defineEvent('RoomUpdated', RoomDetails);
export const RoomDeleted = defineEvent('RoomDeleted', z.object({ roomId: id }));
export const RoomImageSet = defineEvent(
  'RoomImageSet',
  z.object({
    roomId: id,
    imageId: id,
    contentType: z.enum(['image/jpeg', 'image/png']),
    size: z.number().int().min(1),
    alt: z.string(),
    altEn: translation,
  }),
);
export const RoomImageAltChanged = defineEvent(
  'RoomImageAltChanged',
  z.object({ roomId: id, alt: z.string(), altEn: translation }),
);
export const RoomImageRemoved = defineEvent('RoomImageRemoved', z.object({ roomId: id }));
/**
 * The reading-room services of a room, each null while off: check-in (minutes before
 * the start it opens), no-show release (minutes after the start), waitlist (minutes an offer
 * holds a seat) and reminders (hours before the slot). Rooms without this event use none.
 */
const minutes = z.number().int().min(0).max(1440).nullable();
export const RoomServices = z.object({
  checkInMinutesBefore: minutes,
  noShowReleaseMinutes: minutes,
  waitlistOfferMinutes: minutes,
  reminderHoursBefore: z.number().int().min(1).max(168).nullable(),
  /**
   * Members-only: the e-mail domains the room admits; absent (every event before this field, and
   * every room without it): everyone.
   */
  allowedEmailDomains: z.array(z.string()).optional(),
  /**
   * Confirmed addresses: a visitor's booking awaits the link of its confirmation mail this many
   * minutes (never past the slot's start); absent (every event before this field, and every room
   * without it): bookings are booked at once.
   */
  confirmBookingMinutes: z.number().int().min(1).max(10080).optional(),
});
export type RoomServices = z.infer<typeof RoomServices>;
export const RoomServicesChanged = defineEvent(
  'RoomServicesChanged',
  RoomServices.extend({ roomId: id }),
);
/** Every event type of a room's stream. */
export const roomStream = defineStream('room', [
  RoomCreated,
  RoomUpdated,
  RoomDeleted,
  RoomImageSet,
  RoomImageAltChanged,
  RoomImageRemoved,
  RoomServicesChanged,
]);

export type RoomEvent = EventOf<typeof roomStream>;

export const roomStreamId = (roomId: string) => `${roomStream.kind}-${roomId}`;
