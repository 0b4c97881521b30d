import { describe, expect, it } from 'vitest';
import {
  TicketBooked,
  TicketCancelled,
  TicketConfirmationLapsed,
  TicketConfirmed,
  TicketHeld,
  TimeSlotCreated,
  VisitorTicketCancelled,
} from '@rr/events/catalogue';
import { history, scenario } from '../testing/given-when-then.ts';
import { seatsTaken } from '../seats.ts';
import { evolveSlot, initialSlotState, type SlotEvent, type SlotState } from './time-slot.ts';
import {
  confirmationDeadline,
  decideConfirmation,
  earlierDeadline,
  type ConfirmationDecision,
} from './confirmation.ts';

const SLOT = '00000000-0000-4000-8000-000000000001';
const SLOT2 = '00000000-0000-4000-8000-000000000005';
const ROOM = '00000000-0000-4000-8000-000000000002';
const TICKET = '00000000-0000-4000-8000-000000000003';
const TICKET2 = '00000000-0000-4000-8000-000000000006';
const CART = '00000000-0000-4000-8000-000000000004';
const OWNER = 'b'.repeat(32);
const OTHER = 'c'.repeat(32);
const DATE = '2026-11-23';
const ZONE = 'Europe/Vienna';
/** The deadline of the booked tickets: 09:00 in Vienna (UTC+1 in November). */
const DEADLINE = '2026-11-23T08:00:00.000Z';

const at = (iso: string) => ({ now: new Date(iso) });

function slotWith(slotId: string, ticketId: string, ...more: SlotEvent[]): SlotState {
  return history(
    evolveSlot,
    initialSlotState,
    TimeSlotCreated.create({
      timeSlotId: slotId,
      roomId: ROOM,
      date: DATE,
      startTime: '10:00',
      endTime: '12:00',
      capacity: 1,
    }) as SlotEvent,
    TicketHeld.create({
      ticketId,
      timeSlotId: slotId,
      transactionId: CART,
      expiresAt: '2026-11-23T07:30:00.000Z',
    }) as SlotEvent,
    TicketBooked.create({ ticketId, ownerId: OWNER, confirmBy: DEADLINE }) as SlotEvent,
    ...more,
  );
}

const slots = (...pairs: [string, SlotState][]) => new Map(pairs);
const confirm = { type: 'ConfirmBooking' as const, data: { ownerId: OWNER } };
const lapse = { type: 'LapseConfirmation' as const, data: { ticketId: TICKET } };
const nothing: ConfirmationDecision = { slots: new Map(), visitor: [] };

describe('the confirmation deadline', () => {
  it('is the booking time plus confirmBookingMinutes', () => {
    expect(
      confirmationDeadline(
        new Date('2026-11-23T07:00:00.000Z'),
        { confirmBookingMinutes: 30 },
        { date: DATE, startTime: '10:00' },
        ZONE,
      ),
    ).toBe('2026-11-23T07:30:00.000Z');
  });
  it("is never past the slot's start, in the library's time zone", () => {
    expect(
      confirmationDeadline(
        new Date('2026-11-23T07:00:00.000Z'),
        { confirmBookingMinutes: 600 },
        { date: DATE, startTime: '10:00' },
        ZONE,
      ),
    ).toBe('2026-11-23T09:00:00.000Z');
  });
  it('is none in a room without the setting', () => {
    const now = new Date('2026-11-23T07:00:00.000Z');
    expect(confirmationDeadline(now, {}, { date: DATE, startTime: '10:00' }, ZONE)).toBeUndefined();
    expect(
      confirmationDeadline(now, undefined, { date: DATE, startTime: '10:00' }, undefined),
    ).toBeUndefined();
  });
  it("moves with a rebooked ticket, never past the new slot's start", () => {
    expect(earlierDeadline(DEADLINE, { date: DATE, startTime: '08:30' }, ZONE)).toBe(
      '2026-11-23T07:30:00.000Z',
    );
    expect(earlierDeadline(DEADLINE, { date: DATE, startTime: '14:00' }, ZONE)).toBe(DEADLINE);
  });
});

describe('a ticket awaiting confirmation', () => {
  it('takes its seat like a booked one', () => {
    const slot = slotWith(SLOT, TICKET);
    expect(slot.tickets.get(TICKET)).toMatchObject({ status: 'BOOKED', confirmBy: DEADLINE });
    expect(seatsTaken(slot, new Date('2026-11-23T07:45:00.000Z'))).toBe(1);
  });
});

