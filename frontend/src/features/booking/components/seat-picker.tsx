import { useId, useMemo, useState } from 'react';
import type { SeatAttribute } from '@rr/contracts/seats';
import { CheckboxField } from '../../../components/form-field';
import { ErrorBox } from '../../../components/error-box';
import type { Ticket, TimeSlot } from '../../../api/types';
import { useStore } from 'react-redux';
import { bookingApi, useGetSlotSeatsQuery, type SeatPlan, type SeatWish } from '../api/booking-api';
import { matchesFilters, readSeatView, writeSeatView, type SeatView } from '../lib/seats';
import { SeatMark } from '../../../components/seat-mark';
import { SeatPlanView, type ShownSeat } from './seat-plan-view';
import { useSeatPickerTranslation } from './seat-picker-texts';
import { useSeatText } from './seat-text';
// The seat picker's own styles: loaded with its chunk, only in rooms with a seat plan.
import '../../../styles/seats.css';

export interface SeatPickerProps {
  roomId: string;
  /** The slot whose seats are shown. */
  slot: TimeSlot;
  plan: SeatPlan;
  /** An add is under way: the buttons wait. */
  pending: boolean;
  /** The last add's refusal (e.g. `seat__taken`), shown above the buttons. */
  error: unknown;
  onBook: (wish: SeatWish) => void;
  onCancel: () => void;
}

/**
 * The attributes in the contract's order (`SEAT_ATTRIBUTES`). Named here, not imported: the
 * staff's screens import the contract's seat module too, and a module both apps import lands in
 * the script every visitor page loads; the record's type requires every attribute once.
 */
const ATTRIBUTES = Object.keys({
  power: true,
  window: true,
  pc: true,
  quiet: true,
  'standing-desk': true,
  accessible: true,
  lamp: true,
  'group-table': true,
} satisfies Record<SeatAttribute, true>) as SeatAttribute[]; // Object.keys answers string[]

/** The filters: any seat must have each attribute ticked; the list and the plan follow them. */
function SeatFilters({
  filters,
  onChange,
}: {
  filters: readonly SeatAttribute[];
  onChange: (filters: SeatAttribute[]) => void;
}) {
  const { t } = useSeatPickerTranslation();
  const id = useId();
  return (
    <fieldset className="fieldset">
      <legend>{t('seats.filters')}</legend>
      <div className="checkbox-grid">
        {ATTRIBUTES.map((attribute) => (
          <CheckboxField
            key={attribute}
            id={`${id}-${attribute}`}
            label={t(`seats.filter.${attribute}`)}
            checked={filters.includes(attribute)}
            onChange={(event) =>
              onChange(
                ATTRIBUTES.filter((other) =>
                  other === attribute ? event.target.checked : filters.includes(other),
                ),
              )
            }
          />
        ))}
      </div>
    </fieldset>
  );
}

