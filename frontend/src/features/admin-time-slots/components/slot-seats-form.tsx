import { useState, type FormEvent } from 'react';
import type { AdminTimeSlot } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { CheckboxField } from '../../../components/form-field';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import {
  useChooseSlotSeatsMutation,
  useGetSlotRoomSeatPlanQuery,
} from '../api/admin-time-slots-api';

/**
 * The seats of the room's plan the slot offers (docs/product.md#seat-plans, exam places): every
 * seat, or those ticked. Shown only in a room with a plan. Tickets on seats no longer offered move
 * to offered ones; a refusal names the seats whose bookings find none.
 */
export function SlotSeatsForm({ slot }: { slot: AdminTimeSlot }) {
  const { t } = useTranslation('admin-time-slots');
  const dispatch = useAppDispatch();
  const { data: plan } = useGetSlotRoomSeatPlanQuery(slot.roomId);
  const [choose, chosen] = useChooseSlotSeatsMutation();
  const [all, setAll] = useState(slot.seatIds === null);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set(slot.seatIds ?? []));
  if (!plan || plan.seats.length === 0) return null;

  const toggle = (seatId: string, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(seatId);
    else next.delete(seatId);
    setTicked(next);
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const seatIds = all ? null : plan.seats.map((s) => s.id).filter((id) => ticked.has(id));
    try {
      await choose({ roomId: slot.roomId, timeSlotId: slot.id, seatIds }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('seats.saved', { date: formatDate(slot.date) }) }));
  };

  return (
    <section aria-labelledby="slot-seats-heading">
      <h2 id="slot-seats-heading">{t('seats.heading')}</h2>
      <p>{t('seats.hint')}</p>
      <form onSubmit={save} noValidate>
        {chosen.error ? <ErrorBox error={chosen.error} reveal /> : null}
        <CheckboxField
          id="slot-seats-all"
          label={t('seats.all')}
          checked={all}
          onChange={(e) => setAll(e.target.checked)}
        />
        {all ? null : (
          <fieldset className="fieldset">
            <legend>{t('seats.legend', { count: ticked.size })}</legend>
            <div className="checkbox-grid">
              {plan.seats.map((seat) => (
                <CheckboxField
                  key={seat.id}
                  id={`slot-seat-${seat.id}`}
                  label={seat.label}
                  checked={ticked.has(seat.id)}
                  onChange={(e) => toggle(seat.id, e.target.checked)}
                />
              ))}
            </div>
          </fieldset>
        )}
        <button
          type="submit"
          className="button button--primary"
          disabled={chosen.isLoading || (!all && ticked.size === 0)}
        >
          {t('seats.submit')}
        </button>
      </form>
    </section>
  );
}
