import { CheckInCode, normalBookingNumber } from '@rr/contracts';
import { UNDO_CHECK_IN_MINUTES } from '@rr/domain';
import {
  CHECK_IN_ROLES,
  defineRoute,
  fromContract,
  localDateTime,
  ownerIdParam,
  problems,
  qrSvg,
  z,
  type RouteDef,
  nameKey,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/** In a room with a seat plan, the seat a ticket holds (docs/product.md#seat-plans); null: none. */
const TicketSeat = z.object({ id: z.uuid(), label: z.string() }).nullable();

const CheckInTicket = z
  .object({
    id: z.uuid(),
    status: z.enum(['NEW', 'BOOKED', 'INVALID', 'CANCELLED']),
    bookingNumber: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    startTime: z.string(),
    endTime: z.string(),
    checkedInAt: z.string().nullable(),
    /** Who checked the reader in (staff user or API token name); null when not checked in. */
    checkedInBy: z.string().nullable(),
    /** Until when the check-in can be undone (checkedInAt + UNDO_CHECK_IN_MINUTES); null when not checked in. */
    undoUntil: z.string().nullable(),
    noShow: z.boolean(),
    /** The booking awaits its visitor's confirmation (confirmed addresses); absent: not. */
    awaitingConfirmation: z.literal(true).optional(),
    seat: TicketSeat,
  })
  .openapi('CheckInTicket');

const CheckInRoom = z
  .object({
    roomId: z.uuid(),
    roomName: z.string(),
    roomNameEn: z
      .string()
      .optional()
      .openapi({ description: "The room name's English text; absent: roomName serves both" }),
    checkInMinutesBefore: z.number().int(),
    noShowReleaseMinutes: z.number().int().nullable(),
    tickets: z.array(CheckInTicket),
  })
  .openapi('CheckInRoom');

const LookupTicket = z
  .object({
    id: z.uuid(),
    status: z.enum(['NEW', 'BOOKED', 'INVALID', 'CANCELLED']),
    bookingNumber: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    date: z.string().openapi({ description: 'Local date (YYYY-MM-DD)' }),
    startTime: z.string(),
    endTime: z.string(),
    roomId: z.uuid(),
    roomName: z.string(),
    roomNameEn: z
      .string()
      .optional()
      .openapi({ description: "The room name's English text; absent: roomName serves both" }),
    /** The room uses check-in. */
    checkInOffered: z.boolean(),
    checkedInAt: z.string().nullable(),
    checkedInBy: z.string().nullable(),
    noShow: z.boolean(),
    seat: TicketSeat,
  })
  .openapi('CheckInLookupTicket');

interface LookupRow {
  id: string;
  status: 'NEW' | 'BOOKED' | 'INVALID' | 'CANCELLED';
  booking_number: string | null;
  first_name: string | null;
  last_name: string | null;
  date: string;
  start_time: string;
  end_time: string;
  room_id: string;
  room_name: string | null;
  room_name_en: string | null;
  check_in: boolean | null;
  checked_in_at: Date | null;
  checked_in_by: string | null;
  no_show: boolean;
  seat_id: string | null;
  seat_label: string | null;
}

interface Row {
  id: string;
  status: 'BOOKED' | 'INVALID';
  booking_number: string | null;
  first_name: string | null;
  last_name: string | null;
  start_time: string;
  end_time: string;
  checked_in_at: Date | null;
  checked_in_by: string | null;
  no_show: boolean;
  seat_id: string | null;
  seat_label: string | null;
  awaiting: boolean | null;
  room_id: string;
  room_name: string;
  room_name_en: string | null;
  check_in: number;
  release: number | null;
}

const seatOf = (x: { seat_id: string | null; seat_label: string | null }) =>
  x.seat_id && x.seat_label ? { id: x.seat_id, label: x.seat_label } : null;

/** The day's rows, one per ticket (or one without a ticket for a room without any), per room. */
function roomsOf(rows: Row[]): z.infer<typeof CheckInRoom>[] {
  const rooms = new Map<string, z.infer<typeof CheckInRoom>>();
  for (const x of rows) {
    let room = rooms.get(x.room_id);
    if (!room) {
      room = {
        roomId: x.room_id,
        roomName: x.room_name,
        ...(x.room_name_en ? { roomNameEn: x.room_name_en } : {}),
        checkInMinutesBefore: x.check_in,
        noShowReleaseMinutes: x.release,
        tickets: [],
      };
      rooms.set(x.room_id, room);
    }
    if (x.id === null) continue;
    room.tickets.push({
      id: x.id,
      status: x.status,
      bookingNumber: x.booking_number,
      firstName: x.first_name,
      lastName: x.last_name,
      startTime: x.start_time,
      endTime: x.end_time,
      checkedInAt: x.checked_in_at?.toISOString() ?? null,
      checkedInBy: x.checked_in_by,
      undoUntil: x.checked_in_at
        ? new Date(x.checked_in_at.getTime() + UNDO_CHECK_IN_MINUTES * 60_000).toISOString()
        : null,
      noShow: x.no_show,
      ...(x.awaiting ? { awaitingConfirmation: true as const } : {}),
      seat: seatOf(x),
    });
  }
  return [...rooms.values()];
}

/**
 * Check-in: the check-in screen's list (today's booked and released tickets of the
 * rooms with check-in, per room, in the manual order) and the QR code of a visitor's ticket.
 */
export function checkInQueryRoutes({ pool, clock, timeZone, checkInCodes }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/check-in',
      summary:
        "Today's booked (and no-show released) tickets of the rooms with check-in, per room, for the check-in screen",
      tags: ['check-in'],
      // Readable by the reports role as every staff list is (it may not check in).
      access: [...CHECK_IN_ROLES, 'reports'],
      // A user whose roles are for some sites: their rooms only.
      sites: 'filter',
      responses: {
        200: {
          description: 'Rooms with their tickets of today',
          schema: z.object({ date: z.string(), rooms: z.array(CheckInRoom) }).openapi('CheckInDay'),
        },
      },
      handler: async ({ sites }) => {
        const today = localDateTime(clock.now(), timeZone).date;
        const r = await pool.query<Row>(
          `SELECT t.id, t.status, t.booking_number, p.first_name, p.last_name, t.start_time, t.end_time,
                  t.checked_in_at, t.checked_in_by, t.no_show, t.seat_id, t.seat_label,
                  r.id AS room_id, r.name AS room_name,
                  r.name_en AS room_name_en, t.status = 'BOOKED' AND t.confirm_by IS NOT NULL AS awaiting,
                  (r.services->>'checkInMinutesBefore')::int AS check_in,
                  (r.services->>'noShowReleaseMinutes')::int AS release
             FROM rm_rooms r
             LEFT JOIN rm_tickets t ON t.room_id = r.id AND t.date = $1
                                   AND (t.status = 'BOOKED' OR (t.status = 'INVALID' AND t.no_show))
             LEFT JOIN personal_data p ON p.owner_id = t.owner_id
            WHERE r.services->>'checkInMinutesBefore' IS NOT NULL
              AND ($2::uuid[] IS NULL OR r.site_id = ANY($2::uuid[]))
            ORDER BY r.sort_order, ${nameKey('r.name')}, r.id, t.start_time,
                     ${nameKey("coalesce(p.last_name, '')")}, ${nameKey("coalesce(p.first_name, '')")}, t.id`,
          [today, sites],
        );
        return { body: { date: today, rooms: roomsOf(r.rows) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/check-in/lookup',
      summary:
        'What a scanned or typed code names, on any day: the ticket of a QR reference or the tickets of a booking number, with date, room and check-in (when and by whom), so the check-in screen can explain a code it could not check in',
      tags: ['check-in'],
      access: [...CHECK_IN_ROLES, 'reports'],
      // A user whose roles are for some sites: a code of another site's rooms names nothing.
      sites: 'filter',
      query: z.object({ code: fromContract(CheckInCode) }),
      responses: {
        200: {
          description: 'The tickets the code names, by date and start time',
          schema: z.object({ tickets: z.array(LookupTicket) }).openapi('CheckInLookup'),
        },
        404: { description: 'The code names no ticket' },
      },
      handler: async ({ query, sites }) => {
        const ticketId = checkInCodes.ticketOf(query.code);
        const r = await pool.query<LookupRow>(
          `SELECT t.id, t.status, t.booking_number, p.first_name, p.last_name,
                  to_char(t.date, 'YYYY-MM-DD') AS date, t.start_time, t.end_time, t.room_id,
                  r.name AS room_name, r.name_en AS room_name_en,
                  (r.services->>'checkInMinutesBefore') IS NOT NULL AS check_in,
                  t.checked_in_at, t.checked_in_by, t.no_show, t.seat_id, t.seat_label
             FROM rm_tickets t
             LEFT JOIN rm_rooms r ON r.id = t.room_id
             LEFT JOIN personal_data p ON p.owner_id = t.owner_id
            WHERE ${ticketId ? 't.id = $1' : 'upper(t.booking_number) = $1'}
              AND t.status <> 'NEW'
              AND ($2::uuid[] IS NULL OR r.site_id = ANY($2::uuid[]))
            ORDER BY t.date, t.start_time, t.id
            LIMIT 100`,
          [ticketId ?? normalBookingNumber(query.code), sites],
        );
        if (!r.rowCount) throw problems.notFound('Ticket');
        return {
          body: {
            tickets: r.rows.map((x) => ({
              id: x.id,
              status: x.status,
              bookingNumber: x.booking_number,
              firstName: x.first_name,
              lastName: x.last_name,
              date: x.date,
              startTime: x.start_time,
              endTime: x.end_time,
              roomId: x.room_id,
              roomName: x.room_name ?? '',
              ...(x.room_name_en ? { roomNameEn: x.room_name_en } : {}),
              checkInOffered: x.check_in ?? false,
              checkedInAt: x.checked_in_at?.toISOString() ?? null,
              checkedInBy: x.checked_in_by,
              noShow: x.no_show,
              seat: seatOf(x),
            })),
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/owners/{ownerId}/tickets/{ticketId}/check-in.svg',
      summary:
        "The QR code of a booked ticket's check-in reference (rooms with check-in), by the owner id of the confirmation link",
      tags: ['visitor'],
      access: 'public',
      params: z.object({
        ownerId: ownerIdParam,
        ticketId: z.uuid('Not a valid id'),
      }),
      responses: {
        200: { description: 'SVG', schema: z.string(), contentType: 'image/svg+xml' },
        404: {
          description:
            'No such booked ticket of this owner in a room with check-in (also for malformed ids)',
        },
      },
      malformedPathNotFound: 'Ticket',
      handler: async ({ params, res }) => {
        const r = await pool.query(
          `SELECT 1 FROM rm_tickets t JOIN rm_rooms r ON r.id = t.room_id
            WHERE t.id = $1 AND t.owner_id = $2 AND t.status = 'BOOKED'
              AND r.services->>'checkInMinutesBefore' IS NOT NULL`,
          [params.ticketId, params.ownerId],
        );
        if (!r.rowCount) throw problems.notFound('Ticket');
        res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
        res.setHeader('Cache-Control', 'private, max-age=3600');
        res.status(200).send(await qrSvg(checkInCodes.codeOf(params.ticketId)));
      },
    }),
  ];
}
