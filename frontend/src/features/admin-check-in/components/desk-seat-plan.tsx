import { useTranslation } from '../../../i18n/i18n-context';
import { SeatMark, type DeskSeatState } from '../../../components/seat-mark';
import { SeatPlanPicture } from '../../../components/seat-plan-picture';
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

/** The slot's seats at their places on the room's plan (seat-plan-picture.tsx). */
export function DeskSeatPlan({ slot }: { slot: DeskSlotSeats }) {
  return <SeatPlanPicture block="desk-seat-plan" image={slot.image} seats={slot.seats} />;
}
