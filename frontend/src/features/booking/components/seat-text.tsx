import { skipToken } from '@reduxjs/toolkit/query';
import type { SeatAttribute, SeatState, TicketSeat } from '@rr/contracts/seats';
import { useTranslation } from '../../../i18n/i18n-context';
import { useGetSeatPlanQuery } from '../api/booking-api';

/**
 * A seat in words: "Platz A12, Fensterplatz, Steckdose", and with its state ", frei" (the
 * accessible name of a seat on the plan and in the list).
 */
export function useSeatText() {
  const { t } = useTranslation('booking');
  return (
    seat: { label: string; attributes?: readonly SeatAttribute[] | undefined },
    state?: SeatState,
  ) =>
    [
      t('seats.seat', { label: seat.label }),
      ...(seat.attributes ?? []).map((attribute) => t(`seats.attribute.${attribute}`)),
      ...(state ? [t(`seats.state.${state}`)] : []),
    ].join(', ');
}

/**
 * A ticket's seat, e.g. "Platz A12, Fensterplatz": its attributes come from the room's plan (read
 * once per room and visit); nothing for a ticket without a seat.
 */
export function TicketSeatText({
  roomId,
  seat,
}: {
  roomId?: string | undefined;
  seat: TicketSeat | null | undefined;
}) {
  const seatText = useSeatText();
  const plan = useGetSeatPlanQuery(seat && roomId ? roomId : skipToken);
  if (!seat) return null;
  const attributes = plan.data?.seats.find((planSeat) => planSeat.id === seat.id)?.attributes;
  return <p className="ticket-list__seat">{seatText({ label: seat.label, attributes })}</p>;
}
