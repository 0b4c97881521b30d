import { randomBytes, randomUUID } from 'node:crypto';
import { lockSlots } from '../streams/timeslot.ts';
import type { Actor } from '@rr/events';
import {
  decideReservation,
  emailDomainOf,
  emptyReservation,
  limitsKeyOf,
  normalizeEmail,
  type ReservationCommand,
} from '@rr/domain';
import type { z } from '@rr/platform';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { roomStates } from '../write-state.ts';
import { bookedAtOnceAnswer, newBookingNumber, newOwnerId, ticketView } from './cart-answer.ts';
import type { StaffBookingBody, VisitorOwnerBody } from './owner.ts';
import {
  loadPerson,
  personKeysOf,
  reservationAppends,
  type LoadedReservation,
  type SignedInVisitor,
} from './store.ts';
import { recordPersonalData } from '../owner/personal-data.ts';
import { lockAndLoadVisitor } from '../streams/visitor.ts';
import { lockCartWithSlots } from '../streams/transaction.ts';

/**
 * The two ways a booking is made, each a command on the reservation's streams whose personal
 * data is written beside the events in the same transaction (never into the log).
 */
export function bookingCommands(deps: CommandDeps) {
  const { store, limits } = deps;
  const context = () => ({ ...decisionTime(deps), limits, timeZone: deps.timeZone });
  const ids = () => ({ ownerId: newOwnerId(), bookingNumber: newBookingNumber() });

  /**
   * The visitor books the cart: per-visitor limits on the visitor's stream and the blacklist
   * entry of the address are decided in the same transaction.
   */
  async function book(
    transactionId: string,
    body: z.output<typeof VisitorOwnerBody>,
    member: SignedInVisitor,
  ) {
    const email = normalizeEmail(body.email);
    const keys = personKeysOf(deps, email, member);
    const { visitorKey, subjectKey } = keys;
    // New numbers on each attempt: a clash of a booking number is retried.
    let booking = ids();
    const { answer, position } = await handleCommand(store, {
      actor: { kind: 'visitor' },
      group: true,
      load: async (s): Promise<LoadedReservation> => {
        booking = ids();
        const { cart, slots } = await lockCartWithSlots(s, transactionId, []);
        const person = await loadPerson(s, keys, limits);
        const rooms = await roomStates(
          s.client,
          cart.tickets.map((t) => t.roomId),
        );
        return {
          ...emptyReservation,
          cart,
          slots,
          ...person,
          rooms,
          transactionId,
          visitorKey: limitsKeyOf(keys),
        };
      },
      decide: (state) =>
        decideReservation(
          {
            type: 'BookCart',
            data: {
              ...booking,
              visitorKey,
              subjectKey,
              language: body.language,
              emailDomain: emailDomainOf(email),
              member,
            },
          },
          state,
          context(),
        ),
      appends: (decision, state) => reservationAppends(state, decision),
      record: (s, _decision, state) =>
        recordPersonalData(s, {
          ownerId: booking.ownerId,
          owner: body,
          email,
          subject: member?.subject ?? null,
          lastDate: state.cart.tickets
            .map((t) => t.date)
            .sort()
            .at(-1)!,
        }),
      answer: (_decision, state) => ({
        ...booking,
        tickets: state.cart.tickets.map((t) => ticketView(state.rooms, t, 'BOOKED', state.slots)),
      }),
    });
    return { ...answer, position };
  }

  /**
   * Staff book a person into a slot: allowed beyond capacity (shows as overbooked), audited as
   * done by the admin. Without an e-mail address the booking counts for no visitor (a random key).
   */
  async function staffBook(
    actor: Actor,
    slot: { roomId: string; timeSlotId: string },
    body: z.output<typeof StaffBookingBody>,
  ) {
    const email = body.email ? normalizeEmail(body.email) : null;
    const visitorKey = email ? deps.emailKey(email) : randomBytes(20).toString('hex');
    let command: Extract<ReservationCommand, { type: 'StaffBook' }>;
    const { answer, position } = await handleCommand(store, {
      actor,
      load: async (s): Promise<LoadedReservation> => {
        command = {
          type: 'StaffBook',
          data: {
            ...slot,
            ...ids(),
            transactionId: randomUUID(),
            ticketId: randomUUID(),
            visitorKey,
            language: body.language,
            confirmOverbooking: body.confirmOverbooking,
            seat: body.seatId ? { seatId: body.seatId } : undefined,
          },
        };
        const slots = await lockSlots(s, [slot.timeSlotId]);
        const visitor = await lockAndLoadVisitor(s, visitorKey);
        // The room's services: whether a reader booked into a started slot is checked in.
        const rooms = await roomStates(s.client, [slot.roomId]);
        const { transactionId } = command.data;
        return { ...emptyReservation, slots, visitor, rooms, transactionId, visitorKey };
      },
      decide: (state) => decideReservation(command, state, context()),
      appends: (decision, state) => reservationAppends(state, decision),
      record: (s, _decision, state) =>
        recordPersonalData(s, {
          ownerId: command.data.ownerId,
          owner: body,
          email,
          lastDate: state.slots.get(slot.timeSlotId)!.date,
        }),
      answer: (decision) => bookedAtOnceAnswer(command.data, decision),
    });
    return { ...answer, position };
  }

  return { book, staffBook };
}
