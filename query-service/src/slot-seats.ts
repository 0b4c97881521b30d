import { SEAT_ATTRIBUTES, SEAT_STATES } from '@rr/contracts/seats';
import {
  defineRoute,
  heldSeatIds,
  notOfferedSql,
  outOfServiceSql,
  problems,
  z,
  type RouteDef,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { SeatPlanImageAnswer, seatPlanImageOf } from './seat-plans.ts';

/**
 * What visitors read of a room's seat plan (docs/product.md#seat-plans): its seats and their
 * places, and each seat's state in a slot (free, taken or out of service). No personal data:
 * who holds a seat is never said.
 */

const PlanSeatAnswer = z
  .object({
    id: z.uuid(),
    label: z.string(),
    zone: z.string().nullable(),
    attributes: z.array(z.enum(SEAT_ATTRIBUTES)),
    x: z.number(),
    y: z.number(),
    rotation: z.number().int(),
  })
  .openapi('PlanSeat');

const SeatPlanAnswer = z
  .object({
    seats: z.array(PlanSeatAnswer),
    image: SeatPlanImageAnswer.nullable().openapi({
      description: "The plan's image (PNG, JPEG or SVG, shown as an image only); null: a grid",
    }),
  })
  .openapi('SeatPlan');

const SlotSeatAnswer = z
  .object({
    id: z.uuid(),
    label: z.string(),
    zone: z.string().nullable(),
    attributes: z.array(z.enum(SEAT_ATTRIBUTES)),
    state: z.enum(SEAT_STATES),
  })
  .openapi('SlotSeat');

const RoomParams = z.object({ roomId: z.uuid('Not a valid id') });
const SlotParams = RoomParams.extend({ timeSlotId: z.uuid('Not a valid id') });

export function slotSeatQueryRoutes({ pool, clock }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/rooms/{roomId}/seat-plan',
      summary: "A room's seat plan: its seats in the plan's order (none: the room has no plan)",
      tags: ['rooms'],
      access: 'public',
      params: RoomParams,
      responses: {
        200: { description: 'The plan', schema: SeatPlanAnswer },
        404: { description: 'No such room' },
      },
      handler: async ({ params }) => {
        const r = await pool.query<{ seats: z.infer<typeof PlanSeatAnswer>[] }>(
          `SELECT (SELECT coalesce(json_agg(json_build_object('id', st.id, 'label', st.label,
                          'zone', st.zone, 'attributes', st.attributes, 'x', st.x, 'y', st.y,
                          'rotation', st.rotation) ORDER BY st.position), '[]')
                     FROM rm_seats st WHERE st.room_id = r.id) AS seats
             FROM rm_rooms r WHERE r.id = $1`,
          [params.roomId],
        );
        const row = r.rows[0];
        if (!row) throw problems.notFound('Room');
        return { body: { seats: row.seats, image: await seatPlanImageOf(pool, params.roomId) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/rooms/{roomId}/timeslots/{timeSlotId}/seats',
      summary:
        "A slot's seats with their state now: free, taken (held or booked) or out of service (on its day, or not offered by the slot)",
      tags: ['timeslots'],
      access: 'public',
      params: SlotParams,
      responses: {
        200: { description: 'The seats in the plan’s order', schema: z.array(SlotSeatAnswer) },
        404: { description: 'No such slot in the room' },
      },
      handler: async ({ params }) => {
        const r = await pool.query<{ seats: z.infer<typeof SlotSeatAnswer>[] }>(
          `WITH s AS (SELECT id, room_id, date, seat_ids FROM rm_time_slots WHERE id = $1 AND room_id = $2),
                held AS (SELECT h.seat_id FROM s, LATERAL ${heldSeatIds('$3')} h(seat_id))
           SELECT (SELECT coalesce(json_agg(json_build_object('id', st.id, 'label', st.label,
                          'zone', st.zone, 'attributes', st.attributes,
                          'state', CASE WHEN ${outOfServiceSql} OR ${notOfferedSql}
                                        THEN 'out_of_service'
                                        WHEN st.id IN (SELECT seat_id FROM held) THEN 'taken'
                                        ELSE 'free' END) ORDER BY st.position), '[]')
                     FROM rm_seats st WHERE st.room_id = s.room_id) AS seats
             FROM s`,
          [params.timeSlotId, params.roomId, clock.now().toISOString()],
        );
        const row = r.rows[0];
        if (!row) throw problems.notFound('Time slot');
        return { body: row.seats };
      },
    }),
  ];
}
