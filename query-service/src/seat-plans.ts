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
import { sendImage } from './rooms.ts';

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

export const SeatPlanImageAnswer = z
  .object({
    url: z.string().openapi({ description: "Below /api/, versioned by the image's id" }),
    contentType: z.enum(['image/png', 'image/jpeg', 'image/svg+xml']),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
  })
  .openapi('SeatPlanImage');

const StaffSeatPlan = z
  .object({
    seats: z.array(SeatAnswer),
    outOfService: z.array(OutOfServiceAnswer),
    image: SeatPlanImageAnswer.nullable(),
  })
  .openapi('StaffSeatPlan');

/** The plan's image of a room, as the rooms read model knows it; null without one. */
export async function seatPlanImageOf(
  pool: Pool,
  roomId: string,
): Promise<z.output<typeof SeatPlanImageAnswer> | null> {
  const r = await pool.query<{
    id: string | null;
    type: z.output<typeof SeatPlanImageAnswer>['contentType'];
    width: number | null;
    height: number | null;
  }>(
    `SELECT seat_plan_image_id AS id, seat_plan_image_type AS type, seat_plan_image_width AS width,
            seat_plan_image_height AS height
       FROM rm_rooms WHERE id = $1`,
    [roomId],
  );
  const row = r.rows[0];
  if (!row?.id) return null;
  return {
    url: `rooms/${roomId}/seat-plan/image?v=${row.id}`,
    contentType: row.type,
    ...(row.width ? { width: row.width } : {}),
    ...(row.height ? { height: row.height } : {}),
  };
}

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
      sites: { path: { roomId: 'room' } },
      params: RoomParams,
      responses: {
        200: { description: 'The seat plan (no seats: no plan)', schema: StaffSeatPlan },
        404: { description: 'No such room' },
      },
      handler: async ({ params }) => {
        const seats = await seatsOf(pool, params.roomId);
        const [outOfService, image] = await Promise.all([
          outOfServiceOf(pool, params.roomId),
          seatPlanImageOf(pool, params.roomId),
        ]);
        return { body: { seats, outOfService, image } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{roomId}/seats.csv',
      summary:
        "A room's seats as a spreadsheet (UTF-8 with BOM, ';'-separated: label, zone, attributes (space-separated), x, y, rotation, notes)",
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { roomId: 'room' } },
      params: RoomParams,
      responses: {
        200: { description: 'seats.csv', schema: z.string(), contentType: 'text/csv' },
        404: { description: 'No such room' },
      },
      handler: async ({ params, res }) => {
        sendCsv(res, 'seats.csv', seatsCsv(await seatsOf(pool, params.roomId)));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/rooms/{roomId}/seat-plan/image',
      summary:
        "The seat plan's image bytes (PNG, JPEG or SVG; sandboxed: shown only as an image, never inlined)",
      tags: ['rooms'],
      access: 'public',
      params: RoomParams,
      query: z.object({ v: z.string().max(64).optional() }),
      responses: {
        200: {
          description:
            "PNG, JPEG or SVG, with Content-Security-Policy: sandbox; default-src 'none'",
          schema: z.string().openapi({ format: 'binary' }),
          contentType: 'image/*',
        },
        404: { description: 'No image' },
      },
      handler: async ({ params, res }) =>
        sendImage(pool, params.roomId, res, 'public, max-age=300', 'seat-plan'),
    }),
  ];
}
