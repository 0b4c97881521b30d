import { describe, expect, it } from 'vitest';
import {
  TicketBooked,
  TicketCancelled,
  TicketCheckedIn,
  TicketCheckInUndone,
  TicketHeld,
  TicketNoShowReleased,
  TimeSlotCreated,
  type RoomServices,
} from '@rr/events/catalogue';
import { NO_ROOM_SERVICES } from '@rr/contracts/rooms';
import { history, scenario } from '../testing/given-when-then.ts';
import type { Now } from '../decider.ts';
import { evolveSlot, initialSlotState, type SlotEvent } from './time-slot.ts';
import {
  checkInWindow,
  decideCheckIn,
  localMinute,
  UNDO_CHECK_IN_MINUTES,
  type CheckInState,
} from './check-in.ts';

const SLOT = '00000000-0000-4000-8000-000000000001';
const ROOM = '00000000-0000-4000-8000-000000000002';
const TICKET = '00000000-0000-4000-8000-000000000003';
const CART = '00000000-0000-4000-8000-000000000004';
const OWNER = 'b'.repeat(32);
const DATE = '2026-11-23';

/** The decision time at a local wall-clock time of the slot's day (the instant follows it in UTC+1). */
const at = (time: string, date = DATE): Now => ({
  now: new Date(`${date}T${time}:00+01:00`),
  today: date,
  time,
});

const withCheckIn: RoomServices = {
  ...NO_ROOM_SERVICES,
  checkInMinutesBefore: 15,
  noShowReleaseMinutes: 20,
};

const booked: SlotEvent[] = [
  TimeSlotCreated.create({
    timeSlotId: SLOT,
    roomId: ROOM,
    date: DATE,
    startTime: '10:00',
    endTime: '12:00',
    capacity: 5,
  }),
  TicketHeld.create({
    ticketId: TICKET,
    timeSlotId: SLOT,
    transactionId: CART,
    expiresAt: '2026-11-20T10:00:00.000Z',
  }),
  TicketBooked.create({ ticketId: TICKET, ownerId: OWNER }),
] as SlotEvent[];

const state = (services: RoomServices, ...more: SlotEvent[]): CheckInState => ({
  slot: history(evolveSlot, initialSlotState, ...booked, ...more),
  services,
});

const checkIn = { type: 'CheckIn' as const, data: { ticketId: TICKET } };
const undo = { type: 'UndoCheckIn' as const, data: { ticketId: TICKET } };
const release = { type: 'ReleaseNoShow' as const, data: { ticketId: TICKET } };
const checkedInAt = at('09:50').now.toISOString();
const checkedInEvent = TicketCheckedIn.create({ ticketId: TICKET, checkedInAt }) as SlotEvent;

describe('check-in window', () => {
  it('opens checkInMinutesBefore the start and closes with the release minute', () => {
    const w = checkInWindow({ date: DATE, startTime: '10:00', endTime: '12:00' }, withCheckIn)!;
    expect(w.opensAt).toBe(localMinute(DATE, '09:45'));
    expect(w.closesAt).toBe(localMinute(DATE, '10:20'));
    expect(w.releaseAt).toBe(localMinute(DATE, '10:20'));
  });
  it('closes with the last minute of the slot when no release is set', () => {
    const services = { ...withCheckIn, noShowReleaseMinutes: null };
    const w = checkInWindow({ date: DATE, startTime: '10:00', endTime: '12:00' }, services)!;
    expect(w.closesAt).toBe(localMinute(DATE, '11:59'));
    expect(w.releaseAt).toBeNull();
  });
  it('is none for a room without check-in', () => {
    expect(
      checkInWindow({ date: DATE, startTime: '10:00', endTime: '12:00' }, NO_ROOM_SERVICES),
    ).toBeNull();
  });
  it('may open on the day before (a slot just after midnight)', () => {
    const w = checkInWindow({ date: DATE, startTime: '00:10', endTime: '01:00' }, withCheckIn)!;
    expect(w.opensAt).toBe(localMinute('2026-11-22', '23:55'));
  });
});

describe('CheckIn', () => {
  it('checks a booked ticket in at the clock instant, from the opening minute on', () => {
    scenario(decideCheckIn, at('09:45'))
      .given(state(withCheckIn))
      .when(checkIn)
      .then([
        TicketCheckedIn.create({ ticketId: TICKET, checkedInAt: at('09:45').now.toISOString() }),
      ]);
  });
  it('still checks in at the release minute (the lock decides against the release)', () => {
    scenario(decideCheckIn, at('10:20'))
      .given(state(withCheckIn))
      .when(checkIn)
      .then((d) => {
        expect(d.map((e) => e.type)).toEqual(['TicketCheckedIn']);
      });
  });
  it('is refused before the window opens and after it closes', () => {
    const given = scenario(decideCheckIn, at('09:44')).given(state(withCheckIn));
    given.when(checkIn).thenRefused('check_in__not_open', {
      opensAt: '2026-11-23 09:45',
      closesAt: '2026-11-23 10:20',
    });
    given.when(checkIn, at('10:21')).thenRefused('check_in__not_open');
  });
  it('without a release, is open until the slot ends', () => {
    const services = { ...withCheckIn, noShowReleaseMinutes: null };
    const given = scenario(decideCheckIn, at('11:59')).given(state(services));
    given.when(checkIn).then((d) => expect(d).toHaveLength(1));
    given.when(checkIn, at('12:00')).thenRefused('check_in__not_open');
  });
  it('is refused in a room without check-in', () => {
    scenario(decideCheckIn, at('10:00'))
      .given(state(NO_ROOM_SERVICES))
      .when(checkIn)
      .thenRefused('check_in__not_offered');
  });
  it('is refused twice', () => {
    scenario(decideCheckIn, at('10:00'))
      .given(state(withCheckIn, checkedInEvent))
      .when(checkIn)
      .thenRefused('check_in__already_checked_in', { checkedInAt: checkedInAt });
  });
  it('is refused for a cancelled, a released or an unknown ticket', () => {
    const cancelled = TicketCancelled.create({ ticketId: TICKET, ownerId: OWNER }) as SlotEvent;
    scenario(decideCheckIn, at('10:00'))
      .given(state(withCheckIn, cancelled))
      .when(checkIn)
      .thenRefused('ticket__not_booked', { status: 'CANCELLED' });
    const released = TicketNoShowReleased.create({ ticketId: TICKET, ownerId: OWNER }) as SlotEvent;
    scenario(decideCheckIn, at('10:20'))
      .given(state(withCheckIn, released))
      .when(checkIn)
      .thenRefused('ticket__not_booked', { status: 'INVALID' });
    scenario(decideCheckIn, at('10:00'))
      .given(state(withCheckIn))
      .when({ type: 'CheckIn', data: { ticketId: CART } })
      .thenRefused('not_found');
  });
});

