import { SEAT_ATTRIBUTES, SEAT_STATES } from '@rr/contracts/seats';
import {
  defineRoute,
  heldSeatIds,
  localDateTime,
  outOfServiceSql,
  problems,
  z,
  type RouteDef,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/**
 * The seat's page, where its QR code leads (docs/product.md#at-the-seat): the room, the seat, the
 * room's slot under way (or next today) and the seat's state in it, and when it is not free the
 * nearest free seats of that slot on the plan. No personal data: who holds a seat is never said.
 */

/** How many of the nearest free seats the page names. */
export const NEAREST_FREE_SEATS = 5;

const SeatOfPage = z.object({
  id: z.uuid(),
  label: z.string(),
  zone: z.string().nullable(),
  attributes: z.array(z.enum(SEAT_ATTRIBUTES)),
});

const SeatNow = z
  .object({
    today: z.string().openapi({ description: "The library's date now (YYYY-MM-DD, TIME_ZONE)" }),
    time: z.string().openapi({ description: "The library's time now (HH:mm, TIME_ZONE)" }),
    room: z.object({
      id: z.uuid(),
      name: z.string(),
      nameEn: z.string().nullable(),
      checkIn: z.boolean().openapi({ description: 'The room uses check-in' }),
    }),
    seat: SeatOfPage.extend({ x: z.number(), y: z.number() }),
    slot: z
      .object({
        id: z.uuid(),
        date: z.string(),
        startTime: z.string(),
        endTime: z.string(),
        started: z.boolean(),
      })
      .nullable()
      .openapi({ description: "The room's slot under way, else its next today; null: none" }),
    state: z
      .enum(SEAT_STATES)
      .nullable()
      .openapi({ description: "The seat's state in the slot; null without a slot" }),
    walkIn: z.boolean().openapi({
      description: 'A walk-in may book the seat now: it is free and the slot is under way',
    }),
    nearestFree: z.array(SeatOfPage).openapi({
      description: `When the seat is not free: at most ${NEAREST_FREE_SEATS} free seats of the slot, the nearest on the plan first`,
    }),
  })
  .openapi('SeatNow');
type SeatNow = z.infer<typeof SeatNow>;

type PageSeat = z.infer<typeof SeatOfPage> & { x: number; y: number; state: SeatNow['state'] };

interface Row {
  id: string;
  name: string;
  name_en: string | null;
  check_in: boolean;
  slot: { id: string; date: string; start_time: string; end_time: string } | null;
  seats: PageSeat[];
}

/**
 * The room, its first open slot of today not yet ended (`$3` the date, `$4` the time), and every
 * seat of its plan with its state in that slot at `$5` (null without a slot).
 */
const SEAT_NOW_SQL = `
  WITH r AS (SELECT id, name, name_en, (services->>'checkInMinutesBefore') IS NOT NULL AS check_in
               FROM rm_rooms WHERE id = $1),
       s AS (SELECT l.id, l.room_id, l.date, l.start_time, l.end_time
               FROM rm_time_slots l
              WHERE l.room_id = $1 AND l.date = $3 AND l.end_time > $4
                AND l.capacity > 0 AND l.closed_reason IS NULL
              ORDER BY l.start_time LIMIT 1),
       held AS (SELECT h.seat_id FROM s, LATERAL ${heldSeatIds('$5')} h(seat_id))
  SELECT r.id, r.name, r.name_en, r.check_in,
         (SELECT json_build_object('id', s.id, 'date', s.date, 'start_time', s.start_time,
                                   'end_time', s.end_time) FROM s) AS slot,
         (SELECT coalesce(json_agg(json_build_object('id', st.id, 'label', st.label,
                  'zone', st.zone, 'attributes', st.attributes, 'x', st.x, 'y', st.y,
                  'state', (SELECT CASE WHEN ${outOfServiceSql} THEN 'out_of_service'
                                        WHEN st.id IN (SELECT seat_id FROM held) THEN 'taken'
                                        ELSE 'free' END FROM s))
                  ORDER BY st.position), '[]')
            FROM rm_seats st WHERE st.room_id = r.id) AS seats
    FROM r
   WHERE EXISTS (SELECT 1 FROM rm_seats st WHERE st.room_id = r.id AND st.id = $2)`;

const brief = ({ id, label, zone, attributes }: PageSeat) => ({ id, label, zone, attributes });

/** The free seats nearest to `seat` on the plan (by distance of their places), ties by the plan's order. */
export function nearestFree(seat: PageSeat, seats: readonly PageSeat[]): PageSeat[] {
  const distance = (o: PageSeat) => Math.hypot(o.x - seat.x, o.y - seat.y);
  return seats
    .map((o, order) => ({ o, order, d: distance(o) }))
    .filter(({ o }) => o.state === 'free' && o.id !== seat.id)
    .sort((a, b) => a.d - b.d || a.order - b.order)
    .slice(0, NEAREST_FREE_SEATS)
    .map(({ o }) => o);
}

export async function seatNow(deps: QueryDeps, roomId: string, seatId: string): Promise<SeatNow> {
  const now = deps.clock.now();
  const { date: today, time } = localDateTime(now, deps.timeZone);
  const r = await deps.pool.query<Row>(SEAT_NOW_SQL, [
    roomId,
    seatId,
    today,
    time,
    now.toISOString(),
  ]);
  const row = r.rows[0];
  const seat = row?.seats.find((s) => s.id === seatId);
  if (!row || !seat) throw problems.notFound('Seat');
  const slot = row.slot && {
    id: row.slot.id,
    date: row.slot.date,
    startTime: row.slot.start_time,
    endTime: row.slot.end_time,
    started: row.slot.start_time <= time,
  };
  const state = slot ? seat.state : null;
  return {
    today,
    time,
    room: { id: row.id, name: row.name, nameEn: row.name_en, checkIn: row.check_in },
    seat: { ...brief(seat), x: seat.x, y: seat.y },
    slot,
    state,
    walkIn: state === 'free' && slot?.started === true,
    nearestFree: slot && state !== 'free' ? nearestFree(seat, row.seats).map(brief) : [],
  };
}

export function seatPageQueryRoutes(deps: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/rooms/{roomId}/seats/{seatId}/now',
      summary:
        "A seat's page now: the room, the seat, the slot under way (or next today), the seat's state in it and the nearest free seats (public, no personal data)",
      tags: ['rooms'],
      access: 'public',
      params: z.object({ roomId: z.uuid('Not a valid id'), seatId: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'The seat now', schema: SeatNow },
        404: { description: 'No such room, or no such seat on its plan' },
      },
      handler: async ({ params }) => ({
        body: await seatNow(deps, params.roomId, params.seatId),
      }),
    }),
  ];
}
