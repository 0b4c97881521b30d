import { randomUUID } from 'node:crypto';
import {
  decideReservation,
  emailDomainOf,
  emptyReservation,
  limitsKeyOf,
  normalizeEmail,
  type ReservationCommand,
} from '@rr/domain';
import type { z } from '@rr/platform';
import type { WalkInInput } from '@rr/contracts';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { roomStates } from '../write-state.ts';
import { bookedAtOnceAnswer, newBookingNumber, newOwnerId } from '../booking/cart-answer.ts';
import {
  loadPerson,
  personKeysOf,
  reservationAppends,
  type LoadedReservation,
  type SignedInVisitor,
} from '../booking/store.ts';
import { recordPersonalData } from '../owner/personal-data.ts';
import { lockSlots } from '../streams/timeslot.ts';

/** What a walk-in answers: the booking (its owner link and number) and its one ticket. */
export interface WalkInAnswer {
  ownerId: string;
  bookingNumber: string;
  ticketId: string;
  checkedInAt: string | null;
  seat: { id: string; label: string } | null;
  position: string;
}

/**
 * A walk-in at a seat (docs/product.md#at-the-seat): the visitor books the free seat they stand
 * at in the slot under way, with the booking form's data. The slot's stream, the visitor's stream
 * and the address's blacklist entry and no-show days are decided together in one transaction
 * (the slot's lock first, as a staff booking takes them), so two walk-ins for one seat book it
 * once. The confirmation mail goes out as for any booking (from `TransactionBooked`).
 */
export async function walkIn(
  deps: CommandDeps,
  at: { roomId: string; seatId: string },
  body: z.output<typeof WalkInInput>,
  member: SignedInVisitor,
): Promise<WalkInAnswer> {
  const { limits } = deps;
  const email = normalizeEmail(body.email);
  const keys = personKeysOf(deps, email, member);
  const { visitorKey, subjectKey } = keys;
  const { timeSlotId, language } = body;
  let command: Extract<ReservationCommand, { type: 'WalkIn' }>;
  const { answer, position } = await handleCommand(deps.store, {
    actor: { kind: 'visitor' },
    load: async (s): Promise<LoadedReservation> => {
      // New numbers on each attempt: a clash of a booking number is retried.
      command = {
        type: 'WalkIn',
        data: {
          ...at,
          timeSlotId,
          transactionId: randomUUID(),
          ticketId: randomUUID(),
          ownerId: newOwnerId(),
          bookingNumber: newBookingNumber(),
          visitorKey,
          subjectKey,
          language,
          emailDomain: emailDomainOf(email),
          member,
        },
      };
      const slots = await lockSlots(s, [timeSlotId]);
      const person = await loadPerson(s, keys, limits);
      const rooms = await roomStates(s.client, [at.roomId]);
      const { transactionId } = command.data;
      return {
        ...emptyReservation,
        slots,
        ...person,
        rooms,
        transactionId,
        visitorKey: limitsKeyOf(keys),
      };
    },
    decide: (state) =>
      decideReservation(command, state, {
        ...decisionTime(deps),
        limits,
        timeZone: deps.timeZone,
      }),
    appends: (decision, state) => reservationAppends(state, decision),
    record: (s, _decision, state) =>
      recordPersonalData(s, {
        ownerId: command.data.ownerId,
        owner: body,
        email,
        subject: member?.subject ?? null,
        lastDate: state.slots.get(timeSlotId)!.date,
      }),
    answer: (decision) => bookedAtOnceAnswer(command.data, decision),
  });
  return { ...answer, position };
}
