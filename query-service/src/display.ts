import { SEAT_STATES } from '@rr/contracts/seats';
import { hasStarted, roomBookableOnlineFrom, seatsForCarts, type Now } from '@rr/domain';
import {
  addDays,
  defineRoute,
  heldSeatIds,
  outOfServiceSql,
  localDateTime,
  problems,
  z,
  type RouteDef,
  seatsTakenLateral,
  waitlistLateral,
  planSeatsLateral,
  nameKey,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import type { WatchedDays } from './live-availability.ts';
import { roomSeatColumns, type RoomSeatRow } from './slot-seat-rule.ts';
import { SharedAnswers } from './shared-answers.ts';
import { SeatPlanImageAnswer } from './seat-plans.ts';

/**
 * The live occupancy display: a public, glanceable answer for a screen in the
 * foyer. Per room, in the manual room order: the slot running now and the next slots of today
 * (or, when none is left today, the first one after today), each with its free seats now. No
 * personal data: rooms, times and seat counts only.
 */
export const DisplaySlot = z
  .object({
    id: z.uuid(),
    date: z.string().openapi({ description: 'Local date (YYYY-MM-DD)' }),
    startTime: z.string().openapi({ description: 'Local time (HH:mm)' }),
    endTime: z.string().openapi({ description: 'Local time (HH:mm)' }),
    capacity: z.number(),
    freeSeats: z.number().openapi({
      description:
        "Seats a visitor may still take now: capacity less bookings, unexpired cart holds and waitlist offers, and the waiting people's claims while the waitlist can still offer them; never below 0",
    }),
    bookableFrom: z.string().nullable().openapi({
      description:
        "A slot after its room's booking window: the day it can be booked online from (as the visitor calendar says it); null otherwise",
    }),
  })
  .openapi('DisplaySlot');
export type DisplaySlot = z.infer<typeof DisplaySlot>;

const DisplaySeat = z
  .object({
    id: z.uuid(),
    label: z.string(),
    x: z.number(),
    y: z.number(),
    rotation: z.number().int(),
    state: z.enum(SEAT_STATES),
  })
  .openapi('DisplaySeat');

const DisplaySeatPlan = z
  .object({
    timeSlotId: z
      .uuid()
      .openapi({ description: 'The slot whose seats show: current, else the first next' }),
    image: SeatPlanImageAnswer.nullable(),
    seats: z.array(DisplaySeat).openapi({
      description: 'Free, taken (held or booked) or out of service; never who holds one',
    }),
  })
  .openapi('DisplaySeatPlan');
type DisplaySeatPlan = z.infer<typeof DisplaySeatPlan>;

export const DisplayRoom = z
  .object({
    id: z.uuid(),
    name: z.string(),
    nameEn: z
      .string()
      .optional()
      .openapi({ description: "The name's English text; absent: the name serves both languages" }),
    current: z
      .union([DisplaySlot, z.null()])
      .openapi({ description: 'The slot running now, if any' }),
    next: z.array(DisplaySlot).openapi({
      description:
        "Today's slots still to start, in time order; when none is left today, the first slot after today (at most one)",
    }),
    seatPlan: DisplaySeatPlan.optional().openapi({
      description:
        'A room with a seat plan: its seats in the slot running now, else in the first next one; absent: no plan or no slot',
    }),
  })
  .openapi('DisplayRoom');

export const Display = z
  .object({
    today: z.string().openapi({ description: "The library's date now (YYYY-MM-DD, TIME_ZONE)" }),
    time: z.string().openapi({ description: "The library's time now (HH:mm, TIME_ZONE)" }),
    rooms: z.array(DisplayRoom),
  })
  .openapi('Display');
export type Display = z.infer<typeof Display>;

export const DisplayQuery = z.object({
  roomId: z
    .uuid('Not a valid id')
    .optional()
    .openapi({ description: 'One room only; without it every room' }),
});

interface SlotJson {
  id: string;
  date: string;
  start_time: string;
  end_time: string;
  capacity: number;
  /** Bookings, cart holds not yet ended and waitlist offers not yet lapsed. */
  taken: number;
  waiting: number;
}

/**
 * Today's slots not yet ended and the first slot after today of each room (slots without
 * capacity and closed slots are hidden, as from visitors), with their bookings and unexpired holds at `$3`, and
 * the waitlist's claims on them (unexpired offers, people waiting).
 */
const DISPLAY_SQL = `
  SELECT r.id, r.name, r.name_en, ${roomSeatColumns('$1', '$5')},
         (SELECT coalesce(json_agg(s ORDER BY s.date, s.start_time), '[]')
            FROM (SELECT s.id, s.date, s.start_time, s.end_time, s.capacity,
                         c.booked_count + c.held_count + w.offered AS taken, w.waiting, p.plan_free
                    -- Today's slots not yet ended and the room's first slot after today, each
                    -- read once from the partial index of open slots (migration 053).
                    FROM (SELECT l.id, l.room_id, l.date, l.start_time, l.end_time, l.capacity, l.seat_ids
                            FROM rm_time_slots l
                           WHERE l.room_id = r.id AND l.date = $1 AND l.end_time > $2
                             AND l.capacity > 0 AND l.closed_reason IS NULL
                          UNION ALL
                          (SELECT l.id, l.room_id, l.date, l.start_time, l.end_time, l.capacity, l.seat_ids
                             FROM rm_time_slots l
                            WHERE l.room_id = r.id AND l.date > $1 AND l.capacity > 0
                              AND l.closed_reason IS NULL
                            ORDER BY l.date, l.start_time LIMIT 1)) s,
                         ${seatsTakenLateral('t.time_slot_id = s.id', '$3')} c,
                         -- The waitlist: seats offered (unexpired) and the claims of the
                         -- people waiting (which the seat rule weighs).
                         ${waitlistLateral('$3')},
                         ${planSeatsLateral('$3')}) s) AS slots
    FROM rm_rooms r
   WHERE $4::uuid IS NULL OR r.id = $4
   ORDER BY r.sort_order, ${nameKey('r.name')}, r.id`;

/**
 * A slot with the seats a visitor may still take (the cart's seat rule, seat-rule.ts) and, after
 * the booking window, the day it can be booked online from.
 */
const toDisplaySlot = (s: SlotJson, room: RoomSeatRow, at: Pick<Now, 'today' | 'time'>) => ({
  id: s.id,
  date: s.date,
  startTime: s.start_time,
  endTime: s.end_time,
  capacity: s.capacity,
  freeSeats: seatsForCarts({
    capacity: s.capacity,
    taken: s.taken,
    waiting: s.waiting,
    waitlistOn: room.waitlist_on,
    started: hasStarted({ date: s.date, startTime: s.start_time }, at),
  }),
  bookableFrom: roomBookableOnlineFrom(s.date, at.today, room),
});

/**
 * The seats of the slots `$1` (one a room) in their states at `$2`, as visitors read them, with
 * the room's plan image.
 */
const DISPLAY_SEATS_SQL = `
  SELECT s.id, s.room_id, r.seat_plan_image_id AS image_id, r.seat_plan_image_type AS image_type,
         r.seat_plan_image_width AS image_width, r.seat_plan_image_height AS image_height,
         (SELECT json_agg(json_build_object('id', st.id, 'label', st.label, 'x', st.x, 'y', st.y,
                 'rotation', st.rotation,
                 'state', CASE WHEN ${outOfServiceSql} THEN 'out_of_service'
                               WHEN st.id IN (SELECT h.seat_id FROM ${heldSeatIds('$2')} h(seat_id))
                                 THEN 'taken'
                               ELSE 'free' END) ORDER BY st.position)
            FROM rm_seats st WHERE st.room_id = s.room_id) AS seats
    FROM rm_time_slots s JOIN rm_rooms r ON r.id = s.room_id
   WHERE s.id = ANY($1::uuid[])`;

interface SeatsRow {
  id: string;
  room_id: string;
  image_id: string | null;
  image_type: 'image/png' | 'image/jpeg' | 'image/svg+xml';
  image_width: number | null;
  image_height: number | null;
  seats: DisplaySeatPlan['seats'] | null;
}

/** The seat plans of the slots shown first, by room (rooms without a plan have none). */
async function seatPlansOf(
  deps: QueryDeps,
  slotIds: string[],
  now: string,
): Promise<Map<string, DisplaySeatPlan>> {
  const plans = new Map<string, DisplaySeatPlan>();
  if (!slotIds.length) return plans;
  const r = await deps.pool.query<SeatsRow>({
    name: 'rr_display_seats',
    text: DISPLAY_SEATS_SQL,
    values: [slotIds, now],
  });
  for (const row of r.rows)
    if (row.seats?.length)
      plans.set(row.room_id, {
        timeSlotId: row.id,
        image: row.image_id
          ? {
              url: `rooms/${row.room_id}/seat-plan/image?v=${row.image_id}`,
              contentType: row.image_type,
              ...(row.image_width ? { width: row.image_width } : {}),
              ...(row.image_height ? { height: row.image_height } : {}),
            }
          : null,
        seats: row.seats,
      });
  return plans;
}

/** The display's answer at the clock's instant, in the library's time zone. */
export async function displayAt(deps: QueryDeps, roomId?: string): Promise<Display> {
  const now = deps.clock.now();
  const { date: today, time } = localDateTime(now, deps.timeZone);
  const r = await deps.pool.query<
    RoomSeatRow & { id: string; name: string; name_en: string | null; slots: SlotJson[] }
  >({
    name: 'rr_display',
    text: DISPLAY_SQL,
    values: [today, time, now.toISOString(), roomId ?? null, addDays(today, 800)],
  });
  if (roomId !== undefined && r.rows.length === 0) throw problems.notFound('Room');
  const rooms = r.rows.map((room) => {
    const slots: DisplaySlot[] = room.slots.map((s) => toDisplaySlot(s, room, { today, time }));
    const ofToday = slots.filter((s) => s.date === today);
    const current = ofToday.find((s) => s.startTime <= time) ?? null;
    const later = ofToday.filter((s) => s.startTime > time);
    return {
      id: room.id,
      name: room.name,
      ...(room.name_en ? { nameEn: room.name_en } : {}),
      current,
      next: later.length ? later : slots.filter((s) => s.date > today),
    };
  });
  const shown = rooms.flatMap((room) => {
    const slot = room.current ?? room.next[0];
    return slot ? [slot.id] : [];
  });
  const plans = await seatPlansOf(deps, shown, now.toISOString());
  return {
    today,
    time,
    rooms: rooms.map((room) => {
      const seatPlan = plans.get(room.id);
      return seatPlan ? { ...room, seatPlan } : room;
    }),
  };
}

/**
 * The days of what the display shows, per room: from today to the day of the last slot it lists
 * (today's, or the first one after today). Its live stream watches them, so a change of any slot
 * on the screen is told and the watcher reads no more than the screen shows; a slot created
 * before the one shown appears with the next poll.
 */
export async function displayDays(deps: QueryDeps, roomId?: string): Promise<WatchedDays[]> {
  const display = await displayAt(deps, roomId);
  return display.rooms.map((room) => ({
    roomId: room.id,
    fromDate: display.today,
    untilDate: room.next.reduce(
      (last, slot) => (slot.date > last ? slot.date : last),
      display.today,
    ),
  }));
}

export function displayQueryRoutes(deps: QueryDeps): RouteDef[] {
  // Every foyer screen polls the same answer: one query serves them all while nothing changed.
  const shared = new SharedAnswers<Display>(deps.sharedReadMs ?? 0);
  return [
    defineRoute({
      method: 'get',
      path: '/display',
      summary:
        'Live occupancy display: per room the current and next slots with their free seats now (public, no personal data)',
      tags: ['display'],
      access: 'public',
      query: DisplayQuery,
      responses: {
        200: { description: 'The rooms with their current and next slots', schema: Display },
        404: { description: 'No such room' },
      },
      handler: async ({ query }) => ({
        body: await shared.get(deps.pool, query.roomId ?? '', deps.clock.now(), () =>
          displayAt(deps, query.roomId),
        ),
      }),
    }),
  ];
}
