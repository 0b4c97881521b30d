import { describe, expect, it } from 'vitest';
import { moveDays, type MoveSlot } from './move-choices';

const slot = (id: string, date: string, startTime: string, over: Partial<MoveSlot> = {}) => ({
  id,
  date,
  startTime,
  endTime: '23:00',
  capacity: 5,
  ticketCount: 1,
  failedRules: [],
  ...over,
});

describe('moveDays (the move dialog)', () => {
  it('groups the slots by day in time order, each free or with why it cannot take the ticket', () => {
    const days = moveDays(
      [
        slot('c', '2026-12-08', '10:00'),
        slot('own', '2026-12-07', '08:00'),
        slot('full', '2026-12-07', '12:00', {
          ticketCount: 7,
          failedRules: ['timeslot_no_tickets_left'],
        }),
        slot('a', '2026-12-07', '10:00'),
        slot('overlap', '2026-12-08', '12:00', { failedRules: ['max_tickets_per_time_reached'] }),
      ],
      'own',
    );
    expect(days.map((d) => [d.date, d.free])).toEqual([
      ['2026-12-07', 1],
      ['2026-12-08', 1],
    ]);
    expect(days[0]!.choices.map((c) => [c.slot.id, c.refusal, c.freeSeats])).toEqual([
      ['own', 'own', 4],
      ['a', null, 4],
      ['full', 'full', 0],
    ]);
    expect(days[1]!.choices.map((c) => c.refusal)).toEqual([null, 'other']);
  });

  it('leaves out what the visitor calendar hides: closed, outside the window, no seats', () => {
    expect(
      moveDays(
        [
          slot('closed', '2026-12-07', '08:00', { failedRules: ['timeslot_not_open'] }),
          slot('none', '2026-12-07', '10:00', { capacity: 0 }),
        ],
        'x',
      ),
    ).toEqual([]);
  });
});
