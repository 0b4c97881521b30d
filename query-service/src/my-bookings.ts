import {
  defineRoute,
  localDateTime,
  myBookingsRequestOf,
  myBookingsTokenParam,
  problems,
  z,
  type RouteDef,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { Ticket, TICKET_SELECT, toTicket, type TicketRow } from './booking.ts';

/**
 * The "my bookings" page's read (docs/product.md#my-bookings): every booked ticket of the link's
 * address from today on, across rooms and bookings. The link's request row (beside the log, like
 * the personal data the tickets join) says whose; an unknown, altered or expired link is 404.
 */
export function myBookingsQueryRoutes(deps: QueryDeps): RouteDef[] {
  const { pool, clock, timeZone } = deps;
  /** The booked tickets from today on of the bookings the condition on `bookings` picks. */
  const bookedFromToday = async (bookingsWhere: string, key: string) => {
    const now = localDateTime(clock.now(), timeZone);
    const r = await pool.query<TicketRow>(
      `${TICKET_SELECT}
        WHERE t.owner_id IN (SELECT owner_id FROM bookings WHERE ${bookingsWhere})
          AND t.status = 'BOOKED' AND t.date >= $2
        ORDER BY t.date, t.start_time, t.booking_number`,
      [key, now.date],
    );
    return r.rows.map((x) => toTicket(x, now));
  };
  return [
    defineRoute({
      method: 'get',
      path: '/my-bookings',
      summary:
        'Every booked ticket from today on of the bookings the visitor made signed in with the campus identity (my bookings without a mail)',
      tags: ['visitor'],
      access: 'public',
      responses: {
        200: {
          description: 'The tickets',
          schema: z.object({ tickets: z.array(Ticket) }).openapi('SignedInBookings'),
        },
        401: { description: 'No visitor signed in with the campus identity' },
      },
      handler: async ({ req }) => {
        const visitor = req.signedInVisitor;
        if (!visitor) throw problems.unauthorized();
        // The subject's bookings, by the key its bookings carry (docs/product.md#my-bookings):
        // a guest's booking with the same address is not the subject's. (The subject's key is
        // never an address's, so the limits' index on the key serves.)
        return {
          body: {
            tickets: await bookedFromToday(
              'COALESCE(subject_key, visitor_key) = $1',
              deps.subjectKey(visitor.subject),
            ),
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/my-bookings/{token}/tickets',
      summary:
        "Every booked ticket of the link's address from today on (the link of the my-bookings mail)",
      tags: ['visitor'],
      access: 'public',
      params: z.object({ token: myBookingsTokenParam }),
      responses: {
        200: {
          description: 'The tickets and until when the link is valid',
          schema: z
            .object({ expiresAt: z.string(), tickets: z.array(Ticket) })
            .openapi('MyBookings'),
        },
        404: { description: 'Unknown, altered or expired link' },
      },
      malformedPathNotFound: 'Link',
      handler: async ({ params }) => {
        const request = await myBookingsRequestOf(
          pool,
          deps.myBookingsLinks,
          params.token,
          clock.now(),
        );
        if (!request) throw problems.notFound('Link');
        return {
          body: {
            expiresAt: request.expiresAt.toISOString(),
            tickets: await bookedFromToday('visitor_key = $1', request.visitorKey),
          },
        };
      },
    }),
  ];
}
