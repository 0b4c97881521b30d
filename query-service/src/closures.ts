import { ClosurePreviewQuery } from '@rr/contracts';
import { refuse, refuseLongClosure } from '@rr/domain';
import { defineRoute, fromContract, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

const PreviewQuery = fromContract(ClosurePreviewQuery);

const ClosurePreview = z
  .object({
    slots: z.number().openapi({ description: 'Time slots in the range' }),
    closed: z.number().openapi({ description: 'Of them closed already' }),
    bookings: z.number().openapi({ description: 'Booked tickets of these slots' }),
    waiting: z
      .number()
      .openapi({ description: 'Waitlist entries of these slots (waiting or offered)' }),
  })
  .openapi('ClosurePreview');

/** What a closure would meet (docs/product.md#closures): staff see it before they confirm. */
export function closureQueryRoutes({ pool, closureMaxDays }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/closures/preview',
      summary:
        'The slots, booked tickets and waitlist entries a closure of these rooms (comma-separated; all when left out) and days would meet',
      tags: ['closures'],
      access: ['admin'],
      // Her rooms only; "all rooms" (roomIds left out) are all rooms of her sites.
      sites: { query: { roomIds: 'room' }, leftOutFilters: true },
      query: PreviewQuery,
      responses: {
        200: { description: 'The counts', schema: ClosurePreview },
        400: { description: 'validation__error: the range or a room' },
      },
      handler: async ({ query, sites }) => {
        // The closure's own bound, so the preview never shows what the closure would refuse.
        refuseLongClosure(query.fromDate, query.untilDate, closureMaxDays);
        const roomIds = query.roomIds
          ? [...new Set(query.roomIds.split(',').map((x) => x.trim()))].filter(Boolean)
          : null;
        if (roomIds) {
          const known = await pool.query<{ id: string }>(
            'SELECT id::text FROM rm_rooms WHERE id::text = ANY($1::text[])',
            [roomIds],
          );
          if (known.rows.length !== roomIds.length)
            throw refuse.field({ field: 'roomIds', rule: 'unknown', message: 'No such room' });
        }
        const r = await pool.query<{
          slots: number;
          closed: number;
          bookings: number;
          waiting: number;
        }>(
          `SELECT count(*)::int AS slots,
                  count(*) FILTER (WHERE s.closed_reason IS NOT NULL)::int AS closed,
                  coalesce(sum((SELECT count(*) FROM rm_tickets t
                                 WHERE t.time_slot_id = s.id AND t.status = 'BOOKED')), 0)::int AS bookings,
                  coalesce(sum((SELECT count(*) FROM rm_waitlist w
                                 WHERE w.time_slot_id = s.id AND w.status IN ('waiting', 'offered'))), 0)::int AS waiting
             FROM rm_time_slots s
            WHERE s.date BETWEEN $1 AND $2 AND ($3::uuid[] IS NULL OR s.room_id = ANY($3::uuid[]))
              AND ($4::uuid[] IS NULL
                   OR s.room_id IN (SELECT r.id FROM rm_rooms r WHERE r.site_id = ANY($4::uuid[])))`,
          [query.fromDate, query.untilDate, roomIds, sites],
        );
        return { body: r.rows[0]! };
      },
    }),
  ];
}
