import { useConfig } from '../../../app/config-context';
import { useTranslation } from '../../../i18n/i18n-context';
import { resolveApiUrl } from '../../../lib/url';
import { SeatMark, type DeskSeatState } from '../../../components/seat-mark';
import type { DeskSlotSeats } from '../api/desk-seats-api';

/** The states the desk tells apart, in the legend's order. */
export const DESK_STATES: readonly DeskSeatState[] = [
  'free',
  'held',
  'booked',
  'checked_in',
  'out_of_service',
];

/** What each mark means, for the plan and the list. */
export function DeskSeatLegend() {
  const { t } = useTranslation('admin-check-in');
  return (
    <ul className="seat-legend desk-seats__legend">
      {DESK_STATES.map((state) => (
        <li key={state}>
          <SeatMark state={state} /> <span>{t(`seats.state.${state}`)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The slot's seats at their places on the room's plan (its image, always an `<img>`, or a grid).
 * A picture for the eye: the list beside it says the same in words, so the plan is hidden from
 * screen readers.
 */
export function DeskSeatPlan({ slot }: { slot: DeskSlotSeats }) {
  const { baseApiUrl } = useConfig();
  return (
    <div
      className={`desk-seat-plan${slot.image ? '' : ' desk-seat-plan--grid'}`}
      aria-hidden="true"
    >
      {slot.image ? (
        <img
          className="desk-seat-plan__image"
          src={resolveApiUrl(baseApiUrl, slot.image.url)}
          alt=""
        />
      ) : null}
      {slot.seats.map((seat) => (
        <span
          key={seat.id}
          className="desk-seat-plan__seat"
          data-seat-label={seat.label}
          data-state={seat.state}
          style={{ left: `${seat.x}%`, top: `${seat.y}%` }}
        >
          <span style={{ transform: `rotate(${seat.rotation}deg)` }}>
            <SeatMark state={seat.state} rotation={seat.rotation} />
          </span>
          <span className="desk-seat-plan__label">{seat.label}</span>
        </span>
      ))}
    </div>
  );
}
