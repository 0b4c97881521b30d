import { OwnerDataChanged, PersonalDataErased, type TransactionEvent } from '@rr/events/catalogue';
import { type Decide, unhandled } from '../decider.ts';
import { refuse, Refused } from '../refusal.ts';
import { evolveTransaction, type TransactionState } from '../reservations/cart.ts';
import type { SlotState } from '../time-slots/time-slot.ts';

/**
 * The owner of a booking: the person whose data (beside the log, in `personal_data`) a booked
 * cart names. Its events live on the booking's cart stream (the cart names its owner and whether
 * its data was erased), so its state is the cart's fold; the data itself never enters an event.
 */
export type OwnerEvent = Extract<
  TransactionEvent,
  { type: 'OwnerDataChanged' | 'PersonalDataErased' }
>;

export type OwnerCommand =
  /** Staff changed the owner data of a booked ticket's booking (the audit event). */
  | { type: 'ChangeOwnerData'; data: { ticketId: string } }
  /**
   * The erasure job: the day after the booking's last booked day its personal data goes (the
   * job finds the due bookings by their personal data's `erase_after`); once only.
   */
  | { type: 'ErasePersonalData' };

/** The booking's cart, and for a change the slot of the ticket named (whether it is booked). */
export interface OwnerState {
  cart: TransactionState;
  slots: ReadonlyMap<string, SlotState>;
}

/** The owner's part of the cart after one of its events (the cart stream's own fold). */
export const evolveOwner = (cart: TransactionState, event: OwnerEvent): TransactionState =>
  evolveTransaction(cart, event);

export const decideOwner: Decide<OwnerCommand, OwnerState, unknown, OwnerEvent[]> = (
  command,
  { cart, slots },
) => {
  switch (command.type) {
    case 'ChangeOwnerData': {
      const { ticketId } = command.data;
      const inCart = cart.tickets.find((t) => t.ticketId === ticketId);
      if (!inCart) throw refuse.notFound('Ticket');
      const held = slots.get(inCart.timeSlotId)?.tickets.get(ticketId);
      if (cart.status !== 'booked' || !cart.ownerId || held?.status !== 'BOOKED')
        throw new Refused({ code: 'ticket__not_booked' }, 'Only booked tickets can be edited');
      if (cart.erased)
        throw new Refused('personal_data__erased', 'The personal data of this booking was erased');
      return [OwnerDataChanged.create({ ownerId: cart.ownerId, ticketId })];
    }
    case 'ErasePersonalData':
      if (cart.status === 'booked' && cart.ownerId && !cart.erased)
        return [PersonalDataErased.create({ ownerId: cart.ownerId })];
      return [];
    default:
      return unhandled(command);
  }
};
