import { randomUUID } from 'node:crypto';
import type { EventStore } from '@rr/events';
import { RefusalRecorder, type RefusedPlace } from '@rr/insights/refusals';
import { lockSlots } from '../streams/timeslot.ts';
import {
  decideReservation,
  emptyReservation,
  evolveSlotWith,
  initialTransaction,
  type ReservationCommand,
  type RoomState,
  type SeatWish,
} from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { decisionTime, handleCommand, handleCommands, type Outcome } from '../command.ts';
import { cartAnswer } from './cart-answer.ts';
import { lockedWithWindow, reservationAppends, type LoadedReservation } from './store.ts';
import { cachedRoomOf } from '../streams/timeslot.ts';
import { cartCacheOf, lockCartWithSlots, rememberCart } from '../streams/transaction.ts';

/** The visitor's cart commands: made by the visitor, and may share a commit with others. */
const visitorCommand = { actor: { kind: 'visitor' }, group: true } as const;

/** In a room with a seat plan, the seat (or its attributes) a new ticket asks for. */
type Wish = SeatWish | undefined;

/** The ids of new carts and their first tickets, with what each asks for. */
const newCartsOf = (wishes: readonly Wish[]) =>
  wishes.map((seat) => ({ transactionId: randomUUID(), ticketId: randomUUID(), seat }));

/**
 * Where a refused add wanted its seat, for the insights' unmet demand: the slot, and its room's
 * seats (a refused seat wish is counted by the attributes of the seat asked for).
 */
type SlotPlace = RefusedPlace;
const placeOf = (
  timeSlotId: string,
  slot: { roomId: string; date: string } | undefined,
  rooms: ReadonlyMap<string, RoomState>,
): SlotPlace | undefined =>
  slot && slot.roomId !== ''
    ? {
        timeSlotId,
        roomId: slot.roomId,
        date: slot.date,
        seats: rooms.get(slot.roomId)?.seatPlan.seats,
      }
    : undefined;

/**
 * The rooms a cart command will read, when its cart and slot are cached: the rooms of the
 * cart's tickets and the slot's (null when any is unknown).
 */
function knownRoomsOf(
  store: EventStore,
  transactionId: string,
  extraSlot: string | null,
): string[] | null {
  const cart = cartCacheOf(store).get(transactionId);
  if (!cart) return null;
  const extraRoom = extraSlot ? cachedRoomOf(store, extraSlot) : null;
  if (extraSlot && !extraRoom) return null;
  return [...cart.tickets.map((t) => t.roomId), ...(extraRoom ? [extraRoom] : [])];
}