describe('ConfirmBooking', () => {
  it("confirms every ticket of the owner awaiting confirmation, on each ticket's slot", () => {
    scenario(decideConfirmation, at('2026-11-23T07:59:00.000Z'))
      .given(slots([SLOT, slotWith(SLOT, TICKET)], [SLOT2, slotWith(SLOT2, TICKET2)]))
      .when(confirm)
      .then({
        slots: new Map([
          [SLOT, [TicketConfirmed.create({ ticketId: TICKET, ownerId: OWNER })]],
          [SLOT2, [TicketConfirmed.create({ ticketId: TICKET2, ownerId: OWNER })]],
        ]),
        visitor: [],
      });
  });
  it('changes nothing when confirmed already (confirming twice is no error)', () => {
    const confirmed = TicketConfirmed.create({ ticketId: TICKET, ownerId: OWNER }) as SlotEvent;
    scenario(decideConfirmation, at('2026-11-23T08:30:00.000Z'))
      .given(slots([SLOT, slotWith(SLOT, TICKET, confirmed)]))
      .when(confirm)
      .then(nothing);
  });
  it('is refused once released unconfirmed', () => {
    const lapsed = TicketConfirmationLapsed.create({ ticketId: TICKET, ownerId: OWNER });
    scenario(decideConfirmation, at('2026-11-23T08:01:00.000Z'))
      .given(slots([SLOT, slotWith(SLOT, TICKET, lapsed)]))
      .when(confirm)
      .thenRefused('booking__confirmation_lapsed');
  });
  it('is refused at the deadline, even before the job released the ticket', () => {
    scenario(decideConfirmation, at(DEADLINE))
      .given(slots([SLOT, slotWith(SLOT, TICKET)]))
      .when(confirm)
      .thenRefused('booking__confirmation_lapsed');
  });
  it('is no error after the deadline when another ticket of the booking was confirmed already', () => {
    // TICKET confirmed; TICKET2's deadline has come (released or not yet): nothing to confirm,
    // and the late ticket stays unconfirmed.
    const confirmed = TicketConfirmed.create({ ticketId: TICKET, ownerId: OWNER }) as SlotEvent;
    const released = TicketConfirmationLapsed.create({
      ticketId: TICKET2,
      ownerId: OWNER,
    }) as SlotEvent;
    for (const late of [slotWith(SLOT2, TICKET2), slotWith(SLOT2, TICKET2, released)])
      scenario(decideConfirmation, at('2026-11-23T08:30:00.000Z'))
        .given(slots([SLOT, slotWith(SLOT, TICKET, confirmed)], [SLOT2, late]))
        .when(confirm)
        .then(nothing);
  });
  it('does not touch another owner, and knows no owner without tickets', () => {
    scenario(decideConfirmation, at('2026-11-23T07:59:00.000Z'))
      .given(slots([SLOT, slotWith(SLOT, TICKET)]))
      .when({ type: 'ConfirmBooking', data: { ownerId: OTHER } })
      .thenRefused('not_found');
  });
  it('changes nothing for a booking never asked to confirm', () => {
    const plain = history(
      evolveSlot,
      initialSlotState,
      TimeSlotCreated.create({
        timeSlotId: SLOT,
        roomId: ROOM,
        date: DATE,
        startTime: '10:00',
        endTime: '12:00',
        capacity: 1,
      }) as SlotEvent,
      TicketHeld.create({
        ticketId: TICKET,
        timeSlotId: SLOT,
        transactionId: CART,
        expiresAt: '2026-11-23T07:30:00.000Z',
      }) as SlotEvent,
      TicketBooked.create({ ticketId: TICKET, ownerId: OWNER }) as SlotEvent,
    );
    scenario(decideConfirmation, at('2026-11-23T07:59:00.000Z'))
      .given(slots([SLOT, plain]))
      .when(confirm)
      .then(nothing);
  });
});

describe('LapseConfirmation', () => {
  it('releases a ticket whose deadline has come, and frees it for the per-visitor limits', () => {
    scenario(decideConfirmation, at(DEADLINE))
      .given(slots([SLOT, slotWith(SLOT, TICKET)]))
      .when(lapse)
      .then((d) => {
        expect(d).toEqual({
          slots: new Map([
            [SLOT, [TicketConfirmationLapsed.create({ ticketId: TICKET, ownerId: OWNER })]],
          ]),
          visitor: [VisitorTicketCancelled.create({ ticketId: TICKET })],
        });
        const after = d.slots.get(SLOT)!.reduce(evolveSlot, slotWith(SLOT, TICKET));
        expect(after.tickets.get(TICKET)).toMatchObject({ status: 'INVALID', unconfirmed: true });
        expect(seatsTaken(after, new Date(DEADLINE))).toBe(0);
      });
  });
  it('releases nothing before the deadline', () => {
    scenario(decideConfirmation, at('2026-11-23T07:59:59.000Z'))
      .given(slots([SLOT, slotWith(SLOT, TICKET)]))
      .when(lapse)
      .then(nothing);
  });
  it('releases nothing once confirmed, cancelled or released (the lock decided first)', () => {
    const confirmed = TicketConfirmed.create({ ticketId: TICKET, ownerId: OWNER }) as SlotEvent;
    const cancelled = TicketCancelled.create({ ticketId: TICKET, ownerId: OWNER }) as SlotEvent;
    const lapsed = TicketConfirmationLapsed.create({
      ticketId: TICKET,
      ownerId: OWNER,
    }) as SlotEvent;
    for (const event of [confirmed, cancelled, lapsed])
      scenario(decideConfirmation, at('2026-11-23T08:30:00.000Z'))
        .given(slots([SLOT, slotWith(SLOT, TICKET, event)]))
        .when(lapse)
        .then(nothing);
  });
});
