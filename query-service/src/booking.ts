import { untilNotBefore } from '@rr/contracts';
import {
  defineRoute,
  isoDate,
  localDateTime,
  ownerIdParam,
  problems,
  z,
  type RouteDef,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { TimeSlot, visitorSlots } from './timeslots.ts';

export const TicketCancellation = z
  .object({
    by: z.enum(['visitor', 'library', 'closure', 'moved']),
    reason: z.string().nullable(),
    /** A move's: the slot of the ticket that took its place (docs/product.md#rebooking). */
    movedTo: z
      .object({
        timeSlotId: z.uuid(),
        date: z.string(),
        startTime: z.string(),
        endTime: z.string(),
      })
      .nullable(),
  })
  .openapi('TicketCancellation');
type TicketCancellation = z.infer<typeof TicketCancellation>;

export const Ticket = z
  .object({
    id: z.uuid(),
    status: z.enum(['NEW', 'BOOKED', 'INVALID', 'CANCELLED']),
    ownerId: z.string().nullable(),
    bookingNumber: z.string().nullable(),
    transactionId: z.uuid(),
    timeSlotId: z.uuid(),
    roomId: z.uuid(),
    siteId: z.uuid().nullable().openapi({
      description:
        "The site of the ticket's room (docs/product.md#sites); null once the room is deleted",
    }),
    roomName: z.string(),
    roomDescription: z.string(),
    /** The English texts of the room's name and description; absent: the German ones serve both. */
    roomNameEn: z.string().optional(),
    roomDescriptionEn: z.string().optional(),
    date: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    cancelable: z.boolean(),
    salutation: z.string().nullable(),
    title: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    organisation: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    accessibility: z.boolean().nullable(),
    /** Whether the ticket's room uses check-in (then the ticket has a QR code). */
    checkIn: z.boolean(),
    /** When the reader was checked in; null when not. */
    checkedInAt: z.string().nullable(),
    /** Released as a no-show (its status is then INVALID). */
    noShow: z.boolean(),
    /** How many tickets of this visitor (all bookings of the e-mail) were released as no-shows. */
    noShowCount: z.number().int(),
    /**
     * Confirmed addresses: a booked ticket awaiting its visitor's confirmation, until this instant
     * (then it is released); null when confirmed or never asked. Always in the answer; optional
     * in the schema only for the clients written before it.
     */
    confirmBy: z.string().nullable().optional(),
    /** Released because its booking was not confirmed in time (its status is then INVALID). */
    unconfirmed: z.boolean().optional(),
    /**
     * Why a CANCELLED ticket was cancelled (null for the others, and for cancellations written
     * before the reason was kept): by its visitor, by the library (with the reason staff gave), by
     * a closure (its reason), or moved to another slot of its booking (that slot, while its ticket
     * exists). Optional in the schema only for the clients written before it.
     */
    cancellation: TicketCancellation.nullable().optional(),
    /** In a room with a seat plan, the seat the ticket holds; null: none. */
    seat: z.object({ id: z.uuid(), label: z.string() }).nullable(),
  })
  .openapi('Ticket');
export type Ticket = z.infer<typeof Ticket>;

export interface TicketRow {
  id: string;
  status: Ticket['status'];
  owner_id: string | null;
  booking_number: string | null;
  transaction_id: string;
  time_slot_id: string;
  room_id: string;
  site_id: string | null;
  room_name: string | null;
  room_description: string | null;
  room_name_en: string | null;
  room_description_en: string | null;
  date: string;
  start_time: string;
  end_time: string;
  salutation: string | null;
  title: string | null;
  first_name: string | null;
  last_name: string | null;
  organisation: string | null;
  email: string | null;
  phone: string | null;
  accessibility: boolean | null;
  check_in: boolean;
  checked_in_at: Date | null;
  no_show: boolean;
  no_show_count: number;
  confirm_by: Date | null;
  unconfirmed: boolean;
  cancelled_by: TicketCancellation['by'] | null;
  cancel_reason: string | null;
  moved_to_slot: TicketCancellation['movedTo'];
  seat_id: string | null;
  seat_label: string | null;
}

/** The columns of a TicketRow from tickets t, rooms r and personal data p. */
export const TICKET_COLUMNS = `t.id, t.status, t.owner_id, t.booking_number, t.transaction_id, t.time_slot_id, t.room_id, r.site_id,
         r.name AS room_name, r.description AS room_description, r.name_en AS room_name_en,
         r.description_en AS room_description_en, t.date, t.start_time, t.end_time,
         p.salutation, p.title, p.first_name, p.last_name, p.organisation, p.email, p.phone, p.accessibility,
         (r.services->>'checkInMinutesBefore') IS NOT NULL AS check_in, t.checked_in_at, t.no_show,
         CASE WHEN t.status = 'BOOKED' THEN t.confirm_by END AS confirm_by, t.unconfirmed,
         t.cancelled_by, t.cancel_reason, t.seat_id, t.seat_label,
         (SELECT json_build_object('timeSlotId', m.time_slot_id, 'date', m.date::text,
                                   'startTime', m.start_time, 'endTime', m.end_time)
            FROM rm_tickets m WHERE m.id = t.moved_to) AS moved_to_slot,
         (SELECT count(*)::int FROM bookings vb JOIN rm_tickets vt ON vt.owner_id = vb.owner_id AND vt.no_show
           WHERE COALESCE(vb.subject_key, vb.visitor_key) =
                 (SELECT COALESCE(ob.subject_key, ob.visitor_key) FROM bookings ob WHERE ob.owner_id = t.owner_id)) AS no_show_count`;

/** Tickets joined with their room and, while it exists, the owner's personal data. */
export const TICKET_SELECT = `
  SELECT ${TICKET_COLUMNS}
    FROM rm_tickets t
    LEFT JOIN rm_rooms r ON r.id = t.room_id
    LEFT JOIN personal_data p ON p.owner_id = t.owner_id`;

export function toTicket(r: TicketRow, localNow: { date: string; time: string }): Ticket {
  const cancelable =
    r.status === 'BOOKED' &&
    (r.date > localNow.date || (r.date === localNow.date && r.start_time > localNow.time));
  return {
    id: r.id,
    status: r.status,
    ownerId: r.owner_id,
    bookingNumber: r.booking_number,
    transactionId: r.transaction_id,
    timeSlotId: r.time_slot_id,
    roomId: r.room_id,
    siteId: r.site_id,
    roomName: r.room_name ?? '',
    roomDescription: r.room_description ?? '',
    ...(r.room_name_en ? { roomNameEn: r.room_name_en } : {}),
    ...(r.room_description_en ? { roomDescriptionEn: r.room_description_en } : {}),
    date: r.date,
    startTime: r.start_time,
    endTime: r.end_time,
    cancelable,
    salutation: r.salutation,
    title: r.title,
    firstName: r.first_name,
    lastName: r.last_name,
    organisation: r.organisation,
    email: r.email,
    phone: r.phone,
    accessibility: r.accessibility,
    checkIn: r.check_in,
    checkedInAt: r.checked_in_at ? r.checked_in_at.toISOString() : null,
    noShow: r.no_show,
    noShowCount: r.no_show_count,
    confirmBy: r.confirm_by ? r.confirm_by.toISOString() : null,
    unconfirmed: r.unconfirmed,
    cancellation:
      r.status === 'CANCELLED' && r.cancelled_by
        ? { by: r.cancelled_by, reason: r.cancel_reason, movedTo: r.moved_to_slot }
        : null,
    seat: r.seat_id && r.seat_label ? { id: r.seat_id, label: r.seat_label } : null,
  };
}

/**
 * The slots a cart holds, as the cart's rules take them: their sites are found by their rooms
 * (heldSitesColumns), as on the command side.
 */
const heldSlots = (tickets: readonly Ticket[]) =>
  tickets
    .filter((t) => t.status === 'NEW')
    .map(({ timeSlotId, date, startTime, endTime, roomId }) => ({
      timeSlotId,
      date,
      startTime,
      endTime,
      roomId,
    }));

/**
 * The cart in one statement (one round trip, one snapshot): its row, with its held and booked
 * tickets and those a closure of their slot released (closed), one ticket a row; a cart without
 * tickets gives one row whose ticket columns are null.
 */
async function readCart(deps: QueryDeps, transactionId: string) {
  const { pool, clock, timeZone } = deps;
  const r = await pool.query<
    Omit<TicketRow, 'id'> & {
      id: string | null;
      cart_status: string;
      cart_expires_at: Date | null;
      closed: boolean | null;
      closed_reason: string | null;
      closed_reason_en: string | null;
    }
  >({
    // Prepared: planning the statement took longer than running it.
    name: 'rr_cart_view',
    text: `SELECT x.status AS cart_status, x.expires_at AS cart_expires_at, k.*,
            k.status = 'INVALID' AS closed, s.closed_reason, s.closed_reason_en
       FROM rm_transactions x
       LEFT JOIN LATERAL (
         ${TICKET_SELECT}
          WHERE t.transaction_id = x.id
            AND (t.status IN ('NEW', 'BOOKED') OR (t.status = 'INVALID' AND t.release_reason = 'closed'))
       ) k ON true
       LEFT JOIN rm_time_slots s ON s.id = k.time_slot_id AND k.status = 'INVALID'
      WHERE x.id = $1
      ORDER BY closed, k.date, k.start_time`,
    values: [transactionId],
  });
  const row = r.rows[0];
  if (!row) throw problems.notFound('Transaction');
  const expired =
    row.cart_status === 'NEW' && row.cart_expires_at !== null && row.cart_expires_at <= clock.now();
  const now = localDateTime(clock.now(), timeZone);
  const tickets: Ticket[] = [];
  const closedTickets: (Ticket & { closedReason: string; closedReasonEn?: string })[] = [];
  for (const { id, closed, closed_reason, closed_reason_en, ...rest } of r.rows) {
    if (id === null) continue;
    const ticket = toTicket({ ...rest, id }, now);
    if (!closed) tickets.push(ticket);
    else
      closedTickets.push({
        ...ticket,
        closedReason: closed_reason ?? '',
        ...(closed_reason_en ? { closedReasonEn: closed_reason_en } : {}),
      });
  }
  return {
    transactionId,
    status: expired ? 'EXPIRED' : row.cart_status,
    expiredAt: row.cart_expires_at ? row.cart_expires_at.toISOString() : null,
    tickets: expired ? [] : tickets,
    closedTickets,
  };
}

const TxParams = z.object({ transactionId: z.uuid('Not a valid id') });
const OwnerParams = z.object({ ownerId: ownerIdParam });

export function bookingQueryRoutes(deps: QueryDeps): RouteDef[] {
  const { pool, clock, timeZone } = deps;
  const localNow = () => localDateTime(clock.now(), timeZone);

  return [
    defineRoute({
      method: 'get',
      path: '/transactions/{transactionId}',
      summary: 'The cart: status (NEW, BOOKED, EXPIRED, REMOVED), expiry and tickets',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      responses: {
        200: {
          description: 'The cart',
          schema: z
            .object({
              transactionId: z.uuid(),
              status: z.string(),
              expiredAt: z.string().nullable(),
              tickets: z.array(Ticket),
              /**
               * Seats this cart held until staff closed their slot (docs/product.md#closures):
               * INVALID, with the closure's reason. They hold nothing and cannot be booked.
               */
              closedTickets: z.array(
                Ticket.extend({ closedReason: z.string(), closedReasonEn: z.string().optional() }),
              ),
            })
            .openapi('Transaction'),
        },
        404: { description: 'No such cart' },
      },
      handler: async ({ params }) => ({ body: await readCart(deps, params.transactionId) }),
    }),
    defineRoute({
      method: 'get',
      path: '/transactions/{transactionId}/rooms/{roomId}/available-timeslots',
      summary:
        'Bookable slots of a room with the rules an add would fail: already in the cart, overlapping one in it, cart full, per-day maximum reached in the cart',
      tags: ['visitor'],
      access: 'public',
      params: TxParams.extend({ roomId: z.uuid('Not a valid id') }),
      query: z
        .object({ fromDate: isoDate, untilDate: isoDate, status: z.string().max(50).optional() })
        .check(untilNotBefore('fromDate', 'untilDate')),
      responses: {
        200: { description: 'Slots', schema: z.array(TimeSlot) },
        404: { description: 'No such cart or room' },
      },
      handler: async ({ params, query }) => {
        const c = await readCart(deps, params.transactionId);
        // The rules the command side would refuse an add with (the same seat rule decides there).
        const held = heldSlots(c.tickets);
        return {
          body: await visitorSlots(deps, params.roomId, query.fromDate, query.untilDate, held),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/owners/{ownerId}/tickets',
      summary: "The tickets of a booking, by the owner id of the confirmation mail's link",
      tags: ['visitor'],
      access: 'public',
      params: OwnerParams,
      responses: {
        200: { description: 'Tickets', schema: z.array(Ticket) },
        404: { description: 'Unknown or malformed owner id' },
      },
      malformedPathNotFound: 'Owner',
      handler: async ({ params }) => {
        const b = await pool.query('SELECT 1 FROM bookings WHERE owner_id = $1', [params.ownerId]);
        if (!b.rowCount) throw problems.notFound('Owner');
        const r = await pool.query<TicketRow>(
          `${TICKET_SELECT} WHERE t.owner_id = $1 ORDER BY t.date, t.start_time`,
          [params.ownerId],
        );
        const now = localNow();
        return { body: r.rows.map((x) => toTicket(x, now)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/owners/{ownerId}/tickets/{ticketId}',
      summary: 'One ticket of a booking',
      tags: ['visitor'],
      access: 'public',
      params: OwnerParams.extend({ ticketId: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'The ticket', schema: Ticket },
        404: { description: 'Unknown or malformed owner id or ticket id' },
      },
      malformedPathNotFound: 'Ticket',
      handler: async ({ params }) => {
        const r = await pool.query<TicketRow>(
          `${TICKET_SELECT} WHERE t.owner_id = $1 AND t.id = $2`,
          [params.ownerId, params.ticketId],
        );
        if (!r.rows[0]) throw problems.notFound('Ticket');
        return { body: toTicket(r.rows[0], localNow()) };
      },
    }),
  ];
}
