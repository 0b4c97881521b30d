import {
  defineRoute,
  problems,
  SeatAnswer,
  seatsCsv,
  sendCsv,
  z,
  type Pool,
  type RouteDef,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/** A room's seat plan for staff (docs/product.md#seat-plans), from the rooms read model. */

const RoomParams = z.object({ roomId: z.uuid('Not a valid id') });

const OutOfServiceAnswer = z
  .object({
    id: z.uuid(),
    seatId: z.uuid(),
    from: z.string().openapi({ format: 'date' }),
    until: z.string().openapi({ format: 'date' }),
    reason: z.string(),
  })
  .openapi('SeatOutOfService');

const StaffSeatPlan = z
  .object({ seats: z.array(SeatAnswer), outOfService: z.array(OutOfServiceAnswer) })
  .openapi('StaffSeatPlan');

interface SeatRow {
  id: string;
  label: string;
  zone: string | null;
  attributes: string[];
  notes: string | null;
  x: number;
  y: number;
  rotation: number;
}

/** The room's seats in the order staff set them; 404 for a room that does not exist. */
async function seatsOf(pool: Pool, roomId: string): Promise<SeatAnswer[]> {
  const r = await pool.query<SeatRow & { room: string | null }>(
    `SELECT r.id AS room, s.id, s.label, s.zone, s.attributes, s.notes, s.x, s.y, s.rotation
       FROM rm_rooms r LEFT JOIN rm_seats s ON s.room_id = r.id
      WHERE r.id = $1 ORDER BY s.position`,
    [roomId],
  );
  if (!r.rows[0]) throw problems.notFound('Room');
  return r.rows
    .filter((row) => row.id !== null)
    .map(({ room: _room, ...s }) => ({
      ...s,
      attributes: s.attributes as SeatAnswer['attributes'],
    }));
}

async function outOfServiceOf(pool: Pool, roomId: string) {
  const r = await pool.query<z.output<typeof OutOfServiceAnswer>>(
    `SELECT id, seat_id AS "seatId", to_char(from_date, 'YYYY-MM-DD') AS "from",
            to_char(until, 'YYYY-MM-DD') AS until, reason
       FROM rm_seat_out_of_service WHERE room_id = $1 ORDER BY from_date, until, id`,
    [roomId],
  );
  return r.rows;
}

export function seatPlanQueryRoutes({ pool }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{roomId}/seats',
      summary: "A room's seats and the ranges of days seats are out of service, for staff",
      tags: ['rooms'],
      access: ['admin'],
      params: RoomParams,
      responses: {
        200: { description: 'The seat plan (no seats: no plan)', schema: StaffSeatPlan },
        404: { description: 'No such room' },
      },
      handler: async ({ params }) => {
        const seats = await seatsOf(pool, params.roomId);
        return { body: { seats, outOfService: await outOfServiceOf(pool, params.roomId) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{roomId}/seats.csv',
      summary:
        "A room's seats as a spreadsheet (UTF-8 with BOM, ';'-separated: label, zone, attributes (space-separated), x, y, rotation, notes)",
      tags: ['rooms'],
      access: ['admin'],
      params: RoomParams,
      responses: {
        200: { description: 'seats.csv', schema: z.string(), contentType: 'text/csv' },
        404: { description: 'No such room' },
      },
      handler: async ({ params, res }) => {
        sendCsv(res, 'seats.csv', seatsCsv(await seatsOf(pool, params.roomId)));
      },
    }),
  ];
}
