import { randomUUID } from 'node:crypto';
import type { Actor } from '@rr/events';
import { isCancelable, refuse, refuseLongClosure, type LocalDate } from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { runTimeSlotCommand } from '../timeslots/stream.ts';
import { cancelTickets } from '../booking/cancel.ts';

/** A closure as staff ask for it (docs/product.md#closures). */
export interface Closure {
  /** The rooms to close; absent: every room. */
  roomIds?: readonly string[] | undefined;
  fromDate: LocalDate;
  untilDate: LocalDate;
  reason: string;
  /** The reason's English text; absent: the reason serves both languages. */
  reasonEn?: string | undefined;
  cancelBookings: boolean;
}

/**
 * The rooms a closure is about, checked before anything is written: a range longer than
 * CLOSURE_MAX_DAYS or a room that does not exist refuses the whole closure.
 */
async function closureRooms(
  deps: CommandDeps,
  closure: Closure,
  sites: readonly string[] | null,
): Promise<string[]> {
  const { fromDate, untilDate } = closure;
  refuseLongClosure(fromDate, untilDate, deps.closureMaxDays);
  // A staff member of some sites closes her sites' rooms only (every room: all of hers).
  const rooms = await deps.pool.query<{ id: string }>(
    `SELECT room_id::text AS id FROM room_state
      WHERE $1::uuid[] IS NULL OR site_id = ANY($1::uuid[]) ORDER BY sort_order, room_id`,
    [sites],
  );
  const known = rooms.rows.map((r) => r.id);
  if (!closure.roomIds) return known;
  const unknown = closure.roomIds.filter((id) => !known.includes(id));
  if (unknown.length)
    throw refuse.field({ field: 'roomIds', rule: 'unknown', message: 'No such room' });
  return [...new Set(closure.roomIds)];
}

/**
 * The booked tickets of the rooms' slots in the range that can still be cancelled (their slot has
 * not started), by owner: a closure of today leaves the tickets of slots already begun.
 */
async function cancelableTickets(
  deps: CommandDeps,
  roomIds: readonly string[],
  closure: Closure,
): Promise<Map<string, string[]>> {
  const r = await deps.pool.query<{
    ticket_id: string;
    owner_id: string;
    status: string;
    date: string;
    start_min: number;
  }>(
    `SELECT t.ticket_id::text, t.owner_id, t.status, to_char(g.date, 'YYYY-MM-DD') AS date, g.start_min
       FROM timeslot_guard g JOIN ticket_state t ON t.time_slot_id = g.time_slot_id
      WHERE g.room_id = ANY($1::uuid[]) AND g.date BETWEEN $2 AND $3
        AND t.status = 'BOOKED' AND t.owner_id IS NOT NULL
      ORDER BY t.owner_id, t.ticket_id`,
    [roomIds, closure.fromDate, closure.untilDate],
  );
  const { today, time } = decisionTime(deps);
  const byOwner = new Map<string, string[]>();
  for (const t of r.rows) {
    const startTime = `${String(Math.floor(t.start_min / 60)).padStart(2, '0')}:${String(t.start_min % 60).padStart(2, '0')}`;
    if (!isCancelable(t.status, { date: t.date, startTime }, { date: today, time })) continue;
    byOwner.set(t.owner_id, [...(byOwner.get(t.owner_id) ?? []), t.ticket_id]);
  }
  return byOwner;
}

/**
 * Closes every slot of the rooms in the date range, one command per room (its slots' streams,
 * each slot decided on its own: a slot closed already stays as it is), then, if asked, cancels
 * their booked tickets with the reason (one cancellation: each owner gets one mail stating it).
 * Answers the slots closed now and the tickets cancelled.
 */
export async function closeRooms(
  deps: CommandDeps,
  actor: Actor,
  closure: Closure,
  sites: readonly string[] | null = null,
) {
  const roomIds = await closureRooms(deps, closure, sites);
  const closureId = randomUUID();
  let closedSlots = 0;
  // The position of the last event written, for the staff's read of their own write.
  let position = '0_0';
  for (const roomId of roomIds) {
    const r = await runTimeSlotCommand(deps, actor, {
      type: 'CloseTimeSlots',
      data: {
        roomId,
        fromDate: closure.fromDate,
        untilDate: closure.untilDate,
        closureId,
        reason: closure.reason,
        reasonEn: closure.reasonEn,
      },
    });
    closedSlots += r.answer;
    if (r.answer) position = r.position;
  }
  let cancelledTickets = 0;
  if (closure.cancelBookings) {
    const byOwner = await cancelableTickets(deps, roomIds, closure);
    if (byOwner.size) {
      const r = await cancelTickets(deps, byOwner, actor, {
        reason: closure.reason,
        reasonEn: closure.reasonEn,
        closureId,
      });
      cancelledTickets = r.answer;
      position = r.position;
    }
  }
  return { closedSlots, cancelledTickets, position };
}
