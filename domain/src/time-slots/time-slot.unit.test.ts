import { describe, expect, it } from 'vitest';
import {
  RoomCreated,
  RoomDeleted,
  TicketBooked,
  TicketCancelled,
  TicketHeld,
  TicketHoldExtended,
  TicketReleased,
  TimeSlotCapacityChanged,
  TimeSlotClosed,
  TimeSlotCreated,
  TimeSlotDeleted,
  TimeSlotUpdated,
  type TimeSlotLifecycleEvent,
} from '@rr/events/catalogue';
import { MAX_TIME_SLOTS_PER_REQUEST } from '@rr/contracts/timeslots';
import { addDays, minutesOf, weekdayOf, WEEKDAYS } from '../calendar.ts';
import { history, scenario } from '../testing/given-when-then.ts';
import { evolveRoom, initialRoomState } from '../rooms/room.ts';
import {
  decideTimeSlot,
  evolveSlot,
  initialSlotState,
  type SlotEvent,
  type SlotSeriesInput,
  type SlotState,
  type SlotTimes,
  type TimeSlotCommandState,
  type TimeSlotContext,
  type TimeSlotDecision,
} from './time-slot.ts';
import { seatsTaken } from '../seats.ts';
import { seatsForCarts } from '../seat-rule.ts';

