import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Loading } from '../../../components/loading-container';
import type { TimeSlot } from '../../../api/types';
import { closeDialog, Dialog } from '../../../components/dialog';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatLongDate, formatTimeRange } from '../../../lib/dates';
import { useGetSeatPlanQuery, type SeatPlan, type SeatWish } from '../api/booking-api';

// The plan and its zoom are a chunk of their own: only a room with a seat plan loads it.
const loadSeatPicker = () => import('./seat-picker');
const SeatPicker = lazy(loadSeatPicker);

/** The slot whose seats are shown, and the day's dialog under them (closed after the add). */
export interface SeatSlot {
  slot: TimeSlot;
  dayDialog: HTMLDialogElement | null;
}

/**
 * The room's seat plan when it has seats (undefined: no plan, slots go straight into the cart),
 * and the slot whose seats are open. With a plan, the picker's chunk loads at once, before the
 * first slot is chosen.
 */
export function useSeatChoice(roomId: string) {
  const seatPlan = useGetSeatPlanQuery(roomId);
  const plan = seatPlan.data?.seats.length ? seatPlan.data : undefined;
  const [seatSlot, setSeatSlot] = useState<SeatSlot | null>(null);
  useEffect(() => {
    if (plan) void loadSeatPicker();
  }, [plan]);
  return { plan, seatSlot, setSeatSlot };
}

interface SeatDialogProps {
  roomId: string;
  slot: TimeSlot;
  plan: SeatPlan;
  pending: boolean;
  error: unknown;
  onBook: (wish: SeatWish) => void;
  /** After Escape or cancel (focus is back on the slot's button). */
  onClose: () => void;
}

/**
 * The seats of a slot, over the day's dialog: the visitor picks a seat (or any seat) before the
 * slot goes into the cart. Escape or cancel returns to the day's slots.
 */
export function SeatDialog({
  roomId,
  slot,
  plan,
  pending,
  error,
  onBook,
  onClose,
}: SeatDialogProps) {
  const { t, i18n } = useTranslation('booking');
  const headingId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const when = `${formatLongDate(slot.date, i18n.language)}, ${formatTimeRange(slot.startTime, slot.endTime)}`;
  return (
    <Dialog labelledBy={headingId} onClose={onClose} dialogRef={dialog} className="dialog--seats">
      <h2 id={headingId} className="dialog__title">
        {t('seats.title', { slot: when })}
      </h2>
      <Suspense fallback={<Loading />}>
        <SeatPicker
          roomId={roomId}
          slot={slot}
          plan={plan}
          pending={pending}
          error={error}
          onBook={onBook}
          onCancel={() => closeDialog(dialog)}
        />
      </Suspense>
    </Dialog>
  );
}
