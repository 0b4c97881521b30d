import { positionSeen } from '../../../api/consistency-slice';
import { useConfig } from '../../../app/config-context';
import { useAppDispatch } from '../../../app/hooks';
import type { YearMonth } from '../../../lib/calendar';
import { useLiveAvailability } from '../../../lib/live-availability';
import { bookingApi } from '../api/booking-api';

/**
 * Keeps the room's month as the visitor sees it current while it is shown: on each change the
 * live availability reports (and when its stream opens) the slot lists are read again, with the
 * stream's position as X-Min-Position, so a slot (or seat) taken meanwhile shows full before the
 * visitor tries it. Answers whether the stream is open.
 */
export function useLiveSlots(roomId: string, { year, month }: YearMonth): boolean {
  const { baseApiUrl } = useConfig();
  const dispatch = useAppDispatch();
  return useLiveAvailability(
    baseApiUrl,
    roomId,
    `${year}-${String(month).padStart(2, '0')}`,
    (position) => {
      dispatch(positionSeen(position));
      // An open seat picker follows too: its slot's seats are read again.
      dispatch(bookingApi.util.invalidateTags(['VisitorSlots', 'SlotSeats']));
    },
  );
}
