import type { SeatState } from '@rr/contracts/seats';
import '../styles/seat-marks.css';

/**
 * A seat's state as the desk tells them apart: the visitor's three, and of a taken seat whether a
 * cart or offer holds it, a booking not yet checked in, or a reader checked in.
 */
export type DeskSeatState = SeatState | 'held' | 'booked' | 'checked_in';

const ICONS: Record<DeskSeatState, string> = {
  free: '✓',
  taken: '✕',
  out_of_service: '–',
  held: '✕',
  booked: '○',
  checked_in: '●',
};

/**
 * A seat's state as a shape with a mark, told apart without colour too (the same on the plan, in
 * the list and in the legend): free an outlined square with a check, taken a filled one with a
 * cross, out of service a hatched one with a dash; the chosen seat a double-bordered one with a dot.
 * At the desk a booked seat is a filled square with a ring, a checked-in one with a dot.
 */
export function SeatMark({
  state,
  chosen = false,
  rotation = 0,
}: {
  state: DeskSeatState;
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
        {chosen ? '●' : ICONS[state]}
      </span>
    </span>
  );
}