/** The instant every decision here is made at; the other times are minutes from it. */
const NOW = new Date('2026-11-23T09:00:00Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const TODAY = NOW.toISOString().slice(0, 10);
/** The Monday a week after today (a Monday), and the days after it. */
const MONDAY = addDays(TODAY, 7);
const day = (n: number) => addDays(MONDAY, n);

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ROOM = '0b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const OTHER_ROOM = '2b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const OWNER = 'a'.repeat(32);

const roomDetails = {
  roomId: ROOM,
  name: 'Reading room',
  description: 'Quiet desks',
  capacity: 10,
  openStart: { type: 'DAY' as const, value: 0 },
  openEnd: { type: 'DAY' as const, value: 60 },
};
const room = history(evolveRoom, initialRoomState, RoomCreated.create(roomDetails));

/** Fresh slot ids in order from n on: the context's newId. */
const idsFrom = (n: number) => () => id(n++);
const context = (): TimeSlotContext => ({ now: NOW, newId: idsFrom(100) });

const given = (over: Partial<TimeSlotCommandState> = {}): TimeSlotCommandState => ({
  room,
  slots: new Map(),
  holidays: new Set(),
  taken: [],
  ...over,
});

/** A slot of a room on a day, with its ticket events. */
function slot(
  n: number,
  date: string,
  times: [string, string] = ['09:00', '10:00'],
  capacity = 10,
  roomId = ROOM,
  ...events: SlotEvent[]
): SlotState {
  return history(
    evolveSlot,
    initialSlotState,
    TimeSlotCreated.create({
      timeSlotId: id(n),
      roomId,
      date,
      startTime: times[0],
      endTime: times[1],
      capacity,
    }),
    ...events,
  );
}
/** When another slot of the room sits (the guard table's row). */
const takenAt = (n: number, date: string, start: string, end: string): SlotTimes => ({
  timeSlotId: id(n),
  date,
  startMin: minutesOf(start),
  endMin: minutesOf(end),
});

const series = (over: Partial<SlotSeriesInput> = {}) => ({
  type: 'CreateTimeSlots' as const,
  data: {
    roomId: ROOM,
    startDate: MONDAY,
    repeatUntil: day(13),
    daysOfWeek: ['MONDAY' as const, 'WEDNESDAY' as const],
    includeHolidays: false,
    startTime: '09:00',
    endTime: '10:00',
    capacity: 8,
    ...over,
  },
});
const createdOn = (n: number, date: string, over: { startTime?: string; endTime?: string } = {}) =>
  [
    id(n),
    [
      TimeSlotCreated.create({
        timeSlotId: id(n),
        roomId: ROOM,
        date,
        startTime: '09:00',
        endTime: '10:00',
        capacity: 8,
        ...over,
      }),
    ],
  ] as [string, TimeSlotLifecycleEvent[]];

describe('CreateTimeSlots', () => {
  it('creates one slot per matching weekday of the series, each a stream of its own with a new id', () => {
    // Monday and Wednesday of two weeks
    scenario(decideTimeSlot, context())
      .given(given())
      .when(series())
      .then(
        new Map([
          createdOn(100, day(0)),
          createdOn(101, day(2)),
          createdOn(102, day(7)),
          createdOn(103, day(9)),
        ]),
      );
  });

  it('skips holidays of the series unless they are included', () => {
    const holidays = new Set([day(2), day(3)]);
    scenario(decideTimeSlot, context())
      .given(given({ holidays }))
      .when(series())
      .then(new Map([createdOn(100, day(0)), createdOn(101, day(7)), createdOn(102, day(9))]));
    scenario(decideTimeSlot, context())
      .given(given({ holidays }))
      .when(series({ includeHolidays: true }))
      .then(
        new Map([
          createdOn(100, day(0)),
          createdOn(101, day(2)),
          createdOn(102, day(7)),
          createdOn(103, day(9)),
        ]),
      );
  });

  it('creates a one-off slot whatever its weekday, holiday or not', () => {
    const sunday = day(6);
    expect(weekdayOf(sunday)).toBe('SUNDAY');
    for (const repeatUntil of [null, undefined, sunday])
      scenario(decideTimeSlot, context())
        .given(given({ holidays: new Set([sunday]) }))
        .when(series({ startDate: sunday, repeatUntil, daysOfWeek: [] }))
        .then(new Map([createdOn(100, sunday)]));
  });

  it(`refuses more than ${MAX_TIME_SLOTS_PER_REQUEST} slots at once (validation__error on repeatUntil)`, () => {
    const everyDay = { daysOfWeek: [...WEEKDAYS], startDate: MONDAY };
    const refused = scenario(decideTimeSlot, context())
      .given(given())
      .when(series({ ...everyDay, repeatUntil: addDays(MONDAY, MAX_TIME_SLOTS_PER_REQUEST) }))
      .thenRefused('validation__error');
    expect(refused.fields).toEqual([
      { field: 'repeatUntil', rule: 'too_big', message: expect.any(String) as string },
    ]);
  });

  it(`creates exactly ${MAX_TIME_SLOTS_PER_REQUEST}, and counts the slots after skipping holidays`, () => {
    const everyDay = { daysOfWeek: [...WEEKDAYS], startDate: MONDAY };
    const exactly = scenario(decideTimeSlot, context())
      .given(given())
      .when(series({ ...everyDay, repeatUntil: addDays(MONDAY, MAX_TIME_SLOTS_PER_REQUEST - 1) }))
      .then((decision) => expect(decision.size).toBe(MAX_TIME_SLOTS_PER_REQUEST));
    const dates = (d: TimeSlotDecision) =>
      [...d.values()].flat().map((e) => (e.data as { date: string }).date);
    expect(dates(exactly)).toEqual(
      Array.from({ length: MAX_TIME_SLOTS_PER_REQUEST }, (_, i) => addDays(MONDAY, i)),
    );
    // one day too many, but a holiday of the range is skipped
    scenario(decideTimeSlot, context())
      .given(given({ holidays: new Set([day(1)]) }))
      .when(series({ ...everyDay, repeatUntil: addDays(MONDAY, MAX_TIME_SLOTS_PER_REQUEST) }))
      .then((decision) => {
        expect(decision.size).toBe(MAX_TIME_SLOTS_PER_REQUEST);
        expect(dates(decision)).not.toContain(day(1));
      });
  });

  it('refuses a series overlapping another slot of the room, naming the first clashing date', () => {
    const taken = [
      takenAt(1, day(9), '09:30', '10:30'),
      takenAt(2, day(7), '08:00', '09:01'),
      takenAt(3, day(0), '10:00', '11:00'), // touches: no clash
    ];
    scenario(decideTimeSlot, context())
      .given(given({ taken }))
      .when(series())
      .thenRefused('timeslot__overlapping', { date: day(7) });
  });

  it('allows touching ends, and other slots on days the series does not create', () => {
    const taken = [
      takenAt(1, day(0), '08:00', '09:00'),
      takenAt(2, day(0), '10:00', '11:00'),
      takenAt(3, day(1), '09:00', '10:00'), // a Tuesday
      takenAt(4, day(2), '09:00', '10:00'), // a holiday, skipped
    ];
    scenario(decideTimeSlot, context())
      .given(given({ taken, holidays: new Set([day(2)]) }))
      .when(series())
      .then(new Map([createdOn(100, day(0)), createdOn(101, day(7)), createdOn(102, day(9))]));
    // with the holiday included, its slot clashes
    scenario(decideTimeSlot, context())
      .given(given({ taken, holidays: new Set([day(2)]) }))
      .when(series({ includeHolidays: true }))
      .thenRefused('timeslot__overlapping', { date: day(2) });
  });

  it('refuses a room that does not exist or was deleted', () => {
    const deleted = history(evolveRoom, room, RoomDeleted.create({ roomId: ROOM }));
    for (const r of [initialRoomState, deleted]) {
      const refused = scenario(decideTimeSlot, context())
        .given(given({ room: r }))
        .when(series())
        .thenRefused('not_found');
      expect(refused.message).toBe('Room not found');
    }
  });
});

describe('UpdateTimeSlot', () => {
  const current = slot(1, day(0), ['09:00', '10:00'], 10);
  const slots = new Map([[id(1), current]]);
  const taken = [takenAt(1, day(0), '09:00', '10:00'), takenAt(2, day(0), '11:00', '12:00')];
  const update = (startTime: string, endTime: string, capacity = 10, over = {}) => ({
    type: 'UpdateTimeSlot' as const,
    data: { timeSlotId: id(1), roomId: ROOM, startTime, endTime, capacity, ...over },
  });

  it('answers no events when nothing changes', () => {
    scenario(decideTimeSlot, context())
      .given(given({ slots, taken }))
      .when(update('09:00', '10:00', 10))
      .then(new Map());
  });

  it('moves the slot on its day, overlapping its own old times but not another slot', () => {
    scenario(decideTimeSlot, context())
      .given(given({ slots, taken }))
      .when(update('09:30', '11:00', 12))
      .then(
        new Map([
          [
            id(1),
            [
              TimeSlotUpdated.create({
                timeSlotId: id(1),
                roomId: ROOM,
                date: day(0),
                startTime: '09:30',
                endTime: '11:00',
                capacity: 12,
              }),
            ],
          ],
        ]),
      );
  });

  it('changes the capacity alone', () => {
    scenario(decideTimeSlot, context())
      .given(given({ slots, taken }))
      .when(update('09:00', '10:00', 3))
      .then(
        new Map([
          [
            id(1),
            [
              TimeSlotUpdated.create({
                timeSlotId: id(1),
                roomId: ROOM,
                date: day(0),
                startTime: '09:00',
                endTime: '10:00',
                capacity: 3,
              }),
            ],
          ],
        ]),
      );
  });

  it('refuses times overlapping another slot of the room on its day', () => {
    scenario(decideTimeSlot, context())
      .given(given({ slots, taken }))
      .when(update('09:30', '11:30'))
      .thenRefused('timeslot__overlapping', { date: day(0) });
  });

  it('refuses a slot that is not of this room, unknown or deleted (not_found Time slot)', () => {
    const otherRoom = history(
      evolveRoom,
      initialRoomState,
      RoomCreated.create({ ...roomDetails, roomId: OTHER_ROOM }),
    );
    const deleted = history(
      evolveSlot,
      current,
      TimeSlotDeleted.create({ timeSlotId: id(1), roomId: ROOM }),
    );
    const refusals = [
      scenario(decideTimeSlot, context())
        .given(given({ room: otherRoom, slots, taken }))
        .when(update('09:00', '10:30', 10, { roomId: OTHER_ROOM }))
        .thenRefused('not_found'),
      ...[new Map<string, SlotState>(), new Map([[id(1), deleted]])].map((unknownOrDeleted) =>
        scenario(decideTimeSlot, context())
          .given(given({ slots: unknownOrDeleted, taken }))
          .when(update('09:00', '10:30'))
          .thenRefused('not_found'),
      ),
    ];
    for (const refused of refusals) expect(refused.message).toBe('Time slot not found');
  });

  it('refuses when the room is missing (not_found Room)', () => {
    const refused = scenario(decideTimeSlot, context())
      .given(given({ room: initialRoomState, slots, taken }))
      .when(update('09:00', '10:30'))
      .thenRefused('not_found');
    expect(refused.message).toBe('Room not found');
  });
});

describe('ChangeCapacity', () => {
  it('changes only the active slots of the room in the date range whose capacity differs', () => {
    const slots = new Map([
      [id(1), slot(1, day(0), undefined, 10)], // the first day: changed
      [id(2), slot(2, day(3), undefined, 5)], // has the capacity already
      [id(3), slot(3, day(4), undefined, 0)], // the last day: changed
      [id(4), slot(4, day(-1), undefined, 10)], // before the range
      [id(5), slot(5, day(5), undefined, 10)], // after the range
      [id(6), slot(6, day(2), undefined, 10, OTHER_ROOM)], // another room
      [
        id(7),
        history(
          evolveSlot,
          slot(7, day(2), undefined, 10),
          TimeSlotDeleted.create({ timeSlotId: id(7), roomId: ROOM }),
        ),
      ],
    ]);
    scenario(decideTimeSlot, context())
      .given(given({ slots }))
      .when({
        type: 'ChangeCapacity',
        data: { roomId: ROOM, fromDate: day(0), untilDate: day(4), capacity: 5 },
      })
      .then(
        new Map([
          [
            id(1),
            [TimeSlotCapacityChanged.create({ timeSlotId: id(1), roomId: ROOM, capacity: 5 })],
          ],
          [
            id(3),
            [TimeSlotCapacityChanged.create({ timeSlotId: id(3), roomId: ROOM, capacity: 5 })],
          ],
        ]),
      );
  });

  it('may cut the capacity below the tickets of a slot (it then shows as overbooked)', () => {
    const full = slot(
      1,
      day(0),
      undefined,
      2,
      ROOM,
      TicketHeld.create({
        ticketId: id(11),
        timeSlotId: id(1),
        transactionId: id(21),
        expiresAt: at(-60),
      }),
      TicketBooked.create({ ticketId: id(11), ownerId: OWNER }),
      TicketHeld.create({
        ticketId: id(12),
        timeSlotId: id(1),
        transactionId: id(22),
        expiresAt: at(10),
      }),
    );
    expect(seatsTaken(full, NOW)).toBe(2);
    scenario(decideTimeSlot, context())
      .given(given({ slots: new Map([[id(1), full]]) }))
      .when({
        type: 'ChangeCapacity',
        data: { roomId: ROOM, fromDate: day(0), untilDate: day(0), capacity: 1 },
      })
      .then(
        new Map([
          [
            id(1),
            [TimeSlotCapacityChanged.create({ timeSlotId: id(1), roomId: ROOM, capacity: 1 })],
          ],
        ]),
      );
  });
});

describe('DeleteTimeSlot', () => {
  const held = (ticket: number, expiresAt: string) =>
    TicketHeld.create({
      ticketId: id(ticket),
      timeSlotId: id(1),
      transactionId: id(100 + ticket),
      expiresAt,
    });
  const remove = { type: 'DeleteTimeSlot' as const, data: { timeSlotId: id(1), roomId: ROOM } };

  it('deletes a slot without tickets', () => {
    scenario(decideTimeSlot, context())
      .given(given({ slots: new Map([[id(1), slot(1, day(0))]]) }))
      .when(remove)
      .then(new Map([[id(1), [TimeSlotDeleted.create({ timeSlotId: id(1), roomId: ROOM })]]]));
  });

  it('refuses a slot with booked tickets or unexpired holds, naming booked and held apart', () => {
    const withTickets = slot(
      1,
      day(0),
      undefined,
      10,
      ROOM,
      held(1, at(-60)),
      TicketBooked.create({ ticketId: id(1), ownerId: OWNER }),
      held(2, at(1)),
      held(3, at(-5)),
      TicketHoldExtended.create({ ticketId: id(3), expiresAt: at(10) }),
      held(4, at(-1)), // expired
    );
    scenario(decideTimeSlot, context())
      .given(given({ slots: new Map([[id(1), withTickets]]) }))
      .when(remove)
      .thenRefused('timeslot__has_tickets', { seats: { booked: 1, held: 2, heldUntil: at(10) } });
  });

  it('does not count expired holds, released or cancelled tickets', () => {
    const past = slot(
      1,
      day(0),
      undefined,
      10,
      ROOM,
      held(1, at(-1)),
      held(2, at(0)),
      held(3, at(10)),
      TicketReleased.create({ ticketId: id(3), reason: 'transaction_removed' }),
      held(4, at(-60)),
      TicketBooked.create({ ticketId: id(4), ownerId: OWNER }),
      TicketCancelled.create({ ticketId: id(4), ownerId: OWNER }),
    );
    expect(seatsTaken(past, NOW)).toBe(0);
    scenario(decideTimeSlot, context())
      .given(given({ slots: new Map([[id(1), past]]) }))
      .when(remove)
      .then(new Map([[id(1), [TimeSlotDeleted.create({ timeSlotId: id(1), roomId: ROOM })]]]));
  });

  it('refuses a slot of another room, an unknown or a deleted one', () => {
    const other = slot(1, day(0), undefined, 10, OTHER_ROOM);
    const deleted = history(
      evolveSlot,
      slot(1, day(0)),
      TimeSlotDeleted.create({ timeSlotId: id(1), roomId: ROOM }),
    );
    for (const slots of [new Map([[id(1), other]]), new Map(), new Map([[id(1), deleted]])])
      scenario(decideTimeSlot, context())
        .given(given({ slots }))
        .when(remove)
        .thenRefused('not_found');
  });
});

describe('seatsForCarts', () => {
  it('is the capacity less taken seats, and never below zero when staff overbooked', () => {
    const seats = { waiting: 0, waitlistOn: false, started: false };
    expect(seatsForCarts({ ...seats, capacity: 10, taken: 5 })).toBe(5);
    expect(seatsForCarts({ ...seats, capacity: 5, taken: 5 })).toBe(0);
    expect(seatsForCarts({ ...seats, capacity: 5, taken: 7 })).toBe(0);
  });
});

describe('CloseTimeSlots', () => {
  const CLOSURE = id(900);
  const close = (fromDate: string, untilDate: string) =>
    ({
      type: 'CloseTimeSlots',
      data: { roomId: ROOM, fromDate, untilDate, closureId: CLOSURE, reason: 'Feiertag' },
    }) as const;
  const closed = (n: number) =>
    TimeSlotClosed.create({
      timeSlotId: id(n),
      roomId: ROOM,
      closureId: CLOSURE,
      reason: 'Feiertag',
    });

  it('closes the active slots of the room in the date range, booked ones too', () => {
    const booked = slot(
      3,
      day(2),
      undefined,
      10,
      ROOM,
      TicketHeld.create({
        ticketId: id(11),
        timeSlotId: id(3),
        transactionId: id(21),
        expiresAt: at(5),
      }),
      TicketBooked.create({ ticketId: id(11), ownerId: OWNER }),
    );
    const slots = new Map([
      [id(1), slot(1, day(0))], // the first day
      [id(2), slot(2, day(-1))], // before the range
      [id(3), booked], // a booked slot closes all the same (its tickets stay)
      [id(4), slot(4, day(3), undefined, 10, OTHER_ROOM)], // another room
      [id(5), slot(5, day(4))], // after the range
    ]);
    scenario(decideTimeSlot, context())
      .given(given({ slots }))
      .when(close(day(0), day(3)))
      .then(
        new Map([
          [id(1), [closed(1)]],
          [id(3), [closed(3)]],
        ]),
      );
  });

  it('ends the seats held in carts with the closure, on the slot stream, and leaves bookings', () => {
    const hold = (ticket: number) =>
      TicketHeld.create({
        ticketId: id(ticket),
        timeSlotId: id(1),
        transactionId: id(ticket + 10),
        expiresAt: at(5),
      });
    const slots = new Map([
      [
        id(1),
        slot(
          1,
          day(0),
          undefined,
          10,
          ROOM,
          hold(11),
          hold(12),
          TicketBooked.create({ ticketId: id(12), ownerId: OWNER }),
          hold(13),
        ),
      ],
    ]);
    scenario(decideTimeSlot, context())
      .given(given({ slots }))
      .when(close(day(0), day(0)))
      .then(
        new Map([
          [
            id(1),
            [
              closed(1),
              TicketReleased.create({ ticketId: id(11), reason: 'closed' }),
              TicketReleased.create({ ticketId: id(13), reason: 'closed' }),
            ],
          ],
        ]),
      );
  });

  it('leaves a slot closed already as it is: a closure run twice changes nothing', () => {
    const slots = new Map([
      [id(1), history(evolveSlot, slot(1, day(0)), closed(1))],
      [id(2), slot(2, day(0), ['11:00', '12:00'])],
    ]);
    scenario(decideTimeSlot, context())
      .given(given({ slots }))
      .when(close(day(0), day(0)))
      .then(new Map([[id(2), [closed(2)]]]));
  });

  it('folds the closure into the slot, which the seat rule then calls not open', () => {
    const state = history(evolveSlot, slot(1, day(0)), closed(1));
    expect(state.closed).toEqual({ closureId: CLOSURE, reason: 'Feiertag' });
    expect(state.status).toBe('active');
  });
});
