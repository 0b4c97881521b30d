import { SEAT_ATTRIBUTES } from '@rr/contracts/seats';
import {
  CHECK_IN_ROLES,
  defineRoute,
  heldSeatIds,
  outOfServiceSql,
  problems,
  z,
  type RouteDef,
  nameKey,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { SeatPlanImageAnswer, seatPlanImageOf } from './seat-plans.ts';

/**
 * What the desk sees of a slot's seats (docs/product.md#staff-and-display-views): each seat of the
 * room's plan free, held (a cart or a waitlist offer), booked, checked in or out of service, with
 * the booked ticket and its visitor's name, and the slot's booked tickets without a seat. Staff
 * only: the visitors' and the display's answers never say who holds a seat.
 */

const DeskSeatTicket = z
  .object({
    id: z.uuid(),
    bookingNumber: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    checkedInAt: z.string().nullable(),
  })
  .openapi('DeskSeatTicket');

export const DESK_SEAT_STATES = ['free', 'held', 'booked', 'checked_in', 'out_of_service'] as const;

const DeskSeat = z
  .object({
    id: z.uuid(),
    label: z.string(),
    zone: z.string().nullable(),
    attributes: z.array(z.enum(SEAT_ATTRIBUTES)),
    x: z.number(),
    y: z.number(),
    rotation: z.number().int(),
    state: z.enum(DESK_SEAT_STATES).openapi({
      description:
        'free; held (a cart hold not yet ended or a waitlist offer not yet lapsed); booked (not checked in); checked_in; out_of_service on the slot’s day (a booking still on it shows booked or checked_in)',
    }),
    ticket: z
      .union([DeskSeatTicket, z.null()])
      .openapi({ description: 'The booked ticket on the seat' }),
  })
  .openapi('DeskSeat');

const DeskSlotSeats = z
  .object({
    timeSlotId: z.uuid(),
    date: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    image: SeatPlanImageAnswer.nullable(),
    seats: z.array(DeskSeat).openapi({ description: "The plan's seats in its order" }),
    withoutSeat: z.array(DeskSeatTicket).openapi({
      description: 'Booked tickets of the slot holding no seat (an overbooking beyond the plan)',
    }),
  })
  .openapi('DeskSlotSeats');

type DeskSeatTicket = z.infer<typeof DeskSeatTicket>;
type Answer = z.infer<typeof DeskSlotSeats>;

const TICKET_JSON = `json_build_object('id', t.id, 'bookingNumber', t.booking_number,
  'firstName', p.first_name, 'lastName', p.last_name,
  'checkedInAt', to_char(t.checked_in_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** The slot `$1` of room `$2` with its seats' states at `$3` (the clock's instant). */
const SLOT_SEATS_SQL = `
  WITH s AS (SELECT id, room_id, date, start_time, end_time
               FROM rm_time_slots WHERE id = $1 AND room_id = $2),
       booked AS (SELECT t.seat_id, t.checked_in_at IS NOT NULL AS checked_in, ${TICKET_JSON} AS ticket
                    FROM s JOIN rm_tickets t ON t.time_slot_id = s.id AND t.status = 'BOOKED'
                    LEFT JOIN personal_data p ON p.owner_id = t.owner_id),
       held AS (SELECT h.seat_id FROM s, LATERAL ${heldSeatIds('$3')} h(seat_id))
  SELECT to_char(s.date, 'YYYY-MM-DD') AS date, s.start_time, s.end_time,
         (SELECT coalesce(json_agg(json_build_object('id', st.id, 'label', st.label,
                 'zone', st.zone, 'attributes', st.attributes, 'x', st.x, 'y', st.y,
                 'rotation', st.rotation,
                 'state', CASE WHEN b.seat_id IS NOT NULL
                                 THEN CASE WHEN b.checked_in THEN 'checked_in' ELSE 'booked' END
                               WHEN ${outOfServiceSql} THEN 'out_of_service'
                               WHEN st.id IN (SELECT seat_id FROM held) THEN 'held'
                               ELSE 'free' END,
                 'ticket', b.ticket) ORDER BY st.position), '[]')
            FROM rm_seats st LEFT JOIN booked b ON b.seat_id = st.id
           WHERE st.room_id = s.room_id) AS seats,
         (SELECT coalesce(json_agg(b.ticket ORDER BY ${nameKey("b.ticket->>'lastName'")}, b.ticket->>'id'), '[]')
            FROM booked b WHERE b.seat_id IS NULL) AS without_seat
    FROM s`;

export function staffSlotSeatQueryRoutes({ pool, clock }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{roomId}/timeslots/{timeSlotId}/seats',
      summary:
        "The desk's view of a slot's seats: each free, held, booked, checked in or out of service, with the booked ticket and its visitor's name",
      tags: ['check-in'],
      // As the check-in screen's list: the reports role reads it too (it may not move a seat).
      access: [...CHECK_IN_ROLES, 'reports'],
      sites: { path: { roomId: 'room', timeSlotId: 'slot' } },
      params: z.object({
        roomId: z.uuid('Not a valid id'),
        timeSlotId: z.uuid('Not a valid id'),
      }),
      responses: {
        200: { description: 'The slot’s seats', schema: DeskSlotSeats },
        404: { description: 'No such slot in the room' },
      },
      handler: async ({ params }) => {
        const r = await pool.query<{
          date: string;
          start_time: string;
          end_time: string;
          seats: Answer['seats'];
          without_seat: DeskSeatTicket[];
        }>(SLOT_SEATS_SQL, [params.timeSlotId, params.roomId, clock.now().toISOString()]);
        const row = r.rows[0];
        if (!row) throw problems.notFound('Time slot');
        const body: Answer = {
          timeSlotId: params.timeSlotId,
          date: row.date,
          startTime: row.start_time,
          endTime: row.end_time,
          image: await seatPlanImageOf(pool, params.roomId),
          seats: row.seats,
          withoutSeat: row.without_seat,
        };
        return { body };
      },
    }),
  ];
}
