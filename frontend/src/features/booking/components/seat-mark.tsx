import type { SeatState } from '@rr/contracts/seats';

/**
 * A seat's state as a shape with a mark, told apart without colour too (the same on the plan, in
 * the list and in the legend): free an outlined square with a check, taken a filled one with a
 * cross, out of service a hatched one with a dash; the chosen seat a double-bordered one with a dot.
 */
export function SeatMark({ state, chosen = false }: { state: SeatState; chosen?: boolean }) {
  return (
    <span
      className={`seat-mark seat-mark--${state}${chosen ? ' seat-mark--chosen' : ''}`}
      aria-hidden="true"
    >
      <span className="seat-mark__icon">
        {chosen ? '●' : state === 'free' ? '✓' : state === 'taken' ? '✕' : '–'}
      </span>
    </span>
  );
}