describe('UndoCheckIn', () => {
  it(`takes a check-in back within ${UNDO_CHECK_IN_MINUTES} minutes`, () => {
    scenario(decideCheckIn, at('10:00'))
      .given(state(withCheckIn, checkedInEvent))
      .when(undo)
      .then([TicketCheckInUndone.create({ ticketId: TICKET })]);
  });
  it('is refused later, or without a check-in', () => {
    scenario(decideCheckIn, at('10:01'))
      .given(state(withCheckIn, checkedInEvent))
      .when(undo)
      .thenRefused('check_in__undo_expired', { minutes: UNDO_CHECK_IN_MINUTES });
    scenario(decideCheckIn, at('10:00'))
      .given(state(withCheckIn))
      .when(undo)
      .thenRefused('check_in__not_checked_in');
  });
  it('leaves the ticket to be checked in again', () => {
    const undone = TicketCheckInUndone.create({ ticketId: TICKET }) as SlotEvent;
    scenario(decideCheckIn, at('10:05'))
      .given(state(withCheckIn, checkedInEvent, undone))
      .when(checkIn)
      .then((d) => expect(d.map((e) => e.type)).toEqual(['TicketCheckedIn']));
  });
});

describe('ReleaseNoShow', () => {
  it('releases a booked ticket not checked in from the release minute on (INVALID, a no-show)', () => {
    const given = state(withCheckIn);
    scenario(decideCheckIn, at('10:20'))
      .given(given)
      .when(release)
      .then((events) => {
        expect(events).toEqual([TicketNoShowReleased.create({ ticketId: TICKET, ownerId: OWNER })]);
        const after = history(evolveSlot, given.slot, ...(events as SlotEvent[]));
        expect(after.tickets.get(TICKET)).toMatchObject({ status: 'INVALID', noShow: true });
      });
  });
  it('is not due before the release minute, nor in a room without release', () => {
    scenario(decideCheckIn, at('10:19'))
      .given(state(withCheckIn))
      .when(release)
      .thenRefused('no_show__not_due', { releaseAt: '2026-11-23 10:20' });
    scenario(decideCheckIn, at('11:00'))
      .given(state({ ...withCheckIn, noShowReleaseMinutes: null }))
      .when(release)
      .thenRefused('no_show__not_due', { releaseAt: null });
  });
  it('never releases a checked-in ticket, nor one released already', () => {
    scenario(decideCheckIn, at('10:20'))
      .given(state(withCheckIn, checkedInEvent))
      .when(release)
      .thenRefused('check_in__already_checked_in');
    const released = TicketNoShowReleased.create({ ticketId: TICKET, ownerId: OWNER }) as SlotEvent;
    scenario(decideCheckIn, at('10:30'))
      .given(state(withCheckIn, released))
      .when(release)
      .thenRefused('ticket__not_booked');
  });
  it('releases a ticket whose check-in was undone', () => {
    const undone = TicketCheckInUndone.create({ ticketId: TICKET }) as SlotEvent;
    scenario(decideCheckIn, at('10:20'))
      .given(state(withCheckIn, checkedInEvent, undone))
      .when(release)
      .then((d) => expect(d.map((e) => e.type)).toEqual(['TicketNoShowReleased']));
  });
});

describe('check-in at a seat', () => {
  const SEAT = '00000000-0000-4000-8000-000000000010';
  const OTHER = '00000000-0000-4000-8000-000000000011';
  const seated = (seatId: string, label: string) =>
    ({
      slot: history(
        evolveSlot,
        initialSlotState,
        booked[0]!,
        TicketHeld.create({
          ticketId: TICKET,
          timeSlotId: SLOT,
          transactionId: CART,
          expiresAt: '2026-11-20T10:00:00.000Z',
          seat: { seatId, label },
        }) as SlotEvent,
        booked[2]!,
      ),
      services: withCheckIn,
    }) satisfies CheckInState;

  it('checks in the ticket holding the seat', () => {
    const events = decideCheckIn(
      { type: 'CheckIn', data: { ticketId: TICKET, atSeat: SEAT } },
      seated(SEAT, 'A1'),
      at('09:50'),
    );
    expect(events.map((e) => e.type)).toEqual(['TicketCheckedIn']);
  });

  it('refuses a ticket holding another seat, naming that seat, before the window', () => {
    for (const time of ['09:00', '09:50'])
      expect(() =>
        decideCheckIn(
          { type: 'CheckIn', data: { ticketId: TICKET, atSeat: OTHER } },
          seated(SEAT, 'A1'),
          at(time),
        ),
      ).toThrow(
        expect.objectContaining({ refusal: { code: 'check_in__other_seat', label: 'A1' } }),
      );
  });
});
