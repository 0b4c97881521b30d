import { defineRoute, problems, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

const Status = z.enum(['waiting', 'offered', 'lapsed', 'taken', 'booked', 'left', 'removed']);

const WaitlistEntry = z
  .object({
    entryId: z.uuid(),
    positionInLine: z.number().int(),
    /** The address it joined with, from beside the log at read time; null once erased. */
    email: z.string().nullable(),
    status: Status,
    language: z.enum(['de', 'en']),
    joinedAt: z.string(),
    offerExpiresAt: z.string().nullable(),
    passedOver: z.boolean().openapi({
      description:
        'Waiting, but passed over by the matcher: the per-visitor limits bar it from a seat, so it keeps its place and claims none',
    }),
  })
  .openapi('WaitlistEntry');

const VisitorEntry = z
  .object({
    entryId: z.uuid(),
    timeSlotId: z.uuid(),
    status: Status,
    /** The place among those waiting (1: the next to be offered a seat); null unless waiting. */
    positionInLine: z.number().int().nullable(),
    offerExpiresAt: z.string().nullable(),
    /** The slot waited for, for the visitor's page and the leave page to name it. */
    slot: z
      .object({
        roomId: z.uuid(),
        roomName: z.string(),
        date: z.string(),
        startTime: z.string(),
        endTime: z.string(),
      })
      .openapi('WaitlistSlot', {
        description: "The slot waited for: its room, date and times (the library's local ones)",
      }),
  })
  .openapi('WaitlistPlace');

/**
 * A slot's waitlist for staff, in line order: status (waiting, offered, lapsed, taken into a
 * cart, booked, left, removed), the language of its mails and the times, and the address each
 * entry joined with, read at request time from `waitlist_entries` beside the log (the read model
 * holds no personal data; erased the day after the slot). And the visitor's own place, by the
 * entry's reference (the page remembers it, as it remembers a cart).
 */
export function waitlistQueryRoutes(deps: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/waitlist/{reference}',
      summary:
        "The visitor's place in a slot's waitlist and the slot (room, date, times), by the entry's reference (the join's answer, the mail's leave link)",
      tags: ['visitor'],
      access: 'public',
      params: z.object({ reference: z.string().min(1).max(100) }),
      responses: {
        200: { description: 'The entry', schema: VisitorEntry },
        404: { description: 'No such entry (or not a reference issued here; a damaged link too)' },
      },
      // A damaged link from a mail names no entry: 404, as for an unknown one.
      malformedPathNotFound: 'Waitlist entry',
      handler: async ({ params }) => {
        const entryId = deps.waitlistReferences.entryOf(params.reference);
        const r = entryId
          ? await deps.pool.query<{
              time_slot_id: string;
              status: z.output<typeof Status>;
              offer_expires_at: Date | null;
              ahead: string;
              room_id: string;
              room_name: string | null;
              date: string;
              start_time: string;
              end_time: string;
            }>(
              `SELECT w.time_slot_id, w.status, w.offer_expires_at,
                      (SELECT count(*) FROM rm_waitlist o WHERE o.time_slot_id = w.time_slot_id
                          AND o.status = 'waiting' AND o.line_position < w.line_position) AS ahead,
                      s.room_id, r.name AS room_name, s.date, s.start_time, s.end_time
                 FROM rm_waitlist w
                 JOIN rm_time_slots s ON s.id = w.time_slot_id
                 LEFT JOIN rm_rooms r ON r.id = s.room_id
                WHERE w.entry_id = $1`,
              [entryId],
            )
          : { rows: [] };
        const row = r.rows[0];
        if (!entryId || !row) throw problems.notFound('Waitlist entry');
        return {
          body: {
            entryId,
            timeSlotId: row.time_slot_id,
            status: row.status,
            positionInLine: row.status === 'waiting' ? Number(row.ahead) + 1 : null,
            offerExpiresAt:
              row.status === 'offered' ? (row.offer_expires_at?.toISOString() ?? null) : null,
            slot: {
              roomId: row.room_id,
              roomName: row.room_name ?? '',
              date: row.date,
              startTime: row.start_time,
              endTime: row.end_time,
            },
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}/waitlist',
      summary:
        "A slot's waitlist in line order, with each entry's address (read beside the log, null once erased)",
      tags: ['timeslots'],
      access: ['admin', 'reports'],
      sites: { path: { id: 'room', timeSlotId: 'slot' } },
      params: z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') }),
      responses: {
        200: {
          description: 'The line',
          schema: z.object({ content: z.array(WaitlistEntry) }).openapi('Waitlist'),
        },
      },
      handler: async ({ params }) => {
        const r = await deps.pool.query<{
          entry_id: string;
          email: string | null;
          status: z.output<typeof WaitlistEntry>['status'];
          language: 'de' | 'en';
          joined_at: Date;
          offer_expires_at: Date | null;
          passed_over: boolean;
        }>(
          `SELECT w.entry_id, p.email, w.status, w.language, w.joined_at, w.offer_expires_at,
                  w.passed_over
             FROM rm_waitlist w JOIN rm_time_slots s ON s.id = w.time_slot_id
             LEFT JOIN waitlist_entries p ON p.entry_id = w.entry_id
            WHERE w.time_slot_id = $1 AND s.room_id = $2 ORDER BY w.line_position`,
          [params.timeSlotId, params.id],
        );
        return {
          body: {
            content: r.rows.map((row, i) => ({
              entryId: row.entry_id,
              positionInLine: i + 1,
              email: row.email,
              status: row.status,
              language: row.language,
              joinedAt: row.joined_at.toISOString(),
              offerExpiresAt: row.offer_expires_at?.toISOString() ?? null,
              passedOver: row.status === 'waiting' && row.passed_over,
            })),
          },
        };
      },
    }),
  ];
}
