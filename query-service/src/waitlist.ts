import { defineRoute, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

const WaitlistEntry = z
  .object({
    positionInLine: z.number().int(),
    status: z.enum(['waiting', 'offered', 'lapsed', 'taken', 'booked']),
    language: z.enum(['de', 'en']),
    joinedAt: z.string(),
    offerExpiresAt: z.string().nullable(),
  })
  .openapi('WaitlistEntry');

/**
 * A slot's waitlist for staff, in line order: status (waiting, offered, lapsed,
 * taken into a cart, booked), the language of its mails and the times; no address.
 */
export function waitlistQueryRoutes(deps: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}/waitlist',
      summary: "A slot's waitlist in line order (no personal data)",
      tags: ['timeslots'],
      access: ['admin', 'reports'],
      params: z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') }),
      responses: {
        200: {
          description: 'The line',
          schema: z.object({ content: z.array(WaitlistEntry) }).openapi('Waitlist'),
        },
      },
      handler: async ({ params }) => {
        const r = await deps.pool.query<{
          status: z.output<typeof WaitlistEntry>['status'];
          language: 'de' | 'en';
          joined_at: Date;
          offer_expires_at: Date | null;
        }>(
          `SELECT w.status, w.language, w.joined_at, w.offer_expires_at
             FROM rm_waitlist w JOIN rm_time_slots s ON s.id = w.time_slot_id
            WHERE w.time_slot_id = $1 AND s.room_id = $2 ORDER BY w.line_position`,
          [params.timeSlotId, params.id],
        );
        return {
          body: {
            content: r.rows.map((row, i) => ({
              positionInLine: i + 1,
              status: row.status,
              language: row.language,
              joinedAt: row.joined_at.toISOString(),
              offerExpiresAt: row.offer_expires_at?.toISOString() ?? null,
            })),
          },
        };
      },
    }),
  ];
}
