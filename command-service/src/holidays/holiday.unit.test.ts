import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HolidayEvent } from '@rr/events';
import { Problem } from '@rr/platform';
import {
  decideHolidayDelete,
  decideHolidayImport,
  decideHolidayUpdate,
  evolveHoliday,
  foldHolidays,
  holidayIdentity,
  type Holiday,
} from './holiday.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const holiday: Holiday = {
  id: id(1),
  name: 'Neujahr',
  description: undefined,
  date: '2027-01-01',
  version: 2,
};
const statusOf = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    if (err instanceof Problem) return err.status;
    throw err;
  }
  return 200;
};

describe('holiday deciders', () => {
  it('updates at the version the client saw, else 409; an unknown holiday is 404', () => {
    const details = { name: 'Neujahrstag', description: 'x', date: '2027-01-01' };
    expect(decideHolidayUpdate(holiday, { ...details, version: 2 })).toEqual([
      expect.objectContaining({ type: 'HolidayUpdated', data: { holidayId: id(1), ...details } }),
    ]);
    expect(statusOf(() => decideHolidayUpdate(holiday, { ...details, version: 1 }))).toBe(409);
    expect(statusOf(() => decideHolidayUpdate(undefined, { ...details, version: 1 }))).toBe(404);
    expect(statusOf(() => decideHolidayDelete(undefined))).toBe(404);
  });

  it('imports what is not known yet, by date and name ignoring case and spaces', () => {
    let n = 10;
    const decision = decideHolidayImport(
      [
        { date: '2027-01-01', name: 'NEUJAHR ', description: undefined },
        { date: '2027-01-06', name: 'Heilige Drei Könige', description: undefined },
        { date: '2027-01-06', name: 'heilige drei könige', description: undefined },
      ],
      new Set([holidayIdentity('2027-01-01', 'Neujahr')]),
      () => id(n++),
    );
    expect(decision.duplicates).toBe(2);
    expect(decision.events.map((e) => e.data)).toEqual([
      {
        holidayId: id(10),
        date: '2027-01-06',
        name: 'Heilige Drei Könige',
        description: undefined,
      },
    ]);
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
