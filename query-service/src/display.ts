import { hasStarted, roomBookableOnlineFrom, seatsForCarts, type Now } from '@rr/domain';
import {
  addDays,
  defineRoute,
  localDateTime,
  problems,
  z,
  type RouteDef,
  seatsTakenLateral,
  waitlistLateral,
  planSeatsLateral,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { roomSeatColumns, type RoomSeatRow } from './slot-seat-rule.ts';
import { SharedAnswers } from './shared-answers.ts';

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

const DisplayQuery = z.object({
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
   ORDER BY r.sort_order, lower(r.name), r.id`;

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
  return {
    today,
    time,
    rooms: r.rows.map((room) => {
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
    }),
  };
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
