import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HolidayCreated,
  HolidayDeleted,
  HolidayUpdated,
  type HolidayEvent,
} from '@rr/events/catalogue';
import { scenario } from '../testing/given-when-then.ts';
import {
  decideHoliday,
  evolveHoliday,
  foldHolidays,
  holidayIdentity,
  type Holiday,
  type HolidayCommandState,
} from './holiday.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Fresh ids in order from n on: the context's newId. */
const idsFrom = (n: number) => () => id(n++);

/** Neujahr, created and updated once: version 2. */
const neujahr = foldHolidays([
  HolidayCreated.create({ holidayId: id(1), name: 'Neujahr', date: '2027-01-01' }),
  HolidayUpdated.create({ holidayId: id(1), name: 'Neujahr', date: '2027-01-01' }),
]);
const given: HolidayCommandState = {
  holidays: neujahr,
  identities: new Set([holidayIdentity('2027-01-01', 'Neujahr')]),
};
const nothing: HolidayCommandState = { holidays: new Map(), identities: new Set() };
const holidays = scenario(decideHoliday, { newId: idsFrom(10) });

describe('holiday decider', () => {
  it('creates a holiday', () => {
    const data = { holidayId: id(2), name: 'Ostermontag', description: 'x', date: '2027-03-29' };
    holidays
      .given(nothing)
      .when({ type: 'CreateHoliday', data })
      .then({ events: [HolidayCreated.create(data)], duplicates: 0 });
  });

  it('updates at the version the client saw; the event carries no version', () => {
    expect(neujahr.get(id(1))?.version).toBe(2);
    const details = { name: 'Neujahrstag', description: 'x', date: '2027-01-01' };
    holidays
      .given(given)
      .when({ type: 'UpdateHoliday', data: { holidayId: id(1), ...details, version: 2 } })
      .then({ events: [HolidayUpdated.create({ holidayId: id(1), ...details })], duplicates: 0 });
  });

  it('refuses an update at another version, and of an unknown holiday', () => {
    const details = { name: 'Neujahrstag', description: undefined, date: '2027-01-01' };
    for (const version of [1, 3])
      holidays
        .given(given)
        .when({ type: 'UpdateHoliday', data: { holidayId: id(1), ...details, version } })
        .thenRefused('concurrency__version_conflict');
    holidays
      .given(given)
      .when({ type: 'UpdateHoliday', data: { holidayId: id(2), ...details, version: 1 } })
      .thenRefused('not_found');
  });

  it('deletes a known holiday, refuses an unknown one', () => {
    holidays
      .given(given)
      .when({ type: 'DeleteHoliday', data: { holidayId: id(1) } })
      .then({ events: [HolidayDeleted.create({ holidayId: id(1) })], duplicates: 0 });
    holidays
      .given(given)
      .when({ type: 'DeleteHoliday', data: { holidayId: id(2) } })
      .thenRefused('not_found');
  });

  it('imports what is not known yet, by date and name ignoring case and outer spaces', () => {
    holidays
      .given(given)
      .when(
        {
          type: 'ImportHolidays',
          data: {
            holidays: [
              { date: '2027-01-01', name: 'NEUJAHR ', description: undefined },
              { date: '2027-01-06', name: 'Heilige Drei Könige', description: undefined },
              { date: '2027-01-06', name: ' heilige  drei\tkönige', description: 'again' },
              // the same name on another day is another holiday
              { date: '2028-01-01', name: 'Neujahr', description: undefined },
            ],
          },
        },
        { newId: idsFrom(10) },
      )
      .then({
        events: [
          HolidayCreated.create({
            holidayId: id(10),
            date: '2027-01-06',
            name: 'Heilige Drei Könige',
            description: undefined,
          }),
          HolidayCreated.create({
            holidayId: id(11),
            date: '2028-01-01',
            name: 'Neujahr',
            description: undefined,
          }),
        ],
        duplicates: 2,
      });
  });

  it('imports nothing when every holiday is known', () => {
    holidays
      .given(given)
      .when({
        type: 'ImportHolidays',
        data: { holidays: [{ date: '2027-01-01', name: 'neujahr', description: undefined }] },
      })
      .then({ events: [], duplicates: 1 });
  });
});

describe('holiday state', () => {
  /** Random histories of creations, updates and deletions of a few holidays. */
  const history = fc.array(
    fc.record({
      kind: fc.constantFrom('HolidayCreated', 'HolidayUpdated', 'HolidayDeleted'),
      holiday: fc.integer({ min: 1, max: 5 }),
      day: fc.integer({ min: 1, max: 28 }),
    }),
    { maxLength: 60 },
  );
  const toEvents = (steps: { kind: string; holiday: number; day: number }[]): HolidayEvent[] =>
    steps.map((s) =>
      s.kind === 'HolidayDeleted'
        ? { type: 'HolidayDeleted', data: { holidayId: id(s.holiday) } }
        : {
            type: s.kind as 'HolidayCreated' | 'HolidayUpdated',
            data: {
              holidayId: id(s.holiday),
              name: `H${s.day}`,
              date: `2027-02-${String(s.day).padStart(2, '0')}`,
            },
          },
    );

  it('folds a history into each holiday: its last details, its version its events since created', () => {
    fc.assert(
      fc.property(history, (steps) => {
        const events = toEvents(steps);
        const folded = foldHolidays(events);
        for (let h = 1; h <= 5; h++) {
          const own = events.filter((e) => e.data.holidayId === id(h));
          const lastDeletion = own.map((e) => e.type).lastIndexOf('HolidayDeleted');
          const alive = own.slice(lastDeletion + 1);
          const state = folded.get(id(h));
          if (alive.length === 0) expect(state).toBeUndefined();
          else {
            const last = alive[alive.length - 1]!;
            expect(state).toMatchObject({
              version: alive.length,
              date: (last.data as { date: string }).date,
            });
          }
        }
      }),
    );
  });

  it('evolves one holiday at a time the way the fold does (what the write side stores)', () => {
    fc.assert(
      fc.property(history, (steps) => {
        const events = toEvents(steps);
        const byOne = new Map<string, Holiday>();
        for (const e of events) {
          const next = evolveHoliday(byOne.get(e.data.holidayId), e);
          if (next) byOne.set(e.data.holidayId, next);
          else byOne.delete(e.data.holidayId);
        }
        expect(byOne).toEqual(foldHolidays(events));
      }),
    );
  });

  it('folds a long history in one pass (100,000 events)', () => {
    const events: HolidayEvent[] = Array.from({ length: 100_000 }, (_, i) => ({
      type: 'HolidayCreated',
      data: { holidayId: id(i), name: `H${i}`, date: '2027-03-01' },
    }));
    expect(foldHolidays(events).size).toBe(100_000);
  });
});
