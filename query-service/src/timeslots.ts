import { untilNotBefore } from '@rr/contracts';
import { calendarRules, daysFromTo, type CartRuleSlot } from '@rr/domain';
import {
  addDays,
  defineRoute,
  isoDate,
  isValidLocalDate,
  problems,
  sortSpec,
  localDateTime,
  z,
  type RouteDef,
  seatsTakenLateral,
  waitlistLateral,
  planSeatsLateral,
  roomHolidayDates,
  nameKey,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { SharedAnswers } from './shared-answers.ts';
import {
  roomSeatColumns,
  SITE_WINDOW,
  seatRoom,
  slotSeatAnswer,
  heldSitesColumns,
  heldWithSites,
  type HeldSitesRow,
  staffRules,
  type RoomSeatRow,
  type SeatSlotRow,
} from './slot-seat-rule.ts';
import { orderBy, pagingQuery } from './paging.ts';
import { fetchPage, type Knex } from './sql.ts';

export const TimeSlot = z
  .object({
    id: z.uuid(),
    date: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    capacity: z.number(),
    ticketCount: z.number(),
    count: z.number(),
    roomId: z.uuid(),
    roomName: z.string(),
    roomNameEn: z
      .string()
      .optional()
      .openapi({ description: "The room name's English text; absent: roomName serves both" }),
    failedRules: z.array(z.string()),
    closedReason: z
      .string()
      .nullable()
      .openapi({ description: "The closure's reason when staff closed the slot; null: open" }),
    closedReasonEn: z.string().optional().openapi({
      description: "The closure reason's English text; absent: closedReason serves both",
    }),
  })
  .openapi('TimeSlot');
export type TimeSlot = z.infer<typeof TimeSlot>;
/**
 * One slot for staff: its taken seats apart, booked and held in carts (unexpired 15-minute holds,
 * with the end of the last one), so "3 of 60 occupied" can say how many are only held.
 */
export const AdminTimeSlot = TimeSlot.extend({
  bookedCount: z.number().openapi({ description: 'Booked tickets' }),
  heldCount: z.number().openapi({ description: 'Seats held in carts now (not booked)' }),
  heldUntil: z.string().nullable().openapi({
    description: 'When the last of these holds ends (ISO instant); null without holds',
  }),
  seatIds: z.array(z.uuid()).nullable().openapi({
    description:
      "The seats of the room's plan staff chose the slot to offer (exam places); null: every seat in service",
  }),
}).openapi('AdminTimeSlot');
export type AdminTimeSlot = z.infer<typeof AdminTimeSlot>;

const TimeSlotPage = z
  .object({ content: z.array(TimeSlot), totalCount: z.number() })
  .openapi('TimeSlotPage');

interface SlotRow {
  id: string;
  date: string;
  start_time: string;
  end_time: string;
  capacity: number;
  ticket_count: number;
  room_id: string;
  room_name: string;
  room_name_en: string | null;
  closed_reason: string | null;
  closed_reason_en: string | null;
  total?: string;
}

const toSlot = (r: SlotRow, failedRules: string[] = []): TimeSlot => ({
  id: r.id,
  date: r.date,
  startTime: r.start_time,
  endTime: r.end_time,
  capacity: r.capacity,
  ticketCount: r.ticket_count,
  count: r.ticket_count,
  roomId: r.room_id,
  roomName: r.room_name,
  ...(r.room_name_en ? { roomNameEn: r.room_name_en } : {}),
  failedRules,
  closedReason: r.closed_reason,
  ...(r.closed_reason_en ? { closedReasonEn: r.closed_reason_en } : {}),
});

const STATUS = z.enum(['OVERBOOKED', 'FULL', 'AVAILABLE']);
const STATUS_SQL: Record<z.infer<typeof STATUS>, string> = {
  OVERBOOKED: 's.ticket_count > s.capacity',
  FULL: 's.ticket_count >= s.capacity',
  AVAILABLE: 's.ticket_count < s.capacity',
};
const SORT = {
  date: 's.date',
  startTime: 's.start_time',
  capacity: 's.capacity',
  ticketCount: 's.ticket_count',
  roomName: nameKey('r.name'),
} as const;
const ListQuery = z
  .object({
    fromDate: isoDate.optional(),
    untilDate: isoDate.optional(),
    status: STATUS.optional(),
    ...pagingQuery(999, 999),
    sort: sortSpec(['date', 'startTime', 'capacity', 'ticketCount', 'roomName']).optional(),
  })
  .check(untilNotBefore('fromDate', 'untilDate'));

/**
 * A page of slots for staff, each with the rules the seat rule (seat-rule.ts) fails for a visitor
 * with an empty cart, `timeslot_not_open` included: what the visitor calendar would show of it.
 */
async function listSlots(
  deps: QueryDeps,
  q: z.output<typeof ListQuery>,
  roomId?: string,
  sites: readonly string[] | null = null,
) {
  const { pool } = deps;
  const filtered = (query: Knex.QueryBuilder) => {
    query.from('rm_time_slots as s').join('rm_rooms as r', 'r.id', 's.room_id');
    if (roomId) query.where('s.room_id', roomId);
    // A user whose roles are for some sites: their rooms' slots only.
    if (sites) query.whereIn('r.site_id', [...sites]);
    if (q.fromDate) query.where('s.date', '>=', q.fromDate);
    if (q.untilDate) query.where('s.date', '<=', q.untilDate);
    if (q.status) query.whereRaw(STATUS_SQL[q.status]);
  };
  const { rows, total } = await fetchPage<SlotRow>(
    pool,
    's.id, s.date, s.start_time, s.end_time, s.capacity, s.ticket_count, s.room_id, r.name AS room_name, r.name_en AS room_name_en, s.closed_reason, s.closed_reason_en',
    filtered,
    orderBy(
      q.sort,
      SORT,
      [
        { field: 'date', dir: 'ASC' },
        { field: 'startTime', dir: 'ASC' },
      ],
      ['s.date', 's.start_time', 's.id'],
    ),
    q,
  );
  const rules = await staffSeatRules(deps, rows);
  return {
    content: rows.map((row) => toSlot(row, rules.get(row.id) ?? [])),
    totalCount: total,
  };
}

const RoomParams = z.object({ id: z.uuid('Not a valid id') });
const SlotParams = z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') });
export const RangeQuery = z
  .object({ fromDate: isoDate, untilDate: isoDate, status: z.string().max(50).optional() })
  .check(untilNotBefore('fromDate', 'untilDate'))
  // Runs also when a date failed its own check (zod goes on after a failed pattern): only two
  // dates have a distance.
  .refine(
    (q) =>
      !isValidLocalDate(q.fromDate) ||
      !isValidLocalDate(q.untilDate) ||
      daysFromTo(q.fromDate, q.untilDate) <= 400,
    {
      path: ['untilDate'],
      message: 'At most 400 days at once',
    },
  );

/** A slot as the visitor calendar reads it: with its seats taken and its waitlist apart. */
interface VisitorSlotRow extends SlotRow, SeatSlotRow {}

/**
 * The seat rule's answer for staff (staffRules) of each of a page's slots, by slot id: their
 * seats at the clock's instant, their rooms' booking settings, and the holidays read once.
 */
async function staffSeatRules(
  deps: QueryDeps,
  slots: readonly SlotRow[],
): Promise<Map<string, string[]>> {
  if (slots.length === 0) return new Map();
  const at = deps.clock.now();
  const local = localDateTime(at, deps.timeZone);
  const r = await deps.pool.query<{
    room: Omit<RoomSeatRow, 'holidays' | 'site_window'> & { id: string };
    site_window: RoomSeatRow['site_window'];
    slots: VisitorSlotRow[];
    holidays: string[];
  }>({
    name: 'rr_staff_slot_rules',
    text: `SELECT json_build_object('id', r.id, 'open_start_type', r.open_start_type,
                    'open_start_value', r.open_start_value, 'open_end_type', r.open_end_type,
                    'open_end_value', r.open_end_value,
                    'waitlist_on', (r.services->>'waitlistOfferMinutes') IS NOT NULL) AS room,
                  ${SITE_WINDOW},
                  json_agg(json_build_object('id', s.id, 'date', s.date, 'start_time', s.start_time,
                    'end_time', s.end_time, 'capacity', s.capacity, 'closed_reason', s.closed_reason,
                    'taken', c.booked_count + c.held_count + w.offered, 'waiting', w.waiting,
                    'plan_free', p.plan_free)) AS slots,
                  ${roomHolidayDates('rm_holidays', 'r.site_id', '$3', '$4')} AS holidays
             FROM rm_time_slots s JOIN rm_rooms r ON r.id = s.room_id,
                  ${seatsTakenLateral('t.time_slot_id = s.id', '$2')} c,
                  ${waitlistLateral('$2')},
                  ${planSeatsLateral('$2')}
            WHERE s.id = ANY($1::uuid[])
            GROUP BY r.id`,
    values: [slots.map((s) => s.id), at.toISOString(), local.date, addDays(local.date, 800)],
  });
  const rules = new Map<string, string[]>();
  for (const { room, site_window, slots: roomSlots, holidays } of r.rows) {
    const seats = seatRoom(local.date, { ...room, site_window, holidays });
    for (const s of roomSlots)
      rules.set(s.id, staffRules(slotSeatAnswer(deps, local, s, seats, [])));
  }
  return rules;
}

/**
 * The room's slots for visitors with the rules an add would fail (the seat rule of the cart
 * decider, seat-rule.ts, on the read model's counts), hiding those the rule calls not open (no
 * capacity, outside the booking window). `held`: the tickets the visitor's cart holds.
 */
export async function visitorSlots(
  deps: QueryDeps,
  roomId: string,
  fromDate: string,
  untilDate: string,
  held: readonly CartRuleSlot[] = [],
): Promise<TimeSlot[]> {
  const { pool } = deps;
  const at = deps.clock.now();
  const today = localDateTime(at, deps.timeZone).date;
  // One round trip: the room's booking settings, the holidays and the slots with their seats at
  // the clock's instant.
  const rooms = [...new Set(held.flatMap((t) => t.roomId ?? []))];
  const r = await pool.query<
    RoomSeatRow & HeldSitesRow & { name: string; slots: VisitorSlotRow[] }
  >({
    // Prepared (planning took 1 ms of a 1.7 ms query): the room by key, its slots by the
    // room/date index and the holidays by date, whatever the values.
    name: 'rr_visitor_slots',
    text: `SELECT r.name, ${roomSeatColumns('$4', '$5')}, ${heldSitesColumns('$7')},
            (SELECT coalesce(json_agg(s ORDER BY s.date, s.start_time), '[]')
               FROM (SELECT s.id, s.date, s.start_time, s.end_time, s.capacity, s.ticket_count, s.room_id,
                            s.closed_reason, s.closed_reason_en, r.name AS room_name, r.name_en AS room_name_en,
                            c.booked_count + c.held_count + w.offered AS taken,
                            w.waiting, p.plan_free
                       FROM rm_time_slots s,
                            ${seatsTakenLateral('t.time_slot_id = s.id', '$6')} c,
                            ${waitlistLateral('$6')},
                            ${planSeatsLateral('$6')}
                      WHERE s.room_id = r.id AND s.date BETWEEN $2 AND $3 AND s.capacity > 0) s) AS slots
       FROM rm_rooms r WHERE r.id = $1`,
    values: [roomId, fromDate, untilDate, today, addDays(today, 800), at.toISOString(), rooms],
  });
  const room = r.rows[0];
  if (!room) throw problems.notFound('Room');
  const local = localDateTime(at, deps.timeZone);
  const seats = { ...seatRoom(local.date, room), siteId: room.site_id };
  return room.slots.flatMap((s) => {
    const answer = slotSeatAnswer(deps, local, s, seats, heldWithSites(held, room));
    return answer.open ? [toSlot(s, calendarRules(answer))] : [];
  });
}

export function timeSlotQueryRoutes(deps: QueryDeps): RouteDef[] {
  const { pool } = deps;
  // The month a crowd opens at once when a booking window opens: one query serves them while
  // nothing changed (with a cart the answer is the visitor's own, never shared).
  const sharedCalendar = new SharedAnswers<TimeSlot[]>(deps.sharedReadMs ?? 0);
  return [
    defineRoute({
      method: 'get',
      path: '/admin/rooms/timeslots',
      summary: 'Time slots of all rooms (status=OVERBOOKED: more tickets than capacity)',
      tags: ['timeslots'],
      access: ['admin', 'reports'],
      sites: 'filter',
      query: ListQuery,
      responses: { 200: { description: 'A page of slots', schema: TimeSlotPage } },
      handler: async ({ query, sites }) => ({
        body: await listSlots(deps, query, undefined, sites),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/timeslots',
      summary: 'Time slots of a room',
      tags: ['timeslots'],
      access: ['admin', 'reports'],
      sites: { path: { id: 'room' } },
      params: RoomParams,
      query: ListQuery,
      responses: { 200: { description: 'A page of slots', schema: TimeSlotPage } },
      handler: async ({ params, query }) => ({
        body: await listSlots(deps, query, params.id),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}',
      summary: 'One time slot, with its booked and held seats apart',
      tags: ['timeslots'],
      access: ['admin', 'reports'],
      sites: { path: { id: 'room', timeSlotId: 'slot' } },
      params: SlotParams,
      responses: {
        200: { description: 'The slot', schema: AdminTimeSlot },
        404: { description: 'No such slot' },
      },
      handler: async ({ params }) => {
        const at = deps.clock.now();
        const today = localDateTime(at, deps.timeZone).date;
        const r = await pool.query<
          VisitorSlotRow &
            RoomSeatRow & {
              booked_count: number;
              held_count: number;
              held_until: Date | null;
              seat_ids: string | null;
            }
        >(
          `SELECT s.id, s.date, s.start_time, s.end_time, s.capacity, s.ticket_count, s.room_id,
                  s.closed_reason, s.closed_reason_en, r.name AS room_name, r.name_en AS room_name_en,
                  c.booked_count, c.held_count, c.held_until, s.seat_ids,
                  c.booked_count + c.held_count + w.offered AS taken, w.waiting, p.plan_free,
                  ${roomSeatColumns('$4', '$5')}
             FROM rm_time_slots s JOIN rm_rooms r ON r.id = s.room_id,
                  ${seatsTakenLateral('t.time_slot_id = s.id', '$3')} c,
                  ${waitlistLateral('$3')},
                  ${planSeatsLateral('$3')}
            WHERE s.id = $1 AND s.room_id = $2`,
          [params.timeSlotId, params.id, at.toISOString(), today, addDays(today, 800)],
        );
        const row = r.rows[0];
        if (!row) throw problems.notFound('Time slot');
        // The seat rule the visitor calendar shows, for a visitor with an empty cart.
        const local = localDateTime(at, deps.timeZone);
        const answer = slotSeatAnswer(deps, local, row, seatRoom(today, row), []);
        const slot: AdminTimeSlot = {
          ...toSlot(row, staffRules(answer)),
          bookedCount: row.booked_count,
          heldCount: row.held_count,
          heldUntil: row.held_until ? row.held_until.toISOString() : null,
          seatIds: row.seat_ids === null ? null : row.seat_ids.split(','),
        };
        return { body: slot };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/rooms/{id}/booking',
      summary:
        'Bookable time slots of a room for visitors, with failed rules (timeslot_no_tickets_left)',
      tags: ['timeslots'],
      access: 'public',
      params: RoomParams,
      query: RangeQuery,
      responses: {
        200: { description: 'Slots', schema: z.array(TimeSlot) },
        404: { description: 'No such room' },
      },
      handler: async ({ params, query }) => ({
        body: await sharedCalendar.get(
          pool,
          `${params.id} ${query.fromDate} ${query.untilDate}`,
          deps.clock.now(),
          () => visitorSlots(deps, params.id, query.fromDate, query.untilDate),
        ),
      }),
    }),
  ];
}
