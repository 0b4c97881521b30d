/**
 * A room as the query side answers it: the visitors' room, and staff's with its reservations,
 * each one schema of the OpenAPI document, and the mapping of a row of the room queries
 * (rooms.ts) to them.
 */
import {
  membersRuleOf,
  NO_ROOM_SERVICES,
  type MembersRule,
  type RoomServices,
} from '@rr/contracts';
import { z } from '@rr/platform';

const minutesOrOff = z.number().nullable();
/** The room's reading-room services, each null while off. */
const RoomServicesAnswer = z
  .object({
    checkInMinutesBefore: minutesOrOff.openapi({
      description: 'Check-in opens this many minutes before a slot starts; null: no check-in',
    }),
    noShowReleaseMinutes: minutesOrOff.openapi({
      description: 'Booked tickets not checked in are released this many minutes after the start',
    }),
    waitlistOfferMinutes: minutesOrOff.openapi({
      description: 'A full slot has a waitlist; an offer holds a freed seat this many minutes',
    }),
    reminderHoursBefore: minutesOrOff.openapi({
      description: 'A reminder mail is sent this many hours before the slot',
    }),
    allowedEmailDomains: z.array(z.string()).optional().openapi({
      description:
        'Members only: visitors book with an address at one of these domains; absent: everyone',
    }),
    signInRequired: z.boolean().optional().openapi({
      description:
        'Members of the university: visitors book signed in with the campus identity only; absent: everyone',
    }),
    allowedAffiliations: z.array(z.string()).optional().openapi({
      description:
        'Members of the university: signed-in visitors with one of these affiliations (scoped, plain, home organisation or group) only; absent: any',
    }),
    confirmBookingMinutes: z.number().int().optional().openapi({
      description:
        "Confirmed addresses: a visitor's booking awaits the confirmation mail's link this many minutes (never past the slot's start), else its tickets are released; absent: off",
    }),
  })
  .openapi('RoomServices');

export const Room = z
  .object({
    id: z.uuid(),
    version: z.number(),
    siteId: z.uuid().openapi({ description: 'The site the room belongs to' }),
    name: z.string(),
    description: z.string(),
    nameEn: z.string().optional().openapi({
      description: "The name's English text; absent: the name serves both languages",
    }),
    descriptionEn: z.string().optional().openapi({
      description: "The description's English text; absent: the description serves both languages",
    }),
    capacity: z.number(),
    openStart: z
      .object({ type: z.enum(['WORKING_DAY', 'DAY']), value: z.number() })
      .optional()
      .openapi({
        description:
          "The room's own start of its booking window; absent: its site's, else 2 days, applies",
      }),
    openEnd: z
      .object({ type: z.enum(['WORKING_DAY', 'DAY']), value: z.number() })
      .optional()
      .openapi({
        description:
          "The room's own end of its booking window; absent: its site's, else 30 working days, applies",
      }),
    imageAlt: z.string().nullable(),
    imageAltEn: z.string().optional().openapi({
      description: "The image alt text's English text; absent: imageAlt serves both languages",
    }),
    imageUrl: z.string().nullable(),
    order: z.number(),
    services: RoomServicesAnswer,
    members: z
      .object({
        signInRequired: z.boolean().optional(),
        allowedAffiliations: z.array(z.string()).optional(),
      })
      .openapi({
        description:
          "Members of the university as the room applies it: its own rule with its site's (sign-in when either requires it; the room's affiliations, else the site's); empty: everyone",
      }),
  })
  .openapi('Room');
export type Room = z.infer<typeof Room>;

/**
 * A room for staff: the visitors' room with its reservations from today on (the room edit
 * screen's "1 booked, 2 held in carts until 14:05", and why a deletion is refused). Visitors'
 * answers leave them out: no visitor screen needs them, and counting them for every room of a
 * list is what made the visitors' room list slow.
 */
export const StaffRoom = Room.extend({
  activeReservationCount: z.number().openapi({
    description: 'Seats taken from today on: booked plus held in carts (unexpired holds)',
  }),
  bookedReservationCount: z.number().openapi({ description: 'Booked tickets from today on' }),
  heldReservationCount: z
    .number()
    .openapi({ description: 'Seats held in carts now (15-minute holds, not booked)' }),
  heldUntil: z.string().nullable().openapi({
    description: 'When the last of these holds ends (ISO instant); null without holds',
  }),
}).openapi('StaffRoom');
export type StaffRoom = z.infer<typeof StaffRoom>;

export const RoomPage = z
  .object({ content: z.array(Room), totalCount: z.number() })
  .openapi('RoomPage');
export const StaffRoomPage = z
  .object({ content: z.array(StaffRoom), totalCount: z.number() })
  .openapi('StaffRoomPage');

export interface RoomRow {
  id: string;
  version: string;
  site_id: string;
  name: string;
  description: string;
  name_en: string | null;
  description_en: string | null;
  capacity: number;
  open_start_type: 'WORKING_DAY' | 'DAY' | null;
  open_start_value: number | null;
  open_end_type: 'WORKING_DAY' | 'DAY' | null;
  open_end_value: number | null;
  image_id: string | null;
  image_alt: string | null;
  image_alt_en: string | null;
  sort_order: number;
  services: Partial<RoomServices>;
  /** The room's site's rule for members of the university (rm_sites); null: none. */
  site_members: MembersRule | null;
}

/** A room's row for staff: with its reservations from today on. */
export interface StaffRoomRow extends RoomRow {
  active_count: number;
  booked_count: number;
  held_count: number;
  held_until: Date | null;
}

export function toRoom(r: RoomRow): Room {
  return {
    id: r.id,
    version: Number(r.version),
    siteId: r.site_id,
    name: r.name,
    description: r.description,
    ...(r.name_en ? { nameEn: r.name_en } : {}),
    ...(r.description_en ? { descriptionEn: r.description_en } : {}),
    capacity: r.capacity,
    ...(r.open_start_type && r.open_start_value !== null
      ? { openStart: { type: r.open_start_type, value: r.open_start_value } }
      : {}),
    ...(r.open_end_type && r.open_end_value !== null
      ? { openEnd: { type: r.open_end_type, value: r.open_end_value } }
      : {}),
    imageAlt: r.image_id ? r.image_alt : null,
    ...(r.image_id && r.image_alt_en ? { imageAltEn: r.image_alt_en } : {}),
    imageUrl: r.image_id ? `rooms/${r.id}/image?v=${r.image_id}` : null,
    order: r.sort_order,
    services: { ...NO_ROOM_SERVICES, ...r.services },
    members: membersRuleOf(r.services, r.site_members),
  };
}

export function toStaffRoom(r: StaffRoomRow): StaffRoom {
  return {
    ...toRoom(r),
    activeReservationCount: r.active_count,
    bookedReservationCount: r.booked_count,
    heldReservationCount: r.held_count,
    heldUntil: r.held_until ? r.held_until.toISOString() : null,
  };
}
