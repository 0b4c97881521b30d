/**
 * Pure rules of the visitor's seat picker (docs/product.md#picking-a-seat): which seat the arrow
 * keys move to on the plan, which seats the attribute filters keep, and the view remembered on
 * the device.
 */
import type { SeatAttribute, SeatState } from '@rr/contracts/seats';

/** A seat as the plan places it: per cent of the plan's width (x) and height (y). */
export interface PlacedSeat {
  id: string;
  x: number;
  y: number;
}

export type Direction = 'left' | 'right' | 'up' | 'down';

const DIRECTIONS: Readonly<Record<string, Direction>> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

/** The direction an arrow key names; undefined for any other key. */
export const directionOf = (key: string): Direction | undefined => DIRECTIONS[key];

/**
 * The nearest seat from `from` in `direction`: among the seats lying that way (within 45° of it),
 * the one at the smallest distance, where a step across the direction counts twice as much as
 * one along it (so "right" prefers the next seat of the row over a nearer one of the next row).
 * Undefined when no seat lies that way. `aspect` is the plan's width over its height: per cent
 * of the width and of the height are not the same length.
 */
export function nearestSeat<S extends PlacedSeat>(
  seats: readonly S[],
  from: PlacedSeat,
  direction: Direction,
  aspect = 1,
): S | undefined {
  let best: S | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const seat of seats) {
    if (seat.id === from.id) continue;
    const dx = (seat.x - from.x) * aspect;
    const dy = seat.y - from.y;
    const [along, across] =
      direction === 'left'
        ? [-dx, dy]
        : direction === 'right'
          ? [dx, dy]
          : direction === 'up'
            ? [-dy, dx]
            : [dy, dx];
    if (along <= 0 || Math.abs(across) > along) continue;
    const score = along + 2 * Math.abs(across);
    if (score < bestScore) {
      bestScore = score;
      best = seat;
    }
  }
  return best;
}

/** The seat the plan's tab stop starts on: the chosen one, else the first free one, else the first. */
export function startSeat<S extends { id: string; state: SeatState }>(
  seats: readonly S[],
  chosen: string | null,
): S | undefined {
  return (
    seats.find((seat) => seat.id === chosen) ??
    seats.find((seat) => seat.state === 'free') ??
    seats[0]
  );
}

/** Whether a seat has every attribute the visitor asks for (no filter: every seat does). */
export const matchesFilters = (
  attributes: readonly SeatAttribute[],
  filters: readonly SeatAttribute[],
): boolean => filters.every((filter) => attributes.includes(filter));

/** The seat picker's two views; the visitor's choice is kept on the device. */
export type SeatView = 'plan' | 'list';

/** localStorage key of the chosen view (docs/product.md#picking-a-seat). */
export const SEAT_VIEW_KEY = 'seatView';

export function readSeatView(): SeatView {
  try {
    return window.localStorage.getItem(SEAT_VIEW_KEY) === 'list' ? 'list' : 'plan';
  } catch {
    return 'plan';
  }
}

export function writeSeatView(view: SeatView): void {
  try {
    window.localStorage.setItem(SEAT_VIEW_KEY, view);
  } catch {
    // storage disabled: the choice lasts for this page view
  }
}