/** The visitor's cart commands: add, remove, touch, remove the cart. */
export function cartCommands(deps: CommandDeps) {
  const { store, limits } = deps;
  const context = () => ({ ...decisionTime(deps), limits, timeZone: deps.timeZone });
  // Refused adds, for the insights' unmet demand: recorded after the answer, never on its way.
  const refusals = new RefusalRecorder(deps.pool, deps.clock, deps.logger);

  /**
   * A command on a cart: the cart and the slots it touches (and `extraSlot`) locked and folded,
   * with the rooms of those slots and the holidays (their booking windows).
   */
  async function runCart(
    transactionId: string,
    extraSlot: string | null,
    command: ReservationCommand,
    ticketId?: string,
  ) {
    let place: SlotPlace | undefined;
    const run = handleCommand(store, {
      ...visitorCommand,
      load: async (s): Promise<LoadedReservation> => {
        const {
          locked: { cart, slots },
          rooms,
          holidays,
        } = await lockedWithWindow(
          s,
          context().today,
          knownRoomsOf(store, transactionId, extraSlot),
          () => lockCartWithSlots(s, transactionId, extraSlot ? [extraSlot] : []),
          ({ cart, slots }) => [
            ...cart.tickets.map((t) => t.roomId),
            ...[...slots.values()].map((slot) => slot.roomId).filter((id) => id !== ''),
          ],
        );
        if (extraSlot) place = placeOf(extraSlot, slots.get(extraSlot), rooms);
        return {
          ...emptyReservation,
          cart,
          slots,
          rooms,
          holidays,
          transactionId,
          visitorKey: null,
        };
      },
      decide: (state) => decideReservation(command, state, context()),
      appends: (decision, state) => reservationAppends(state, decision),
      committed: (decision, state) =>
        rememberCart(store, transactionId, state.cart, decision.transaction),
      answer: (decision, state) =>
        cartAnswer(state.rooms, state.cart, decision, ticketId, state.slots),
    });
    try {
      const { answer, position } = await run;
      return { transactionId, ...answer, position };
    } catch (err) {
      if (command.type === 'AddTicket') refusals.note(err, transactionId, place, command.data.seat);
      throw err;
    }
  }

  type CartResult = Awaited<ReturnType<typeof runCart>>;

  /**
   * New carts, each holding its first ticket in the same slot, decided in one transaction (see
   * SlotQueue): one batch of the command handler, each cart in arrival order against the slot as
   * the earlier ones left it.
   */
  async function newCarts(timeSlotId: string, wishes: readonly Wish[]) {
    const carts = newCartsOf(wishes);
    let place: SlotPlace | undefined;
    const batch = handleCommands(store, {
      ...visitorCommand,
      commands: carts,
      load: async (s): Promise<LoadedReservation> => {
        const cachedRoom = cachedRoomOf(store, timeSlotId);
        const {
          locked: slot,
          rooms,
          holidays,
        } = await lockedWithWindow(
          s,
          context().today,
          cachedRoom ? [cachedRoom] : null,
          async () => (await lockSlots(s, [timeSlotId])).get(timeSlotId)!,
          (slot) => (slot.status === 'none' ? [] : [slot.roomId]),
        );
        place = placeOf(timeSlotId, slot, rooms);
        const slots = new Map([[timeSlotId, slot]]);
        return { ...emptyReservation, slots, rooms, holidays, transactionId: '', visitorKey: null };
      },
      decide: (state, c) =>
        decideReservation({ type: 'AddTicket', data: { ...c, timeSlotId } }, state, context()),
      evolve: (state, decision) => ({
        ...state,
        slots: new Map([
          [
            timeSlotId,
            evolveSlotWith(state.slots.get(timeSlotId)!, decision.slots.get(timeSlotId) ?? []),
          ],
        ]),
      }),
      appends: (decision, state, c) =>
        reservationAppends({ ...state, transactionId: c.transactionId }, decision),
      committed: (decision, _state, c) =>
        rememberCart(store, c.transactionId, initialTransaction, decision.transaction),
      answer: (decision, state, c) => ({
        transactionId: c.transactionId,
        ...cartAnswer(state.rooms, initialTransaction, decision, c.ticketId),
      }),
    });
    // A batch of one cart throws its refusal; a larger one answers it as that cart's outcome.
    const outcomes = await batch.catch((err: unknown) => {
      if (carts.length === 1) refusals.note(err, carts[0]!.transactionId, place, carts[0]!.seat);
      throw err;
    });
    outcomes.forEach((o, i) => {
      if ('err' in o) refusals.note(o.err, carts[i]!.transactionId, place, carts[i]!.seat);
    });
    return outcomes.map((o) =>
      'ok' in o ? { ok: { ...o.ok.answer, position: o.ok.position } } : o,
    );
  }

  const slotQueue = new SlotQueue<CartResult, Wish>(
    (timeSlotId, _count, wishes): Promise<Outcome<CartResult>[]> => newCarts(timeSlotId, wishes),
  );

  return {
    newCart: (timeSlotId: string, seat?: SeatWish) => slotQueue.newCart(timeSlotId, seat),
    addTicket: (transactionId: string, timeSlotId: string, seat?: SeatWish) => {
      const ticketId = randomUUID();
      return slotQueue.run(timeSlotId, () =>
        runCart(
          transactionId,
          timeSlotId,
          { type: 'AddTicket', data: { transactionId, ticketId, timeSlotId, seat } },
          ticketId,
        ),
      );
    },
    removeTicket: (transactionId: string, ticketId: string) =>
      runCart(transactionId, null, { type: 'RemoveTicket', data: { ticketId } }),
    touch: (transactionId: string) => runCart(transactionId, null, { type: 'TouchCart' }),
    remove: (transactionId: string) => runCart(transactionId, null, { type: 'RemoveCart' }),
    /** Resolves once the refusals noted so far are written. */
    refusalsSettled: () => refusals.settled(),
  };
}

