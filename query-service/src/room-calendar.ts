import { datesBetween, roomBookableOnlineFrom, roomBookingWindow } from '@rr/domain';
import {
  addDays,
  defineRoute,
  isHolidayOfSite,
  localDateTime,
  problems,
  z,
  type RouteDef,
  nameKey,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { SharedAnswers } from './shared-answers.ts';
import { roomSeatColumns, type RoomSeatRow } from './slot-seat-rule.ts';
import { RangeQuery } from './timeslots.ts';

export const RoomCalendar = z
  .object({
    /** The first and last day of the room's booking window (docs/product.md#booking-window). */
    bookableFrom: z.string(),
    bookableUntil: z.string(),
    /**
     * The room's holidays in the asked range (the whole system's and its site's), by date and
     * name (a day can have more than one), with the name's English text when staff gave one.
     */
    holidays: z.array(
      z.object({ date: z.string(), name: z.string(), nameEn: z.string().optional() }),
    ),
    /**
     * The closures of the range: per day each reason the room's slots were closed with
     * (docs/product.md#closures), so a closed day says why.
     */
    closures: z.array(
      z.object({ date: z.string(), reason: z.string(), reasonEn: z.string().optional() }),
    ),
    /** The days of the range on which the room has a slot not closed (a holiday kept open). */
    openDays: z.array(z.string()),
    /**
     * Each day of the range after the booking window, with the day it can be booked online from
     * (the one rule the live display says it by too); none when no window ever holds it.
     */
    laterDays: z.array(z.object({ date: z.string(), bookableFrom: z.string() })),
  })
  .openapi('RoomCalendar');
export type RoomCalendar = z.infer<typeof RoomCalendar>;

/** The room's booking window on the clock's day and the holidays of the range, by name. */
async function roomCalendar(
  deps: QueryDeps,
  roomId: string,
  fromDate: string,
  untilDate: string,
  now: Date,
): Promise<RoomCalendar> {
  const { date: today } = localDateTime(now, deps.timeZone);
  const r = await deps.pool.query<
    RoomSeatRow & {
      named_holidays: { date: string; name: string; nameEn?: string }[];
      closures: { date: string; reason: string; reasonEn?: string }[];
      open_days: string[];
    }
  >(
    `SELECT ${roomSeatColumns('$2', '$3')},
            (SELECT coalesce(json_agg(json_strip_nulls(json_build_object('date', h.date::text,
                                        'name', h.name, 'nameEn', h.name_en))
                                      ORDER BY h.date, ${nameKey('h.name')}), '[]')
               FROM rm_holidays h WHERE h.date BETWEEN $4 AND $5
                AND ${isHolidayOfSite('h', 'r.site_id')}) AS named_holidays,
            (SELECT coalesce(json_agg(json_strip_nulls(json_build_object('date', c.date,
                                        'reason', c.reason, 'reasonEn', c.reason_en))
                                      ORDER BY c.date, c.reason), '[]')
               FROM (SELECT DISTINCT s.date::text AS date, s.closed_reason AS reason,
                            s.closed_reason_en AS reason_en
                       FROM rm_time_slots s
                      WHERE s.room_id = r.id AND s.date BETWEEN $4 AND $5
                        AND s.closed_reason IS NOT NULL) c) AS closures,
            ARRAY(SELECT DISTINCT s.date::text FROM rm_time_slots s
                   WHERE s.room_id = r.id AND s.date BETWEEN $4 AND $5 AND s.capacity > 0
                     AND s.closed_reason IS NULL ORDER BY 1) AS open_days
       FROM rm_rooms r WHERE r.id = $1`,
    [roomId, today, addDays(today, 800), fromDate, untilDate],
  );
  const room = r.rows[0];
  if (!room) throw problems.notFound('Room');
  const window = roomBookingWindow(today, room);
  const laterDays = datesBetween(
    fromDate > window.until ? fromDate : addDays(window.until, 1),
    untilDate,
  ).flatMap((date) => {
    const bookableFrom = roomBookableOnlineFrom(date, today, room);
    return bookableFrom ? [{ date, bookableFrom }] : [];
  });
  return {
    bookableFrom: window.from,
    bookableUntil: window.until,
    holidays: room.named_holidays,
    closures: room.closures,
    openDays: room.open_days,
    laterDays,
  };
}

/**
 * What the visitor's month calendar says of days without slots: the holidays by name, and the
 * days after the booking window as not yet bookable. The window is the one the seat rule uses.
 */
export function roomCalendarQueryRoutes(deps: QueryDeps): RouteDef[] {
  // Asked with the room's slots by every visitor who opens the room: shared like them.
  const shared = new SharedAnswers<RoomCalendar>(deps.sharedReadMs ?? 0);
  return [
    defineRoute({
      method: 'get',
      path: '/rooms/{id}/calendar',
      summary: "A room's booking window and the holidays of a range, for the visitor's calendar",
      tags: ['visitor'],
      access: 'public',
      params: z.object({ id: z.uuid('Not a valid id') }),
      query: RangeQuery,
      responses: {
        200: { description: 'Booking window and holidays', schema: RoomCalendar },
        404: { description: 'No such room' },
      },
      handler: async ({ params, query }) => {
        const now = deps.clock.now();
        return {
          body: await shared.get(
            deps.pool,
            `${params.id} ${query.fromDate} ${query.untilDate}`,
            now,
            () => roomCalendar(deps, params.id, query.fromDate, query.untilDate, now),
          ),
        };
      },
    }),
  ];
}