/** The list view: the seats that match the filters as radio buttons (taken ones disabled). */
function SeatListView({
  seats,
  chosen,
  onChoose,
}: {
  seats: readonly ShownSeat[];
  chosen: string | null;
  onChoose: (id: string) => void;
}) {
  const { t } = useSeatPickerTranslation();
  const seatText = useSeatText();
  const name = useId();
  const shown = seats.filter((seat) => seat.matches);
  if (shown.length === 0) return <p className="notice">{t('seats.no-match')}</p>;
  return (
    <fieldset className="seat-list">
      <legend className="visually-hidden">{t('seats.list')}</legend>
      <ul>
        {shown.map((seat) => (
          <li key={seat.id}>
            <label className={`seat-list__choice seat-list__choice--${seat.state}`}>
              <input
                type="radio"
                name={name}
                value={seat.id}
                checked={chosen === seat.id}
                disabled={seat.state !== 'free'}
                onChange={() => onChoose(seat.id)}
              />
              <SeatMark state={seat.state} chosen={chosen === seat.id} />
              <span>{seatText(seat, seat.state)}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Free, taken and out of service as they show (shape and mark beside the colour). */
function SeatLegend() {
  const { t } = useSeatPickerTranslation();
  return (
    <ul className="seat-legend">
      {(['free', 'taken', 'out_of_service'] as const).map((state) => (
        <li key={state}>
          <SeatMark state={state} /> {t(`seats.state.${state}`)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The seat the cart holds in the room's slot right before or after `slot` on its day: offered
 * first, so a cart of consecutive slots keeps its seat (docs/product.md#picking-a-seat), as the
 * server gives it to "any seat".
 */
export function cartNeighbourSeat(
  tickets: readonly Ticket[],
  roomId: string,
  slot: Pick<TimeSlot, 'date' | 'startTime' | 'endTime'>,
): string | null {
  const next = tickets.find(
    (t) =>
      t.roomId === roomId &&
      t.date === slot.date &&
      t.seat !== null &&
      (t.endTime === slot.startTime || t.startTime === slot.endTime),
  );
  return next?.seat?.id ?? null;
}

/**
 * The seats of one slot of a room with a seat plan (docs/product.md#picking-a-seat): attribute
 * filters, the plan or the list (the visitor's choice, kept on the device), and the way into the
 * cart with the chosen seat or any seat (with the filters' attributes).
 */
export default function SeatPicker({
  roomId,
  slot,
  plan,
  pending,
  error,
  onBook,
  onCancel,
}: SeatPickerProps) {
  const { t } = useSeatPickerTranslation();
  const seatText = useSeatText();
  const slotSeats = useGetSlotSeatsQuery({ roomId, timeSlotId: slot.id });
  // The cart as its last read left it (the booking's context reads it): taken from the store
  // here rather than through the context, whose module then stays out of the shared chunk.
  // (Typed as the booking API's own state: the app's RootState knows only the base API's tags.)
  const store = useStore<Parameters<typeof bookingApi.util.selectCachedArgsForQuery>[0]>();
  const [view, setView] = useState<SeatView>(readSeatView);
  const [filters, setFilters] = useState<SeatAttribute[]>([]);
  // The cart's seat of the slot before or after is chosen at first, while it is free here.
  const [chosen, setChosen] = useState<string | null>(() => {
    const state = store.getState();
    const tickets = bookingApi.util
      .selectCachedArgsForQuery(state, 'getCart')
      .flatMap((id) => bookingApi.endpoints.getCart.select(id)(state).data?.tickets ?? []);
    return cartNeighbourSeat(tickets, roomId, slot);
  });

  // The plan's seats in its order, each with its state in this slot (a seat the slot's answer
  // lacks is not offered).
  const seats = useMemo<ShownSeat[]>(() => {
    const states = new Map(slotSeats.data?.map((seat) => [seat.id, seat.state]));
    return plan.seats.flatMap((seat) => {
      const state = states.get(seat.id);
      return state ? [{ ...seat, state, matches: matchesFilters(seat.attributes, filters) }] : [];
    });
  }, [plan.seats, slotSeats.data, filters]);
  // A chosen seat someone else took meanwhile (the seats are read again) is chosen no more.
  const chosenSeat = seats.find((seat) => seat.id === chosen && seat.state === 'free');
  const chosenId = chosenSeat?.id ?? null;

  const switchTo = (next: SeatView) => {
    setView(next);
    writeSeatView(next);
  };

  return (
    <div className="seat-picker">
      <p>{t('seats.intro')}</p>
      <SeatFilters filters={filters} onChange={setFilters} />
      <div className="seat-picker__bar">
        <div className="seat-views" role="group" aria-label={t('seats.view')}>
          {(['plan', 'list'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className="button button--secondary button--small"
              aria-pressed={view === option}
              onClick={() => switchTo(option)}
            >
              {t(`seats.${option}`)}
            </button>
          ))}
        </div>
        <SeatLegend />
      </div>
      {slotSeats.error ? <ErrorBox error={slotSeats.error} /> : null}
      {slotSeats.error ? null : !slotSeats.data ? (
        <p className="loading" role="status">
          {t('loading', { ns: 'common' })}
        </p>
      ) : view === 'plan' ? (
        <SeatPlanView plan={plan} seats={seats} chosen={chosenId} onChoose={setChosen} />
      ) : (
        <SeatListView seats={seats} chosen={chosenId} onChoose={setChosen} />
      )}
      <p className="seat-picker__chosen" aria-live="polite">
        {chosenSeat ? t('seats.chosen', { seat: seatText(chosenSeat) }) : t('seats.none-chosen')}
      </p>
      {error ? <ErrorBox error={error} reveal /> : null}
      <div className="form__actions">
        <button
          type="button"
          className="button button--primary"
          aria-disabled={pending || !chosenSeat || undefined}
          onClick={() => {
            if (!pending && chosenSeat) onBook({ seatId: chosenSeat.id });
          }}
        >
          {t('seats.book-seat')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          aria-disabled={pending || undefined}
          onClick={() => {
            if (!pending) onBook(filters.length > 0 ? { seatAttributes: filters } : {});
          }}
        >
          {t(filters.length > 0 ? 'seats.book-any-matching' : 'seats.book-any')}
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t('seats.cancel')}
        </button>
      </div>
    </div>
  );
}
