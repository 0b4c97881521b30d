import type { SeatState } from '@rr/contracts/seats';
import type { DisplayRoom } from '../../../api/types';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatTimeRange } from '../../../lib/dates';
import { SeatMark } from '../../../components/seat-mark';
import { SeatPlanPicture } from '../../../components/seat-plan-picture';

type SeatPlan = NonNullable<DisplayRoom['seatPlan']>;

const STATES: readonly SeatState[] = ['free', 'taken', 'out_of_service'];

/**
 * A room's seat plan on the foyer display (docs/product.md#staff-and-display-views): each seat at
 * its place, free or taken by the visitor seat picker's marks (an outlined square with a check, a
 * filled one with a cross, a hatched one with a dash), and the counts in words beside them. No
 * personal data. The plan is for the eye; the counts say it to a screen reader.
 */
export function DisplaySeatPlan({ plan, time }: { plan: SeatPlan; time: string }) {
  const { t } = useTranslation('display');
  const count = (state: SeatState) => plan.seats.filter((seat) => seat.state === state).length;
  return (
    <figure className="display-seat-plan">
      <figcaption className="display-room__label">{t('seat-plan-of', { time })}</figcaption>
      <SeatPlanPicture block="display-seat-plan" image={plan.image} seats={plan.seats} />
      <ul className="seat-legend display-seat-plan__legend">
        {STATES.filter((state) => state !== 'out_of_service' || count(state) > 0).map((state) => (
          <li key={state}>
            <SeatMark state={state} />{' '}
            <span>{t('seat-count', { count: count(state), state: t(`seat-state.${state}`) })}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** The slot whose seats a room's plan shows, as "10:00-12:00". */
export function planTime(room: DisplayRoom): string {
  const slot =
    [room.current, ...room.next].find((s) => s?.id === room.seatPlan?.timeSlotId) ?? null;
  return slot ? formatTimeRange(slot.startTime, slot.endTime) : '';
}
