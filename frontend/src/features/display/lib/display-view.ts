import type { DisplayRoom, DisplaySlot } from '../../../api/types';

/**
 * How a slot's free seats are shown: a word as well as a colour (never colour alone). `few`: at
 * most a fifth of the capacity, or at most 2 seats, is left.
 */
export type SeatLevel = 'full' | 'few' | 'free';

export function seatLevel({
  freeSeats,
  capacity,
}: Pick<DisplaySlot, 'freeSeats' | 'capacity'>): SeatLevel {
  if (freeSeats <= 0) return 'full';
  return freeSeats <= 2 || freeSeats * 5 <= capacity ? 'few' : 'free';
}

/** At most this many of today's next slots per room: a screen is read at a glance. */
export const NEXT_SHOWN = 3;

/**
 * A room's next slots as the screen shows them: today's (the first few), or, when none is left
 * today, the first one of a later day.
 */
export function nextOf(
  room: DisplayRoom,
  today: string,
): { today: DisplaySlot[]; later?: DisplaySlot } {
  const ofToday = room.next.filter((slot) => slot.date === today);
  return {
    today: ofToday.slice(0, NEXT_SHOWN),
    later: ofToday.length ? undefined : room.next.find((slot) => slot.date > today),
  };
}
