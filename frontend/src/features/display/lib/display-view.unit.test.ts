import { describe, expect, it } from 'vitest';
import type { DisplaySlot } from '../../../api/types';
import { NEXT_SHOWN, nextOf, seatLevel } from './display-view';

const slot = (date: string, startTime: string, freeSeats = 5, capacity = 10): DisplaySlot => ({
  id: `${date}-${startTime}`,
  date,
  startTime,
  endTime: '23:00',
  capacity,
  freeSeats,
  bookableFrom: null,
});

describe('seatLevel', () => {
  it('is full without free seats, few with a fifth or 2 seats left, free otherwise', () => {
    expect(seatLevel({ freeSeats: 0, capacity: 10 })).toBe('full');
    expect(seatLevel({ freeSeats: 2, capacity: 100 })).toBe('few');
    expect(seatLevel({ freeSeats: 20, capacity: 100 })).toBe('few');
    expect(seatLevel({ freeSeats: 21, capacity: 100 })).toBe('free');
    expect(seatLevel({ freeSeats: 3, capacity: 4 })).toBe('free');
  });
});

describe('nextOf', () => {
  const room = { id: 'r', name: 'Room', current: null };
  it("shows the first of today's next slots", () => {
    const next = ['10:00', '11:00', '12:00', '13:00'].map((t) => slot('2026-11-23', t));
    expect(nextOf({ ...room, next }, '2026-11-23')).toEqual({
      today: next.slice(0, NEXT_SHOWN),
      later: undefined,
    });
  });

  it('shows the first slot of a later day when none is left today', () => {
    const later = slot('2026-11-25', '09:00');
    expect(nextOf({ ...room, next: [later] }, '2026-11-23')).toEqual({ today: [], later });
    expect(nextOf({ ...room, next: [] }, '2026-11-23')).toEqual({ today: [], later: undefined });
  });
});
