import { randomBytes, randomUUID } from 'node:crypto';
import { lockSlots } from '../streams/timeslot.ts';
import { type Actor, type StoreSession } from '@rr/events';
import {
  bookedSeats,
  decideWaitlist,
  offerableSeats,
  refuse,
  type CartRuleSlot,
  initialBlacklistState,
  initialTransaction,
  initialVisitor,
  emailDomainOf,
  normalizeEmail,
  lineLength,
  type WaitlistCommand,
  type WaitlistDecision,
  type RoomState,
  type WaitlistState,
} from '@rr/domain';
import type { WaitlistInput } from '@rr/contracts';
import { clearMailErrorsOf, startIntervalJob, type IntervalJob, type z } from '@rr/platform';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { cartAnswer } from '../booking/cart-answer.ts';
import { loadPerson, personKeysOf, type SignedInVisitor } from '../booking/store.ts';
import { loadVisitor } from '../streams/visitor.ts';
import { lockCartAndSlots, rememberCart } from '../streams/transaction.ts';
import { roomsWithHolidays } from '../write-state.ts';
import { appendToSlot } from '../streams/timeslot.ts';
import { appendToCart } from '../streams/transaction.ts';
import { eraseEntryRows, recordEntry } from './entries.ts';

const visitor = { kind: 'visitor' } as const;
const matcher = { kind: 'system', job: 'waitlist-matcher' } as const;

/** The decision's state, with the slot's id and the rooms the cart's answer names. */
type Loaded = WaitlistState & { timeSlotId: string; rooms: ReadonlyMap<string, RoomState> };

const waitlistContext = (deps: CommandDeps) => ({
  ...decisionTime(deps),
  limits: deps.limits,
  timeZone: deps.timeZone,
  newOfferId: () => randomBytes(16).toString('hex'),
  passOver: deps.waitlistPassOver !== false,
});

async function loadSlot(
  deps: CommandDeps,
  s: StoreSession,
  timeSlotId: string,
  cart: string | null,
) {
  const slot = (await lockCartAndSlots(s, cart, [timeSlotId])).get(timeSlotId)!;
  const { rooms, holidays } = await roomsWithHolidays(
    s.client,
    slot.status === 'none' ? [] : [slot.roomId],
    decisionTime(deps).today,
  );
  return {
    slot,
    room: rooms.get(slot.roomId),
    rooms,
    holidays: holidays.get(slot.roomId) ?? new Set<string>(),
    visitor: initialVisitor,
    blacklist: initialBlacklistState,
    timeSlotId,
  };
}

const slotAppend = (d: WaitlistDecision, state: Loaded) =>
  appendToSlot(state.timeSlotId, state.slot, d.slot);

/** A visitor joins a full slot's line; answers the entry and its place in line. */
async function join(
  deps: CommandDeps,
  timeSlotId: string,
  body: z.output<typeof WaitlistInput>,
  member: SignedInVisitor,
) {
  const email = normalizeEmail(body.email);
  const keys = personKeysOf(deps, email, member);
  const { visitorKey, subjectKey } = keys;
  const entryId = randomUUID();
  const command: WaitlistCommand = {
    type: 'JoinWaitlist',
    data: {
      entryId,
      timeSlotId,
      visitorKey,
      subjectKey,
      language: body.language,
      emailDomain: emailDomainOf(email),
      member,
    },
  };
  const { answer, position } = await handleCommand(deps.store, {
    actor: visitor,
    load: async (s): Promise<Loaded> => {
      const loaded = await loadSlot(deps, s, timeSlotId, null);
      return { ...loaded, ...(await loadPerson(s, keys, deps.limits)) };
    },
    decide: (state) => decideWaitlist(command, state, waitlistContext(deps)),
    appends: slotAppend,
    record: (s, _d, state) =>
      recordEntry(s, {
        entryId,
        timeSlotId,
        visitorKey,
        subjectKey: subjectKey ?? null,
        email,
        language: body.language,
        slotDate: state.slot.date,
      }),
    answer: (_d, state) => ({
      entryId,
      positionInLine: lineLength(state.slot.waitlist) + 1,
      reference: deps.waitlistReferences.codeOf(entryId),
    }),
  });
  return { ...answer, position };
}

/**
 * An entry leaves the line: by the visitor (its reference) or by staff. The slot of an entry is
 * found beside the log (`waitlist_entries`); the decision is the slot stream's. Answers the
 * entry's status after it (left or removed; whatever it was when it had left the line already).
 */
