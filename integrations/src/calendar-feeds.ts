import type { Response } from 'express';
import { API_TOKEN_SECRET_PATTERN } from '@rr/contracts';
import {
  addDays,
  defineRoute,
  entryRevision,
  ownerIdParam,
  problems,
  todayIn,
  writeCalendar,
  z,
  type Clock,
  type Pool,
  type RouteDef,
  seatsTakenLateral,
} from '@rr/platform';
import { chainFirstsSql } from './ticket-chain.ts';

/**
 * Calendar feeds (iCalendar, `text/calendar`) a calendar application subscribes to: a visitor's
 * booked tickets, and a room's time slots with their booked and free seats for staff. Times are
 * local times of the library's TIME_ZONE with its VTIMEZONE, so every application shows the
 * slot's own hours. Event UIDs are the ticket's (as in the mails' .ics) or the slot's id, so an
 * application updates its entries instead of adding new ones.
 */

/** The days of a room's feed: a month back, a year ahead (the longest booking window fits). */
export const ROOM_FEED_DAYS_BACK = 30;
export const ROOM_FEED_DAYS_AHEAD = 366;

/** Answers a feed; calendar applications poll it, so it is revalidated on every request. */
function sendCalendar(res: Response, filename: string, text: string): void {
  res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
  res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
  res.setHeader('Cache-Control', 'private, no-cache');
  res.status(200).send(text);
}

const texts = {
  de: { number: 'Buchungsnummer', calendar: 'Lesesaal-Reservierung', seat: 'Platz' },
  en: { number: 'Booking number', calendar: 'Reading room reservation', seat: 'Seat' },
};

export interface CalendarFeedDeps {
  /** The read models' database (a streaming replica where there is one). */
  pool: Pool;
  clock: Clock;
  /** The library's time zone (TIME_ZONE): the entries' local times. */
  timeZone: string;
}

/**
 * The seats of a slot's booked tickets in the room's feed: "; seats A1, A3" (and "1 without a
 * seat" beside them); nothing where no booked ticket holds a seat (a room without a plan).
 */
function seatsText(s: { seats: string[]; seatless: number }): string {
  if (s.seats.length === 0) return '';
  const without = s.seatless > 0 ? `, ${s.seatless} without a seat` : '';
  return `; seats ${s.seats.join(', ')}${without}`;
}

/**
 * A room's slots from `from` to `until` with their booked and held tickets at `now`, and each
 * booked ticket's seat in the plan's order (docs/product.md#seat-plans) with how many booked
 * tickets hold none (a room without a plan; staff's overbooking).
 */
async function roomFeedSlots(pool: Pool, roomId: string, from: string, until: string, now: Date) {
  const r = await pool.query<{
    id: string;
    date: string;
    start_time: string;
    end_time: string;
    capacity: number;
    booked_count: number;
    held_count: number;
    seats: string[];
    seatless: number;
  }>(
    `SELECT s.id, s.date, s.start_time, s.end_time, s.capacity, c.booked_count, c.held_count,
            coalesce(b.seats, '{}') AS seats, coalesce(b.seatless, 0)::int AS seatless
       FROM rm_time_slots s
      CROSS JOIN ${seatsTakenLateral('t.time_slot_id = s.id', '$4')} c
      LEFT JOIN LATERAL (
             SELECT array_agg(t.seat_label ORDER BY p.position, t.seat_label)
                      FILTER (WHERE t.seat_label IS NOT NULL) AS seats,
                    count(*) FILTER (WHERE t.seat_label IS NULL) AS seatless
               FROM rm_tickets t
               LEFT JOIN rm_seats p ON p.room_id = t.room_id AND p.id = t.seat_id
              WHERE t.time_slot_id = s.id AND t.status = 'BOOKED') b ON true
      WHERE s.room_id = $1 AND s.date BETWEEN $2 AND $3
      ORDER BY s.date, s.start_time, s.id`,
    [roomId, from, until, now.toISOString()],
  );
  return r.rows;
}

/** The calendar feeds' routes: reads of the read models, served beside the query routes. */

