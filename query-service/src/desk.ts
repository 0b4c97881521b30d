import { SEAT_ATTRIBUTES, type SeatAttribute } from '@rr/contracts/seats';
import { hasStarted, seatsForCarts } from '@rr/domain';
import {
  defineRoute,
  heldSeatIds,
  outOfServiceSql,
  localDateTime,
  STAFF_ROLES,
  z,
  type RouteDef,
  seatsTakenLateral,
  waitlistLateral,
  nameKey,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/**
 * The desk's day: what the staff dashboard opens on. Per room the slot running now and the next
 * one of today with their counts, the day's check-in figures and its alerts (slots with more
 * tickets than seats). Read models only; "today" and "now" are the clock's, in the library's
 * time zone. No personal data.
 */
const DeskSlotSeatCounts = z
  .object({
    free: z.number().int().openapi({
      description: 'Seats of the plan in service on the day and held by no ticket, hold or offer',
    }),
    byAttribute: z
      .array(z.object({ attribute: z.enum(SEAT_ATTRIBUTES), free: z.number().int() }))
      .openapi({
        description:
          "Per attribute some seat of the plan has (in the attributes' order), its free seats",
      }),
  })
  .openapi('DeskSlotSeatCounts');

const DeskSlot = z
  .object({
    id: z.uuid(),
    startTime: z.string().openapi({ description: 'Local time (HH:mm)' }),
    endTime: z.string().openapi({ description: 'Local time (HH:mm)' }),
    capacity: z.number().int(),
    booked: z.number().int().openapi({ description: 'Booked tickets (checked in or not)' }),
    checkedIn: z.number().int().openapi({ description: 'Booked tickets checked in' }),
    held: z.number().int().openapi({ description: 'Seats held in carts whose hold has not ended' }),
    free: z.number().int().openapi({
      description:
        'Seats a visitor may still take now (capacity less bookings, holds, offers and the waitlist’s claims; never below 0)',
    }),
    waiting: z.number().int().openapi({ description: 'People on the waitlist' }),
    seats: DeskSlotSeatCounts.optional().openapi({
      description: 'In a room with a seat plan, its seats free now, by attribute; absent: no plan',
    }),
    awaitingConfirmation: z.number().int().optional().openapi({
      description:
        'Of the booked tickets, those awaiting their visitor’s confirmation (confirmed addresses); absent: none',
    }),
  })
  .openapi('DeskSlot');
type DeskSlot = z.infer<typeof DeskSlot>;

const DeskRoom = z
  .object({
    id: z.uuid(),
    name: z.string(),
    nameEn: z
      .string()
      .optional()
      .openapi({ description: "The name's English text; absent: the name serves both languages" }),
    checkIn: z.boolean().openapi({ description: 'The room uses check-in' }),
    current: z.union([DeskSlot, z.null()]).openapi({ description: 'The slot running now' }),
    next: z.union([DeskSlot, z.null()]).openapi({ description: "Today's next slot to start" }),
  })
  .openapi('DeskRoom');

const DeskAlert = z
  .object({
    kind: z.enum(['overbooked']),
    timeSlotId: z.uuid(),
    roomId: z.uuid(),
    roomName: z.string(),
    roomNameEn: z.string().optional(),
    startTime: z.string(),
    endTime: z.string(),
    capacity: z.number().int(),
    tickets: z.number().int(),
  })
  .openapi('DeskAlert');

export const DeskDay = z
  .object({
    date: z.string().openapi({ description: "The library's date now (YYYY-MM-DD, TIME_ZONE)" }),
    time: z.string().openapi({ description: "The library's time now (HH:mm, TIME_ZONE)" }),
    rooms: z.array(DeskRoom),
    checkIn: z
      .union([
        z.object({
          booked: z.number().int().openapi({ description: "Today's booked tickets" }),
          checkedIn: z.number().int(),
          noShows: z.number().int().openapi({ description: 'Released as no-shows today' }),
        }),
        z.null(),
      ])
      .openapi({ description: "Today's tickets of the rooms with check-in; null: none has it" }),
    alerts: z.array(DeskAlert),
  })
  .openapi('DeskDay');
export type DeskDay = z.infer<typeof DeskDay>;

interface SlotJson {
  id: string;
  start_time: string;
  end_time: string;
  capacity: number;
  ticket_count: number;
  booked: number;
  checked_in: number;
  awaiting: number;
  held: number;
  offered: number;
  /** Entries claiming a freed seat (the seat rule's); in_line: everyone waiting. */
  waiting: number;
  in_line: number;
  /** The plan's seats (attributes, free now); empty: the room has no plan. */
  plan: [SeatAttribute[], boolean][];
}

interface RoomRow {
  id: string;
  name: string;
  name_en: string | null;
  check_in: boolean;
  waitlist_on: boolean;
  no_shows: number;
  slots: SlotJson[];
}

/**
 * Every room with its slots of today (`$1`), their counts at the instant `$2`; the rooms of the
 * sites `$3` only, unless it is null (a user whose roles are for some sites).
 */
const DESK_SQL = `
  SELECT r.id, r.name, r.name_en,
         (r.services->>'checkInMinutesBefore') IS NOT NULL AS check_in,
         (r.services->>'waitlistOfferMinutes') IS NOT NULL AS waitlist_on,
         (SELECT count(*)::int FROM rm_tickets n
           WHERE n.room_id = r.id AND n.date = $1 AND n.status = 'INVALID' AND n.no_show) AS no_shows,
         (SELECT coalesce(json_agg(s ORDER BY s.start_time, s.id), '[]')
            FROM (SELECT s.id, s.start_time, s.end_time, s.capacity, s.ticket_count,
                         c.booked_count AS booked, c.held_count AS held, k.checked_in, k.awaiting,
                         w.offered, w.waiting, w.in_line, p.plan
                    FROM rm_time_slots s,
                         ${seatsTakenLateral('t.time_slot_id = s.id', '$2')} c,
                         LATERAL (SELECT count(*) FILTER (WHERE k.checked_in_at IS NOT NULL)::int AS checked_in,
                                         count(*) FILTER (WHERE k.confirm_by IS NOT NULL)::int AS awaiting
                                    FROM rm_tickets k
                                   WHERE k.time_slot_id = s.id AND k.status = 'BOOKED') k,
                         ${waitlistLateral('$2')},
                         -- The plan's seats with their attributes, each free or not now.
                         LATERAL (SELECT coalesce(json_agg(json_build_array(st.attributes,
                                           NOT ${outOfServiceSql} AND st.id NOT IN
                                             (SELECT h.seat_id FROM ${heldSeatIds('$2')} h(seat_id)))
                                           ORDER BY st.position), '[]') AS plan
                                    FROM rm_seats st WHERE st.room_id = s.room_id) p
                   WHERE s.room_id = r.id AND s.date = $1) s) AS slots
    FROM rm_rooms r
   WHERE $3::uuid[] IS NULL OR r.site_id = ANY($3::uuid[])
   ORDER BY r.sort_order, ${nameKey('r.name')}, r.id`;

/** A plan's free seats, and per attribute some seat has, its free seats. */
function seatCounts(plan: SlotJson['plan']): z.infer<typeof DeskSlotSeatCounts> {
  const free = new Map<SeatAttribute, number>();
  for (const [attributes, isFree] of plan)
    for (const attribute of attributes) free.set(attribute, (free.get(attribute) ?? 0) + +isFree);
  return {
    free: plan.filter(([, isFree]) => isFree).length,
    byAttribute: SEAT_ATTRIBUTES.filter((a) => free.has(a)).map((attribute) => ({
      attribute,
      free: free.get(attribute) ?? 0,
    })),
  };
}

/** The desk's day at the clock's instant, in the library's time zone. */
export async function deskDayAt(
  deps: QueryDeps,
  sites: readonly string[] | null = null,
): Promise<DeskDay> {
  const now = deps.clock.now();
  const { date, time } = localDateTime(now, deps.timeZone);
  const r = await deps.pool.query<RoomRow>({
    name: 'rr_desk_day',
    text: DESK_SQL,
    values: [date, now.toISOString(), sites],
  });
  const at = { today: date, time };
  const alerts: DeskDay['alerts'] = [];
  let checkIn: DeskDay['checkIn'] = null;
  const rooms = r.rows.map((room) => {
    const slots = room.slots.map((s): DeskSlot => ({
      id: s.id,
      startTime: s.start_time,
      endTime: s.end_time,
      capacity: s.capacity,
      booked: s.booked,
      checkedIn: s.checked_in,
      held: s.held,
      free: seatsForCarts({
        capacity: s.capacity,
        taken: s.booked + s.held + s.offered,
        waiting: s.waiting,
        waitlistOn: room.waitlist_on,
        started: hasStarted({ date, startTime: s.start_time }, at),
      }),
      waiting: s.in_line,
      ...(s.plan.length ? { seats: seatCounts(s.plan) } : {}),
      ...(s.awaiting > 0 ? { awaitingConfirmation: s.awaiting } : {}),
    }));
    for (const s of room.slots)
      // The overbooked list's condition (more tickets than seats), for today.
      if (s.ticket_count > s.capacity)
        alerts.push({
          kind: 'overbooked',
          timeSlotId: s.id,
          roomId: room.id,
          roomName: room.name,
          ...(room.name_en ? { roomNameEn: room.name_en } : {}),
          startTime: s.start_time,
          endTime: s.end_time,
          capacity: s.capacity,
          tickets: s.ticket_count,
        });
    if (room.check_in) {
      checkIn ??= { booked: 0, checkedIn: 0, noShows: 0 };
      for (const s of slots) {
        checkIn.booked += s.booked;
        checkIn.checkedIn += s.checkedIn;
      }
      checkIn.noShows += room.no_shows;
    }
    return {
      id: room.id,
      name: room.name,
      ...(room.name_en ? { nameEn: room.name_en } : {}),
      checkIn: room.check_in,
      current: slots.find((s) => s.startTime <= time && time < s.endTime) ?? null,
      next: slots.find((s) => s.startTime > time) ?? null,
    };
  });
  alerts.sort((a, b) => a.startTime.localeCompare(b.startTime));
  return { date, time, rooms, checkIn, alerts };
}

export function deskQueryRoutes(deps: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/day',
      summary:
        "The desk's day for the staff dashboard: per room the current and next slot with booked, checked-in, held, free and waiting counts; today's check-in figures; today's overbooked slots",
      tags: ['staff'],
      access: [...STAFF_ROLES],
      // A user whose roles are for some sites: their rooms only.
      sites: 'filter',
      responses: { 200: { description: 'Today at the desk', schema: DeskDay } },
      handler: async ({ sites }) => ({ body: await deskDayAt(deps, sites) }),
    }),
  ];
}