async function outOfLine(
  deps: CommandDeps,
  actor: Actor,
  entryId: string,
  type: 'LeaveWaitlist' | 'RemoveWaitlistEntry',
  inSlot?: { roomId: string; timeSlotId: string },
) {
  const found = await deps.pool.query<{ time_slot_id: string }>(
    'SELECT time_slot_id FROM waitlist_entries WHERE entry_id = $1',
    [entryId],
  );
  const timeSlotId = found.rows[0]?.time_slot_id;
  if (!timeSlotId || (inSlot !== undefined && inSlot.timeSlotId !== timeSlotId))
    throw refuse.notFound('Waitlist entry');
  const { answer, position } = await handleCommand(deps.store, {
    actor,
    load: async (s): Promise<Loaded> => {
      const loaded = await loadSlot(deps, s, timeSlotId, null);
      // Staff name the slot by its room too: another room's slot has no such entry.
      if (inSlot && loaded.slot.status !== 'none' && loaded.slot.roomId !== inSlot.roomId)
        throw refuse.notFound('Waitlist entry');
      return loaded;
    },
    decide: (state) =>
      decideWaitlist({ type, data: { timeSlotId, entryId } }, state, waitlistContext(deps)),
    appends: slotAppend,
    answer: (d, state) => {
      if (d.slot.length) return type === 'LeaveWaitlist' ? 'left' : 'removed';
      return state.slot.waitlist?.find((e) => e.entryId === entryId)?.status ?? 'left';
    },
  });
  return { status: answer, position };
}

/** The visitor leaves by the entry's reference (the mail's link); unknown references: 404. */
async function leave(deps: CommandDeps, reference: string) {
  const entryId = deps.waitlistReferences.entryOf(reference);
  if (!entryId) throw refuse.notFound('Waitlist entry');
  return outOfLine(deps, visitor, entryId, 'LeaveWaitlist');
}

/** Staff take an entry of a slot's line off it. */
const remove = (
  deps: CommandDeps,
  actor: Actor,
  roomId: string,
  timeSlotId: string,
  entryId: string,
) => outOfLine(deps, actor, entryId, 'RemoveWaitlistEntry', { roomId, timeSlotId });

/**
 * The seats the people waiting in a slot's line hold already, by the key their limits count
 * (limitsKeyOf: a signed-in visitor's subject, or the address's key): their bookings
 * from today on (their visitor streams, read without their lock: a booking meets the limits
 * again, so a race costs at most an offer that cannot be booked) and their offers still out in
 * other slots (`waitlist_entries`, moved in the offers' transactions, with `timeslot_guard`).
 */
async function heldByWaiting(
  deps: CommandDeps,
  s: StoreSession,
  timeSlotId: string,
  keys: string[],
) {
  const { today, now } = decisionTime(deps);
  const held = new Map<string, CartRuleSlot[]>();
  const perSite = deps.limits.limitsPerSite ?? false;
  for (const key of keys) held.set(key, bookedSeats(await loadVisitor(s, key, perSite), today));
  const offers = await s.client.query<{
    visitor_key: string;
    time_slot_id: string;
    date: string;
    start_time: string;
    end_time: string;
    site_id: string | null;
  }>(
    `SELECT COALESCE(w.subject_key, w.visitor_key) AS visitor_key, w.time_slot_id,
            to_char(g.date, 'YYYY-MM-DD') AS date,
            to_char(make_interval(mins => g.start_min), 'HH24:MI') AS start_time,
            to_char(make_interval(mins => g.end_min), 'HH24:MI') AS end_time,
            r.site_id::text AS site_id
       FROM waitlist_entries w JOIN timeslot_guard g ON g.time_slot_id = w.time_slot_id
       LEFT JOIN room_state r ON r.room_id = g.room_id
      WHERE COALESCE(w.subject_key, w.visitor_key) = ANY($1::text[]) AND w.status = 'offered'
        AND w.offer_expires_at > $2 AND w.time_slot_id <> $3`,
    [keys, now, timeSlotId],
  );
  for (const o of offers.rows)
    held.get(o.visitor_key)?.push({
      timeSlotId: o.time_slot_id,
      date: o.date,
      startTime: o.start_time,
      endTime: o.end_time,
      // An offer counts for its room's site when the limits count per site.
      siteId: o.site_id ?? '',
    });
  return held;
}

/** The matcher's step on one slot: lapse the offers past their time, offer the free seats. */
async function match(deps: CommandDeps, timeSlotId: string): Promise<number> {
  const { answer } = await handleCommand(deps.store, {
    actor: matcher,
    load: async (s): Promise<Loaded> => {
      const loaded = await loadSlot(deps, s, timeSlotId, null);
      const { now } = decisionTime(deps);
      const waiting = (loaded.slot.waitlist ?? []).filter((e) => e.status === 'waiting');
      // Who holds what matters only when a seat is there to offer, or to look again at whom
      // the limits barred (they may claim again).
      if (
        !waiting.length ||
        (offerableSeats(loaded.slot, now) === 0 && !waiting.some((e) => e.passedOver))
      )
        return loaded;
      const keys = [...new Set(waiting.map((e) => e.personKey))];
      return { ...loaded, held: await heldByWaiting(deps, s, timeSlotId, keys) };
    },
    decide: (state) =>
      decideWaitlist({ type: 'MatchWaitlist', data: { timeSlotId } }, state, waitlistContext(deps)),
    appends: slotAppend,
    answer: (d) => d.slot.filter((e) => e.type === 'SeatOffered').length,
  });
  return answer;
}

