import { randomUUID } from 'node:crypto';
import {
  decideReservation,
  emptyReservation,
  evolveSlot,
  initialTransaction,
  type ReservationCommand,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand, handleCommands, type Outcome } from '../command.ts';
import { roomsWithHolidays } from '../write-state.ts';
import { cartAnswer } from './cart-answer.ts';
import {
  lockCartAndSlots,
  lockCartWithSlots,
  rememberCart,
  reservationAppends,
  type LoadedReservation,
} from './store.ts';
import { SlotQueue } from './slot-queue.ts';

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
   * SlotQueue): one batch of the command handler, each cart in arrival order against the slot as
   * the earlier ones left it.
   */
  async function newCarts(timeSlotId: string, count: number): Promise<Outcome<CartResult>[]> {
    const carts = Array.from({ length: count }, () => ({
      transactionId: randomUUID(),
      ticketId: randomUUID(),
    }));
    const outcomes = await handleCommands(store, {
      actor: visitor,
      commands: carts,
      load: async (s): Promise<LoadedReservation> => {
        const slot = (await lockCartAndSlots(s, null, [timeSlotId])).get(timeSlotId)!;
        const { rooms, holidays } = await roomsWithHolidays(
          s.client,
          slot.status === 'none' ? [] : [slot.roomId],
          context().today,
        );
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
            (decision.slots.get(timeSlotId) ?? []).reduce(evolveSlot, state.slots.get(timeSlotId)!),
          ],
        ]),
      }),
      appends: (decision, state, c) =>
        reservationAppends({ ...state, transactionId: c.transactionId }, decision),
      committed: (decision, _state, c) =>
        rememberCart(store, c.transactionId, initialTransaction, decision),
      answer: (decision, state, c) => ({
        transactionId: c.transactionId,
        ...cartAnswer(state.rooms, initialTransaction, decision, c.ticketId),
      }),
    });
    return outcomes.map((o) =>
      'ok' in o ? { ok: { ...o.ok.answer, position: o.ok.position } } : o,
    );
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
