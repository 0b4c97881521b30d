import type { AppendRequest, StoreSession } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import {
  limitsKeyOf,
  noShowDaysCounted,
  type PersonKeys,
  type SignedInMember,
  type LocalDate,
  type BookingLimits,
  type RoomHolidays,
  type NoShowRule,
  type ReservationDecision,
  type ReservationState,
  type RoomState,
} from '@rr/domain';
import { appendToSlot } from '../streams/timeslot.ts';
import { appendToCart } from '../streams/transaction.ts';
import { appendToVisitor, lockAndLoadVisitor } from '../streams/visitor.ts';
import { loadBlacklistEntry } from '../streams/blacklist.ts';
import { roomsWithHolidays } from '../write-state.ts';
import type { CommandDeps } from '../deps.ts';

/**
 * What a reservation command decides on beyond its streams (loaded by the stream modules in
 * `streams/`): the appends of its decision to the cart, its slots and the visitor, the visitor's
 * no-show days and the booking window of its slots' rooms, and the personal data a booking writes
 * beside the log.
 */

/** A reservation's state as loaded, with the ids of the streams it was read from. */
export interface LoadedReservation extends ReservationState {
  transactionId: string;
  /**
   * The visitor's stream key, the key the limits count by (limitsKeyOf; null when the command
   * writes no visitor events).
   */
  visitorKey: string | null;
}

/**
 * The appends of a reservation decision, at the versions the state was read at: the cart stream
 * first (read models see the cart before the holds), then each slot, then the visitor.
 */
export function reservationAppends(
  state: LoadedReservation,
  decision: ReservationDecision,
): AppendRequest[] {
  const requests = appendToCart(state.transactionId, state.cart, decision.transaction);
  for (const [slotId, events] of decision.slots) {
    const slot = state.slots.get(slotId);
    if (!slot) throw new Error(`slot ${slotId} was not loaded`);
    requests.push(...appendToSlot(slotId, slot, events));
  }
  if (decision.visitor.length) {
    if (!state.visitorKey) throw new Error('the visitor was not loaded');
    requests.push(...appendToVisitor(state.visitorKey, state.visitor, decision.visitor));
  }
  return requests;
}

/**
 * A visitor signed in with the campus identity as a command sees them (`req.signedInVisitor`):
 * the subject (`<issuer>!<subject>`) and what members' rooms admit by; null: a guest.
 */
export type SignedInVisitor = (SignedInMember & { subject: string }) | null;

/**
 * The keys of the person a seat is for: their address's, and a signed-in visitor's campus
 * subject's (docs/product.md#one-person-one-set-of-limits). A guest has only the address's.
 */
export function personKeysOf(
  deps: Pick<CommandDeps, 'emailKey' | 'subjectKey'>,
  email: string,
  member: SignedInVisitor,
): PersonKeys {
  const visitorKey = deps.emailKey(email);
  return member ? { visitorKey, subjectKey: deps.subjectKey(member.subject) } : { visitorKey };
}

/**
 * The person a seat is for, as the one decision asks them (docs/product.md#cart-rules): their
 * visitor stream locked and folded (their bookings), their blacklist entry and the no-show days
 * the rule counts. Every command that gives a visitor a seat loads them so, in this order. The
 * bookings and the no-show days are the person's by the key the limits count (limitsKeyOf: a
 * signed-in visitor's subject, whatever address), the blacklist entry the address's.
 */
export async function loadPerson(
  s: StoreSession,
  keys: PersonKeys,
  limits: Pick<BookingLimits, 'noShowRule' | 'limitsPerSite'>,
): Promise<Pick<ReservationState, 'visitor' | 'blacklist' | 'noShows'>> {
  const limitsKey = limitsKeyOf(keys);
  const visitor = await lockAndLoadVisitor(s, limitsKey, limits.limitsPerSite ?? false);
  const blacklist = await loadBlacklistEntry(s, keys.visitorKey);
  const noShows = await loadNoShowDays(s.client, limitsKey, limits.noShowRule);
  return { visitor, blacklist, noShows };
}

/**
 * The days of the no-show releases of a visitor's key the rule counts (those after a staff
 * lift, docs/product.md#no-show-rule); empty without the rule (nothing to decide on).
 */
export async function loadNoShowDays(
  client: Pick<PoolClient, 'query'>,
  visitorKey: string,
  rule: NoShowRule | undefined,
): Promise<LocalDate[]> {
  if (!rule) return [];
  const r = await client.query<{ date: string; lifted_through: string | null }>(
    `SELECT to_char(n.date, 'YYYY-MM-DD') AS date,
            to_char(l.lifted_through, 'YYYY-MM-DD') AS lifted_through
       FROM visitor_no_shows n
       LEFT JOIN visitor_no_show_lifts l ON l.visitor_key = n.visitor_key
      WHERE n.visitor_key = $1`,
    [visitorKey],
  );
  return noShowDaysCounted(
    r.rows.map((row) => row.date),
    r.rows[0]?.lifted_through,
  );
}

/**
 * The streams a cart command locks and reads (`lock`), and the booking window of their slots'
 * rooms (roomsWithHolidays). When the rooms are known beforehand (`knownRooms`: a cached slot's
 * room, which never changes) and the connection is pipelined, both reads go in one round trip;
 * otherwise, or when the streams read name other rooms, the window is read after the lock.
 */
export async function lockedWithWindow<T>(
  s: StoreSession,
  today: LocalDate,
  knownRooms: readonly string[] | null,
  lock: () => Promise<T>,
  roomsOf: (locked: T) => string[],
): Promise<{ locked: T; rooms: Map<string, RoomState>; holidays: RoomHolidays }> {
  if (knownRooms && s.isPipelined) {
    const [locked, window] = await Promise.all([
      lock(),
      roomsWithHolidays(s.client, knownRooms, today),
    ]);
    const asked = new Set(knownRooms);
    if (roomsOf(locked).every((id) => asked.has(id))) return { locked, ...window };
    return { locked, ...(await roomsWithHolidays(s.client, roomsOf(locked), today)) };
  }
  const locked = await lock();
  return { locked, ...(await roomsWithHolidays(s.client, roomsOf(locked), today)) };
}
