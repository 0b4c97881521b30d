import { defineRoute, problems, qrSvg, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/** A seat's QR code for the printed sheet: the visitor page of the seat and the code. */
const SeatQrCode = z
  .object({
    id: z.uuid(),
    label: z.string(),
    url: z
      .string()
      .openapi({ description: "The seat's visitor page (PUBLIC_BASE_URL seat/{roomId}/{seatId})" }),
    svg: z.string().openapi({ description: 'The QR code of `url` as an SVG document' }),
  })
  .openapi('SeatQrCode');
const SeatQrSheet = z.object({ seats: z.array(SeatQrCode) }).openapi('SeatQrSheet');

const RoomParams = z.object({ roomId: z.uuid('Not a valid id') });

/** The seat's page in the visitor app, where a code stuck on the seat leads. */
export const seatPageUrl = (visitorBaseUrl: string, roomId: string, seatId: string): string =>
  new URL(`seat/${roomId}/${seatId}`, visitorBaseUrl).href;

/**
 * The staff's printed sheet of a room's seats (docs/product.md#seat-plans): each seat's label and
 * the QR code of its visitor page, made here as the check-in codes are (the browser has no QR
 * library). The page shows each code as an image, never inlined.
 */
export function seatQrSheetRoutes({ pool, visitorBaseUrl }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{roomId}/seats/qr-sheet',
      summary: "The QR codes of a room's seats, for the printed sheet",
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { roomId: 'room' } },
      params: RoomParams,
      responses: {
        200: { description: 'The seats in the plan’s order with their codes', schema: SeatQrSheet },
        404: { description: 'No such room' },
      },
      malformedPathNotFound: 'Room',
      handler: async ({ params }) => {
        const room = await pool.query('SELECT 1 FROM rm_rooms WHERE id = $1', [params.roomId]);
        if (!room.rowCount) throw problems.notFound('Room');
        const seats = await pool.query<{ id: string; label: string }>(
          'SELECT id, label FROM rm_seats WHERE room_id = $1 ORDER BY position',
          [params.roomId],
        );
        const base = visitorBaseUrl ?? 'http://localhost/';
        return {
          body: {
            seats: await Promise.all(
              seats.rows.map(async (seat) => {
                const url = seatPageUrl(base, params.roomId, seat.id);
                return { id: seat.id, label: seat.label, url, svg: await qrSvg(url) };
              }),
            ),
          },
        };
      },
    }),
  ];
}
