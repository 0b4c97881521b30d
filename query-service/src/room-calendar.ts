import { roomBookingWindow } from '@rr/domain';
import { addDays, defineRoute, localDateTime, problems, z, type RouteDef } from '@rr/platform';
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
     * The holidays in the asked range, by date and name (a day can have more than one), with the
     * name's English text when staff gave one.
     */
    holidays: z.array(
      z.object({ date: z.string(), name: z.string(), nameEn: z.string().optional() }),
    ),
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
    RoomSeatRow & { named_holidays: { date: string; name: string; nameEn?: string }[] }
  >(
    `SELECT ${roomSeatColumns('$2', '$3')},
            (SELECT coalesce(json_agg(json_strip_nulls(json_build_object('date', h.date::text,
                                        'name', h.name, 'nameEn', h.name_en))
                                      ORDER BY h.date, lower(h.name)), '[]')
               FROM rm_holidays h WHERE h.date BETWEEN $4 AND $5) AS named_holidays
       FROM rm_rooms r WHERE r.id = $1`,
    [roomId, today, addDays(today, 800), fromDate, untilDate],
  );
  const room = r.rows[0];
  if (!room) throw problems.notFound('Room');
  const window = roomBookingWindow(today, room);
  return { bookableFrom: window.from, bookableUntil: window.until, holidays: room.named_holidays };
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
