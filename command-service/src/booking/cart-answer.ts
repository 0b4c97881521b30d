import { randomBytes } from 'node:crypto';
import type { CartTicket as Ticket } from '@rr/events';
import {
  evolveTransaction,
  stillHeld,
  type ReservationDecision,
  type SlotState,
  type RoomState,
  type TransactionState,
} from '@rr/domain';
import { z } from '@rr/platform';

export const CartTicket = z
  .object({
    id: z.uuid(),
    timeSlotId: z.uuid(),
    roomId: z.uuid(),
    roomName: z.string(),
    roomNameEn: z
      .string()
      .optional()
      .openapi({ description: "The room name's English text; absent: roomName serves both" }),
    date: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    status: z.string(),
    seat: z
      .object({ id: z.uuid(), label: z.string() })
      .nullable()
      .openapi({ description: "The ticket's seat in a room with a seat plan; null: none" }),
  })
  .openapi('CartTicket');

export const CartAnswer = z
  .object({
    transactionId: z.uuid(),
    expiredAt: z.string(),
    ticket: CartTicket.optional(),
    tickets: z.array(CartTicket),
    position: z.string(),
  })
  .openapi('CartAnswer');

/**
 * A ticket as the visitor's answers show it, with its room's name, and its seat as its slot has it
 * now (`slots`, as decided on: staff may have moved it since the cart took it), else as the cart
 * took it.
 */
export function ticketView(
  rooms: ReadonlyMap<string, RoomState>,
  t: Ticket,
  status: 'NEW' | 'BOOKED',
  slots: ReadonlyMap<string, SlotState> = new Map(),
): z.output<typeof CartTicket> {
  const room = rooms.get(t.roomId);
  const seat = slots.get(t.timeSlotId)?.tickets.get(t.ticketId)?.seat ?? t.seat;
  return {
    id: t.ticketId,
    timeSlotId: t.timeSlotId,
    roomId: t.roomId,
    roomName: room?.name ?? '',
    ...(room?.nameEn ? { roomNameEn: room.nameEn } : {}),
    date: t.date,
    startTime: t.startTime,
    endTime: t.endTime,
    status,
    seat: seat ? { id: seat.seatId, label: seat.label } : null,
  };
}

/**
 * The cart after a decision (its events folded as the cart's stream folds them): its tickets still
 * holding a seat (a closure of its slot ends a hold: `slots`, the cart's slots as decided on) and
 * expiry, and the ticket just added.
 */
export function cartAnswer(
  rooms: ReadonlyMap<string, RoomState>,
  cart: TransactionState,
  decision: Pick<ReservationDecision, 'transaction'>,
  ticketId?: string,
  slots: ReadonlyMap<string, SlotState> = new Map(),
) {
  const after = decision.transaction.reduce(evolveTransaction, cart);
  const view = after.tickets
    .filter((t) => stillHeld({ slots }, t))
    .map((t) => ticketView(rooms, t, 'NEW', slots));
  return {
    expiredAt: after.expiresAt ?? '',
    tickets: view,
    ticket: view.find((t) => t.id === ticketId),
  };
}

/** Booking numbers: short, unambiguous (no 0/O, 1/I), searchable by staff; owner ids stay 128-bit random. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export function newBookingNumber(): string {
  const bytes = randomBytes(6);
  return `R-${[...bytes].map((b) => ALPHABET[b % 32]).join('')}`;
}
export const newOwnerId = () => randomBytes(16).toString('hex');

/**
 * What a booking made at once (a staff booking, a walk-in) answers: its owner link and number,
 * its one ticket with the seat it took and, when the reader was checked in with it, when.
 */
export function bookedAtOnceAnswer(
  data: { ownerId: string; bookingNumber: string; ticketId: string },
  decision: ReservationDecision,
): {
  ownerId: string;
  bookingNumber: string;
  ticketId: string;
  checkedInAt: string | null;
  seat: { id: string; label: string } | null;
} {
  const events = [...decision.slots.values()].flat();
  const checkedIn = events.find((e) => e.type === 'TicketCheckedIn');
  const held = events.find((e) => e.type === 'TicketHeld');
  const seat = held?.type === 'TicketHeld' ? held.data.seat : undefined;
  return {
    ownerId: data.ownerId,
    bookingNumber: data.bookingNumber,
    ticketId: data.ticketId,
    checkedInAt: checkedIn?.type === 'TicketCheckedIn' ? checkedIn.data.checkedInAt : null,
    seat: seat ? { id: seat.seatId, label: seat.label } : null,
  };
}