// --- the per-slot queue -----------------------------------------------------------------------------

/** What one new cart in a batch came to: its answer, or the error it is refused with. */
export type QueueOutcome<T> = { ok: T } | { err: unknown };

type Job =
  | { kind: 'one'; run: () => Promise<unknown>; resolve: (v: unknown) => void; reject: Reject }
  | { kind: 'new-cart'; wish: unknown; resolve: (v: unknown) => void; reject: Reject };
type Reject = (err: unknown) => void;

/** Most new carts decided in one transaction. */
export const MAX_NEW_CART_BATCH = 200;

/**
 * Cart commands that take a seat in a time slot, queued per slot inside this process. Only one
 * database transaction per slot runs at a time; the other commands wait here rather than each
 * holding a pooled connection while it waits for the slot's stream lock, so a rush on one slot does
 * not starve the commands on every other slot of connections.
 *
 * New carts (a visitor's first ticket) waiting for the same slot are decided together: one
 * transaction locks and reads the slot once, decides each cart in arrival order against the slot
 * as the earlier ones left it, and appends every accepted hold at once (`decideNewCarts`). Each
 * command is under way during that transaction, so each answer is what it would have got on its
 * own at that instant; a rush of 500 visitors on one slot thus costs a few transactions instead
 * of 500. Commands on existing carts run one by one, in arrival order.
 */
export class SlotQueue<T, W = undefined> {
  private readonly queues = new Map<string, Job[]>();

  /** `wishes`: what each new cart of the batch asks for besides the slot (its seat), in order. */
  constructor(
    private readonly decideNewCarts: (
      timeSlotId: string,
      count: number,
      wishes: readonly W[],
    ) => Promise<QueueOutcome<T>[]>,
  ) {}

  /** A command on an existing cart. */
  run<R>(timeSlotId: string, run: () => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) =>
      this.enqueue(timeSlotId, {
        kind: 'one',
        run,
        resolve: resolve as (v: unknown) => void,
        reject,
      }),
    );
  }

  /** A new cart holding its first ticket in the slot. */
  newCart(timeSlotId: string, wish?: W): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.enqueue(timeSlotId, {
        kind: 'new-cart',
        wish,
        resolve: resolve as (v: unknown) => void,
        reject,
      }),
    );
  }

  /** Commands waiting (or running) on all slots: for tests and metrics. */
  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  private enqueue(timeSlotId: string, job: Job): void {
    const queue = this.queues.get(timeSlotId);
    if (queue) {
      queue.push(job);
      return;
    }
    this.queues.set(timeSlotId, [job]);
    void this.drain(timeSlotId);
  }

  private async drain(timeSlotId: string): Promise<void> {
    const queue = this.queues.get(timeSlotId)!;
    while (queue.length > 0) {
      const job = queue[0]!;
      if (job.kind === 'one') {
        try {
          job.resolve(await job.run());
        } catch (err) {
          job.reject(err);
        }
        queue.shift();
        continue;
      }
      // Every new cart waiting now, in arrival order (commands on existing carts keep their place).
      const batch: Job[] = [];
      for (let i = 0; i < queue.length && batch.length < MAX_NEW_CART_BATCH; i++) {
        if (queue[i]!.kind === 'new-cart') batch.push(queue[i]!);
      }
      try {
        // Each job's wish was given to newCart as a W (the queue keeps jobs of one type).
        const wishes = batch.map((j) => (j.kind === 'new-cart' ? j.wish : undefined) as W);
        const outcomes = await this.decideNewCarts(timeSlotId, batch.length, wishes);
        batch.forEach((j, i) => {
          const outcome = outcomes[i];
          if (outcome && 'ok' in outcome) j.resolve(outcome.ok);
          else j.reject(outcome ? outcome.err : new Error('no outcome for a new cart'));
        });
      } catch (err) {
        for (const j of batch) j.reject(err);
      }
      for (const j of batch) queue.splice(queue.indexOf(j), 1);
    }
    this.queues.delete(timeSlotId);
  }
}
