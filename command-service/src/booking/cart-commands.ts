import { randomUUID } from 'node:crypto';
import {
  timeSlotStreamId,
  transactionStreamId,
  type AppendRequest,
  type NewEvent,
} from '@rr/events';
import {
  decideReservation,
  emptyReservation,
  evolveSlot,
  initialTransaction,
  Refused,
  type ReservationCommand,
  type ReservationDecision,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand, positionToken, withRetry } from '../command.ts';
import { recordWriteState, roomsWithHolidays } from '../write-state.ts';
import { cartAnswer } from './cart-answer.ts';
import {
  lockCartAndSlots,
  lockCartWithSlots,
  rememberCart,
  reservationAppends,
  type LoadedReservation,
} from './store.ts';
import { SlotQueue, type Outcome } from './slot-queue.ts';

const visitor = { kind: 'visitor' } as const;

/** The visitor's cart commands: add, remove, touch, remove the cart. */
export function cartCommands(deps: CommandDeps) {
  const { store, limits } = deps;
  const context = () => ({ ...decisionTime(deps), limits });

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
    const { answer, position } = await handleCommand(store, {
      actor: visitor,
      load: async (s): Promise<LoadedReservation> => {
        const { cart, slots } = await lockCartWithSlots(
          s,
          transactionId,
          extraSlot ? [extraSlot] : [],
        );
        const roomIds = [
          ...cart.tickets.map((t) => t.roomId),
          ...[...slots.values()].map((slot) => slot.roomId).filter((id) => id !== ''),
        ];
        const { rooms, holidays } = await roomsWithHolidays(s.client, roomIds, context().today);
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
      committed: (decision, state) => rememberCart(store, transactionId, state.cart, decision),
      answer: (decision, state) => cartAnswer(state.rooms, state.cart, decision, ticketId),
    });
    return { transactionId, ...answer, position };
  }

  type CartResult = Awaited<ReturnType<typeof runCart>>;

  /**
   * New carts, each holding its first ticket in the same slot, decided in one transaction (see
   * SlotQueue): the same load, decider and appends as runCart, for each cart in arrival order
   * against the slot as the earlier ones left it. Each cart keeps a correlation id of its own.
   * The one command path that handles several commands at once: a rush on one slot.
   */
  async function newCarts(timeSlotId: string, count: number): Promise<Outcome<CartResult>[]> {
    return withRetry(async () => {
      const carts = Array.from({ length: count }, () => ({
        transactionId: randomUUID(),
        ticketId: randomUUID(),
        correlationId: randomUUID(),
      }));
      const { result, position } = await store.transaction(async (s) => {
        const start = (await lockCartAndSlots(s, null, [timeSlotId])).get(timeSlotId)!;
        const ctx = context();
        const { rooms, holidays } = await roomsWithHolidays(
          s.client,
          start.status === 'none' ? [] : [start.roomId],
          ctx.today,
        );
        let slot = start;
        const requests: AppendRequest[] = [];
        const held: NewEvent[] = [];
        const outcomes: Outcome<Omit<CartResult, 'position'>>[] = [];
        const started: { transactionId: string; decision: ReservationDecision }[] = [];
        for (const c of carts) {
          let decision: ReservationDecision;
          try {
            decision = decideReservation(
              {
                type: 'AddTicket',
                data: { transactionId: c.transactionId, ticketId: c.ticketId, timeSlotId },
              },
              { ...emptyReservation, slots: new Map([[timeSlotId, slot]]), rooms, holidays },
              ctx,
            );
          } catch (err) {
            if (!(err instanceof Refused)) throw err;
            outcomes.push({ err });
            continue;
          }
          const tag = (e: NewEvent): NewEvent => ({
            ...e,
            metadata: { ...e.metadata, correlationId: c.correlationId },
          });
          requests.push({
            streamId: transactionStreamId(c.transactionId),
            streamType: 'transaction',
            expectedVersion: 'no_stream',
            events: decision.transaction.map(tag),
          });
          for (const e of decision.slots.get(timeSlotId) ?? []) {
            held.push(tag(e));
            slot = evolveSlot(slot, e);
          }
          started.push({ transactionId: c.transactionId, decision });
          outcomes.push({
            ok: {
              transactionId: c.transactionId,
              ...cartAnswer(rooms, initialTransaction, decision, c.ticketId),
            },
          });
        }
        if (held.length) {
          requests.push({
            streamId: timeSlotStreamId(timeSlotId),
            streamType: 'timeslot',
            expectedVersion: start.version,
            events: held,
          });
        }
        if (requests.length) {
          await s.append(requests, { metadata: { actor: visitor } });
          await recordWriteState(s, requests);
        }
        return { outcomes, started };
      });
      for (const c of result.started)
        rememberCart(store, c.transactionId, initialTransaction, c.decision);
      return result.outcomes.map((o) =>
        'ok' in o ? { ok: { ...o.ok, position: positionToken(position) } } : o,
      );
    });
  }

  const slotQueue = new SlotQueue<CartResult>(newCarts);

  return {
    newCart: (timeSlotId: string) => slotQueue.newCart(timeSlotId),
    addTicket: (transactionId: string, timeSlotId: string) => {
      const ticketId = randomUUID();
      return slotQueue.run(timeSlotId, () =>
        runCart(
          transactionId,
          timeSlotId,
          { type: 'AddTicket', data: { transactionId, ticketId, timeSlotId } },
          ticketId,
        ),
      );
    },
    removeTicket: (transactionId: string, ticketId: string) =>
      runCart(transactionId, null, { type: 'RemoveTicket', data: { ticketId } }),
    touch: (transactionId: string) => runCart(transactionId, null, { type: 'TouchCart' }),
    remove: (transactionId: string) => runCart(transactionId, null, { type: 'RemoveCart' }),
  };
}
