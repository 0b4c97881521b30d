import {
  calendarRules,
  hasStarted,
  roomBookingWindow,
  seatAnswer,
  type RoomOpeningRow,
  type CartRuleSlot,
} from '@rr/domain';
import { roomHolidayDates } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/**
 * The seat rule (domain/src/seat-rule.ts) on the read model's rows: a slot with its seats taken
 * and its room's booking settings, read in one statement by each list that shows the rule.
 */

/** What the seat rule needs of a slot: its seats taken and its waitlist apart. */
export interface SeatSlotRow {
  id: string;
  date: string;
  start_time: string;
  end_time: string;
  capacity: number;
  closed_reason: string | null;
  /** Bookings, cart holds not yet ended and waitlist offers not yet lapsed. */
  taken: number;
  waiting: number;
  /** In a room with a seat plan, its seats free in the slot (planSeatsLateral); null: no plan. */
  plan_free?: number | null;
}

/** What the seat rule needs of a slot's room, read with the slot. */
export interface RoomSeatRow extends RoomOpeningRow {
  waitlist_on: boolean;
}

/**
 * The SQL of a room's booking settings (its own bounds and its site's: roomOpenBounds) and its
 * holidays (the whole system's and its site's; `r` is its rm_rooms row; `$from`/`$until` bound
 * the holidays: working days are counted over holidays up to two years ahead, open end is at most
 * 365 working days).
 */
export const roomSeatColumns = (from: string, until: string) =>
  `r.open_start_type, r.open_start_value, r.open_end_type, r.open_end_value,
   ${SITE_WINDOW},
   (r.services->>'waitlistOfferMinutes') IS NOT NULL AS waitlist_on,
   ${roomHolidayDates('rm_holidays', 'r.site_id', from, until)} AS holidays`;

/** The booking window the site of the rm_rooms row `r` sets (null: none), as SQL. */
export const SITE_WINDOW = `(SELECT json_build_object('openStart', si.open_start, 'openEnd', si.open_end)
                               FROM rm_sites si WHERE si.id = r.site_id) AS site_window`;

/** The site of a room read with its slots, and the sites of the rooms of a cart's tickets. */
export interface HeldSitesRow {
  site_id: string;
  held_sites: Record<string, string>;
}

/** The SQL of HeldSitesRow (`r` is the room's rm_rooms row; `rooms` the cart's rooms, uuid[]). */
export const heldSitesColumns = (rooms: string) =>
  `r.site_id::text AS site_id,
   (SELECT coalesce(json_object_agg(x.id, x.site_id), '{}') FROM rm_rooms x
     WHERE x.id = ANY(${rooms}::uuid[])) AS held_sites`;

/**
 * A cart's tickets with their sites, which the per-visitor maxima count by when they count per
 * site: each its room's (a room gone since: none).
 */
export const heldWithSites = (held: readonly CartRuleSlot[], row: HeldSitesRow) =>
  held.map((t) => ({ ...t, siteId: (t.roomId && row.held_sites[t.roomId]) ?? '' }));

/** A slot's room as the seat rule weighs it: its booking window today and its waitlist. */
export interface SeatRoom {
  window: { from: string; until: string };
  waitlistOn: boolean;
  /** The room's site: what the per-visitor maxima count by when they count per site. */
  siteId?: string | undefined;
}

export const seatRoom = (today: string, room: RoomSeatRow): SeatRoom => ({
  window: roomBookingWindow(today, room),
  waitlistOn: room.waitlist_on,
});

/**
 * The seat rule (seat-rule.ts) of one slot on the read model's counts, at the clock's instant:
 * the same answer the cart decider gives on the slot's stream. `held`: the visitor's cart.
 */
export function slotSeatAnswer(
  deps: QueryDeps,
  at: { date: string; time: string },
  s: SeatSlotRow,
  room: SeatRoom,
  held: readonly CartRuleSlot[],
) {
  return seatAnswer({
    slot: {
      timeSlotId: s.id,
      date: s.date,
      startTime: s.start_time,
      endTime: s.end_time,
      siteId: room.siteId,
    },
    closed: s.closed_reason !== null,
    seats: {
      capacity: s.capacity,
      taken: s.taken,
      waiting: s.waiting,
      waitlistOn: room.waitlistOn,
      planSeatsFree: s.plan_free ?? null,
      started: hasStarted(
        { date: s.date, startTime: s.start_time },
        { today: at.date, time: at.time },
      ),
    },
    window: room.window,
    held,
    limits: deps.limits,
  });
}

/**
 * What staff see of the seat rule: the rules a visitor with an empty cart fails, the calendar's
 * marks after `timeslot_not_open` for a slot the calendar hides.
 */
export const staffRules = (answer: ReturnType<typeof seatAnswer>): string[] => [
  ...(answer.open ? [] : ['timeslot_not_open']),
  ...calendarRules(answer),
];
