import { defineRoute, localDateTime, problems, z, type RouteDef } from '@rr/platform';
import { Ticket, TICKET_SELECT, toTicket, type TicketRow } from './booking.ts';
import type { QueryDeps } from './deps.ts';
import { historyRoutes } from './staff-history.ts';
import { ticketListRoutes } from './staff-list.ts';
import { reportRoutes } from './staff-reports.ts';

/**
 * The staff's read routes: the reservations list (staff-list.ts), one ticket and its booking's
 * other tickets (here), the audit histories (staff-history.ts) and the reports
 * (staff-reports.ts).
 */
export function staffQueryRoutes(deps: QueryDeps): RouteDef[] {
  const { pool, clock, timeZone } = deps;
  const localNow = () => localDateTime(clock.now(), timeZone);
  const staff = ['admin', 'reports'] as ('admin' | 'reports')[];
  const list = ticketListRoutes(deps);
  const reports = reportRoutes(deps);
  const history = historyRoutes(deps);

  // In this order: the fixed paths under /admin/tickets before /admin/tickets/{id}.
  return [
    reports.occupancy,
    reports.occupancyCsv,
    list.exportCsv,
    list.list,
    defineRoute({
      method: 'get',
      path: '/admin/tickets/{id}',
      summary: 'One ticket with its owner data',
      tags: ['staff'],
      access: staff,
      sites: { path: { id: 'ticket' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'The ticket', schema: Ticket },
        404: { description: 'No such ticket' },
      },
      handler: async ({ params }) => {
        const r = await pool.query<TicketRow>(`${TICKET_SELECT} WHERE t.id = $1`, [params.id]);
        if (!r.rows[0]) throw problems.notFound('Ticket');
        return { body: toTicket(r.rows[0], localNow()) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/tickets/{id}/related',
      summary: 'The other tickets of the same booking (owner)',
      tags: ['staff'],
      access: staff,
      // The booking as a whole: every room of its tickets must be of her sites.
      sites: { path: { id: 'reservation' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'Tickets', schema: z.array(Ticket) },
        404: { description: 'No such ticket' },
      },
      handler: async ({ params }) => {
        const t = await pool.query<{ owner_id: string | null }>(
          'SELECT owner_id FROM rm_tickets WHERE id = $1',
          [params.id],
        );
        if (!t.rows[0]) throw problems.notFound('Ticket');
        if (!t.rows[0].owner_id) return { body: [] };
        const r = await pool.query<TicketRow>(
          `${TICKET_SELECT} WHERE t.owner_id = $1 AND t.id <> $2 ORDER BY t.date, t.start_time`,
          [t.rows[0].owner_id, params.id],
        );
        const now = localNow();
        return { body: r.rows.map((x) => toTicket(x, now)) };
      },
    }),
    history.ticket,
    history.slot,
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/active-ticket-count',
      summary: 'Held or booked tickets of a room from today on',
      tags: ['staff'],
      access: staff,
      sites: { path: { id: 'room' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: { 200: { description: 'Count', schema: z.object({ count: z.number() }) } },
      handler: async ({ params }) => {
        const r = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM rm_tickets WHERE room_id = $1 AND status IN ('NEW', 'BOOKED') AND date >= $2`,
          [params.id, localNow().date],
        );
        return { body: { count: r.rows[0]!.n } };
      },
    }),
    reports.daily,
    reports.dailyCsv,
  ];
}