export function calendarFeedRoutes(deps: CalendarFeedDeps): RouteDef[] {
  const { pool, clock, timeZone } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/owners/{ownerId}/tickets.ics',
      summary:
        "A visitor's booked tickets as a calendar feed, by the owner id of the confirmation mail's link",
      tags: ['visitor'],
      access: 'public',
      params: z.object({ ownerId: ownerIdParam }),
      responses: {
        200: { description: 'iCalendar', schema: z.string(), contentType: 'text/calendar' },
        404: { description: 'Unknown or malformed owner id, or its personal data erased' },
      },
      malformedPathNotFound: 'Owner',
      handler: async ({ params, res }) => {
        // The feed goes with the booking's personal data: once erased, the owner is unknown here.
        const b = await pool.query<{ booking_number: string; language: 'de' | 'en' }>(
          `SELECT b.booking_number, b.language FROM bookings b
             JOIN personal_data p ON p.owner_id = b.owner_id WHERE b.owner_id = $1`,
          [params.ownerId],
        );
        const booking = b.rows[0];
        if (!booking) throw problems.notFound('Owner');
        const t = texts[booking.language] ?? texts.de;
        // Each appointment under the UID the booking's mails gave it: a moved ticket keeps the
        // UID of the ticket it replaced (the first of its chain) with one revision more per move
        // (docs/product.md#rebooking), so a subscribed calendar moves it rather than adding one,
        // and one more per seat change of the chain's tickets (`ticket_state`): entryRevision, as
        // the mails count.
        const r = await pool.query<{
          id: string;
          moves: number;
          seat_changes: number;
          date: string;
          start_time: string;
          end_time: string;
          room_name: string | null;
          seat_label: string | null;
        }>(
          `WITH RECURSIVE ${chainFirstsSql(`t.status = 'BOOKED'`)}
           SELECT e.first_id AS id, e.moves,
                  (SELECT coalesce(sum(s.seat_changes), 0)::int
                     FROM chain_back b JOIN ticket_state s ON s.ticket_id = b.entry_id
                    WHERE b.ticket_id = e.ticket_id) AS seat_changes,
                  t.date, t.start_time, t.end_time, t.seat_label,
                  CASE WHEN $2 = 'en' THEN coalesce(r.name_en, r.name) ELSE r.name END AS room_name
             FROM chain_firsts e JOIN rm_tickets t ON t.id = e.ticket_id
             LEFT JOIN rm_rooms r ON r.id = t.room_id
            ORDER BY t.date, t.start_time, t.id`,
          [params.ownerId, booking.language],
        );
        const text = writeCalendar({
          name: `${t.calendar} ${booking.booking_number}`,
          timeZone,
          stamp: clock.now(),
          entries: r.rows.map((x) => ({
            id: x.id,
            sequence: entryRevision({ moves: x.moves, seatChanges: x.seat_changes }),
            date: x.date,
            startTime: x.start_time,
            endTime: x.end_time,
            summary: x.room_name ?? '',
            // The seat of the room's plan (docs/product.md#seat-plans), where the ticket has one.
            location: [x.room_name ?? '', x.seat_label ? `${t.seat} ${x.seat_label}` : '']
              .filter(Boolean)
              .join(', '),
            description: `${t.number}: ${booking.booking_number}`,
          })),
        });
        sendCalendar(res, 'reservation.ics', text);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/calendar.ics',
      summary: `A room's time slots with booked and free seats as a calendar feed (${ROOM_FEED_DAYS_BACK} days back, ${ROOM_FEED_DAYS_AHEAD} ahead); also with ?token= of an API token with the reports role`,
      tags: ['rooms'],
      access: ['admin', 'reports'],
      sites: { path: { id: 'room' } },
      params: z.object({ id: z.uuid('Not a valid id') }),
      query: z.object({
        token: z.string().regex(API_TOKEN_SECRET_PATTERN).optional().openapi({
          description:
            'An API token (rr_…) with the reports role, for calendar applications that send no header; it reads this feed only',
        }),
      }),
      responses: {
        200: { description: 'iCalendar', schema: z.string(), contentType: 'text/calendar' },
        404: { description: 'No such room' },
      },
      handler: async ({ params, res }) => {
        const room = await pool.query<{ name: string }>('SELECT name FROM rm_rooms WHERE id = $1', [
          params.id,
        ]);
        const name = room.rows[0]?.name;
        if (name === undefined) throw problems.notFound('Room');
        const now = clock.now();
        const today = todayIn(now, timeZone);
        const slots = await roomFeedSlots(
          pool,
          params.id,
          addDays(today, -ROOM_FEED_DAYS_BACK),
          addDays(today, ROOM_FEED_DAYS_AHEAD),
          now,
        );
        const text = writeCalendar({
          name,
          timeZone,
          stamp: now,
          entries: slots.map((s) => {
            const free = Math.max(0, s.capacity - s.booked_count - s.held_count);
            return {
              id: s.id,
              date: s.date,
              startTime: s.start_time,
              endTime: s.end_time,
              summary: `${name}: ${s.booked_count} booked, ${free} free`,
              location: name,
              description: `Capacity ${s.capacity}, booked ${s.booked_count}, free ${free}${seatsText(s)}`,
            };
          }),
        });
        sendCalendar(res, 'room.ics', text);
      },
    }),
  ];
}