/** The visitor follows an offer: its seat becomes the first hold of a new cart. */
async function take(deps: CommandDeps, timeSlotId: string, offerId: string) {
  const transactionId = randomUUID();
  const ticketId = randomUUID();
  const { answer, position } = await handleCommand(deps.store, {
    actor: visitor,
    load: (s): Promise<Loaded> => loadSlot(deps, s, timeSlotId, transactionId),
    decide: (state) =>
      decideWaitlist(
        { type: 'TakeSeatOffer', data: { timeSlotId, offerId, transactionId, ticketId } },
        state,
        waitlistContext(deps),
      ),
    appends: (d, state) => [
      // The cart first (read models see the cart before the hold), as every cart command.
      ...appendToCart(transactionId, initialTransaction, d.transaction),
      ...slotAppend(d, state),
    ],
    committed: (d) => rememberCart(deps.store, transactionId, initialTransaction, d.transaction),
    answer: (d, state) => cartAnswer(state.rooms, initialTransaction, d, ticketId),
  });
  return { transactionId, ...answer, position };
}

/**
 * The waitlist's commands (docs/product.md#waitlist). Each decides on the slot's stream, locked like a cart
 * command locks it (the cart first, then the slot, then the visitor), so joins, offers and takes
 * queue with the carts' holds on one lock: an offer holds its seat like a hold, and no seat is
 * offered twice. `waitlist_entries` beside the log keeps the address (never in the events; written
 * by the join) and the status the matcher finds its candidate slots by (moved by the offers'
 * events: inline-projections.ts).
 */
export function waitlistCommands(deps: CommandDeps) {
  return {
    join: (timeSlotId: string, body: z.output<typeof WaitlistInput>, member: SignedInVisitor) =>
      join(deps, timeSlotId, body, member),
    match: (timeSlotId: string) => match(deps, timeSlotId),
    take: (timeSlotId: string, offerId: string) => take(deps, timeSlotId, offerId),
    leave: (reference: string) => leave(deps, reference),
    remove: (actor: Actor, roomId: string, timeSlotId: string, entryId: string) =>
      remove(deps, actor, roomId, timeSlotId, entryId),
  };
}

/**
 * The matcher job's round: every slot with people waiting or an offer out (found in
 * `waitlist_entries`; the decision is on the slot's stream) gets its step. Answers the offers made.
 */
export async function matchWaitlists(deps: CommandDeps): Promise<number> {
  const { match } = waitlistCommands(deps);
  const due = await deps.pool.query<{ time_slot_id: string }>(
    `SELECT DISTINCT time_slot_id FROM waitlist_entries WHERE status IN ('waiting', 'offered')`,
  );
  let offers = 0;
  for (const { time_slot_id } of due.rows) {
    try {
      offers += await match(time_slot_id);
    } catch (err) {
      deps.logger.warn(
        { timeSlotId: time_slot_id, err: String(err) },
        'waitlist match failed; retried next round',
      );
    }
  }
  return offers;
}

/** Runs the matcher every intervalMs until stopped (the clock decides what is due). */
export function startWaitlistJob(deps: CommandDeps, intervalMs: number): IntervalJob {
  return startIntervalJob('waitlist', () => matchWaitlists(deps), intervalMs, deps.logger);
}

/**
 * The erasure of waitlist personal data, beside the bookings': the day after the slot's day the
 * entries' rows go (their addresses with them), and their mails' errors. Each slot's entries are
 * erased by a command on the slot's stream (WaitlistEntryErased per entry, once; the events never
 * held the address). Answers how many entries it erased.
 */
export async function eraseWaitlistEntries(deps: CommandDeps, today: string): Promise<number> {
  const due = await deps.pool.query<{ time_slot_id: string; entry_ids: string[] }>(
    `SELECT time_slot_id, array_agg(entry_id::text ORDER BY entry_id) AS entry_ids
       FROM waitlist_entries WHERE erase_after <= $1 GROUP BY time_slot_id ORDER BY time_slot_id`,
    [today],
  );
  let erased = 0;
  for (const row of due.rows) {
    const { answer } = await handleCommand(deps.store, {
      actor: { kind: 'system', job: 'personal-data-erasure' },
      load: async (s) => ({
        slot: (await lockSlots(s, [row.time_slot_id])).get(row.time_slot_id)!,
        room: undefined,
        holidays: new Set<string>(),
        visitor: initialVisitor,
        blacklist: initialBlacklistState,
      }),
      decide: (state) =>
        decideWaitlist(
          {
            type: 'EraseWaitlistEntries',
            data: { timeSlotId: row.time_slot_id, entryIds: row.entry_ids },
          },
          state,
          {
            ...decisionTime(deps),
            limits: deps.limits,
            timeZone: deps.timeZone,
            newOfferId: () => '',
          },
        ),
      appends: (d, state) => appendToSlot(row.time_slot_id, state.slot, d.slot),
      record: async (s) => {
        const gone = await eraseEntryRows(s, row.entry_ids, today);
        // The send errors of their mails named the addresses too.
        await clearMailErrorsOf(s.client, gone);
      },
      answer: (d) => d.slot.length,
    });
    erased += answer;
  }
  return erased;
}
