import type { SeatState } from '@rr/contracts/seats';

/**
 * A seat's state as a shape with a mark, told apart without colour too (the same on the plan, in
 * the list and in the legend): free an outlined square with a check, taken a filled one with a
 * cross, out of service a hatched one with a dash; the chosen seat a double-bordered one with a dot.
 */
export function SeatMark({
  state,
  chosen = false,
  rotation = 0,
}: {
  state: SeatState;
  chosen?: boolean;
  /** The seat's rotation on the plan: its mark turns back, so it reads upright. */
  rotation?: number;
}) {
  return (
    <span
      className={`seat-mark seat-mark--${state}${chosen ? ' seat-mark--chosen' : ''}`}
      aria-hidden="true"
    >
      <span
        className="seat-mark__icon"
        style={rotation ? { transform: `rotate(${-rotation}deg)` } : undefined}
      >
        {chosen ? '●' : state === 'free' ? '✓' : state === 'taken' ? '✕' : '–'}
      </span>
    </span>
  );
}
