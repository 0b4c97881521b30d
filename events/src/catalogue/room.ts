import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { SEAT_ATTRIBUTES } from '@rr/contracts/seats';
import { date, id } from './fields.ts';

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
  /** The site the room belongs to; absent in every event before sites: the first site. */
  siteId: id.optional(),
  name: z.string(),
  nameEn: translation,
  description: z.string(),
  descriptionEn: translation,
  capacity: z.number().int().min(0),
  /** Absent: the room sets none; its site's applies, else the product's default (roomOpenBounds). */
  openStart: OpenBound.optional(),
  openEnd: OpenBound.optional(),
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
   * Members of the university: visitors book signed in with the campus identity only (absent:
   * everyone), and with one of `allowedAffiliations` when named (absent or empty: any).
   */
  signInRequired: z.boolean().optional(),
  allowedAffiliations: z.array(z.string()).optional(),
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
// --- the seat plan --------------------------------------------------------------------------

/** A seat of the plan: its id stays with its label (the same label is the same seat). */
export const PlanSeat = z.object({
  seatId: id,
  label: z.string().min(1).max(12),
  zone: z.string().min(1).max(40).optional(),
  attributes: z.array(z.enum(SEAT_ATTRIBUTES)),
  notes: z.string().min(1).max(200).optional(),
  /** The place on the plan, in per cent of its width and height. */
  x: z.number().min(0).max(100),
  y: z.number().min(0).max(100),
  /** Degrees, in steps of 15. */
  rotation: z.number().int().min(0).max(345),
});
export type PlanSeat = z.infer<typeof PlanSeat>;

/**
 * Staff set the room's seats (all of them: a seat left out is no longer on the plan; its tickets
 * keep it, no new ticket takes it). A room whose seats are set has a seat plan: every ticket a
 * visitor takes has a seat of it (docs/product.md#seat-plans). An empty list ends the plan.
 */
export const RoomSeatsSet = defineEvent(
  'RoomSeatsSet',
  z.object({ roomId: id, seats: z.array(PlanSeat) }),
);
/**
 * A seat is out of service from one day to another (a broken lamp, exam places): no ticket of a
 * slot on those days takes it. Its tickets then are moved or cancelled on their slots' streams.
 */
export const SeatTakenOutOfService = defineEvent(
  'SeatTakenOutOfService',
  z.object({
    roomId: id,
    outOfServiceId: id,
    seatId: id,
    from: date,
    until: date,
    reason: z.string().min(1).max(500),
  }),
);
/** Staff ended an out-of-service range before its end: the seat serves again. */
export const SeatBackInService = defineEvent(
  'SeatBackInService',
  z.object({ roomId: id, outOfServiceId: id }),
);

/**
 * The plan's image (docs/product.md#seat-plans), drawn behind its seats: PNG, JPEG or SVG as its
 * bytes say, its bytes beside the log as the room image's. An SVG's width and height are its
 * own when it states them.
 */
export const RoomSeatPlanImageSet = defineEvent(
  'RoomSeatPlanImageSet',
  z.object({
    roomId: id,
    imageId: id,
    contentType: z.enum(['image/png', 'image/jpeg', 'image/svg+xml']),
    size: z.number().int().min(1),
    width: z.number().int().min(1).optional(),
    height: z.number().int().min(1).optional(),
  }),
);
/** Staff removed the plan's image: the seats stay, drawn without it. */
export const RoomSeatPlanImageRemoved = defineEvent(
  'RoomSeatPlanImageRemoved',
  z.object({ roomId: id }),
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
  RoomSeatsSet,
  SeatTakenOutOfService,
  SeatBackInService,
  RoomSeatPlanImageSet,
  RoomSeatPlanImageRemoved,
]);

export type RoomEvent = EventOf<typeof roomStream>;

export const roomStreamId = (roomId: string) => `${roomStream.kind}-${roomId}`;
