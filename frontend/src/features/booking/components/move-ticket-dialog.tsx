import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { RadioGroupField } from '../../../components/radio-group';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  addDaysIso,
  formatLongDate,
  formatTimeRange,
  parseIsoDate,
  todayIso,
} from '../../../lib/dates';
import type { TimeSlot } from '../../../api/types';
import {
  useGetBookableSlotsQuery,
  useChangeTicketSeatMutation,
  useGetSeatPlanQuery,
  useMoveTicketMutation,
  type SeatPlan,
  type SeatWish,
  type Ticket,
} from '../api/booking-api';
import { moveDays, type MoveChoice, type MoveDay } from '../lib/move-choices';
import { SeatDialog, useSeatChoice } from './seat-dialog';
import { useSeatText } from './seat-text';
import { useTicketText } from './ticket-list';

interface MoveTicketDialogProps {
  ownerId: string;
  ticket: Ticket;
  onCancel: () => void;
  onMoved: () => void;
}

const DAY_ID = 'move-day';
const SLOT_ID = 'move-slot';

/** A day as the day choice names it: "Mo., 07.12." and how many of its slots are free. */
function useDayLabel() {
  const { t, i18n } = useTranslation('booking');
  const format = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-GB' : i18n.language, {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
  });
  return (day: MoveDay<TimeSlot>) => {
    const date = parseIsoDate(day.date);
    return (
      <>
        <span aria-hidden="true">{date ? format.format(date) : day.date}</span>
        <span className="visually-hidden">{formatLongDate(day.date, i18n.language)}</span>
        <span className="move-choice__detail">
          {day.free ? t('move.free-slots', { count: day.free }) : t('move.day-full')}
        </span>
      </>
    );
  };
}

/** A slot as the time choice names it: its time and its free seats, or why it is not offered. */
function useSlotLabel() {
  const { t } = useTranslation('booking');
  return ({ slot, freeSeats, refusal }: MoveChoice<TimeSlot>) => (
    <>
      <span className="time-range">{formatTimeRange(slot.startTime, slot.endTime)}</span>{' '}
      <span className="move-choice__detail">
        {refusal === null
          ? t('move.seats', { count: freeSeats })
          : refusal === 'own'
            ? t('move.own')
            : refusal === 'full'
              ? t('room.fully-booked')
              : t('room.unavailable')}
      </span>
    </>
  );
}

/** The seat a move asks for, in words: "Platz A12, Fensterplatz" or "beliebiger Platz". */
function useWishText() {
  const { t } = useTranslation('booking');
  const seatText = useSeatText();
  return (plan: SeatPlan, wish: SeatWish) => {
    const seat = wish.seatId ? plan.seats.find((s) => s.id === wish.seatId) : undefined;
    if (seat) return seatText(seat);
    const attributes = wish.seatAttributes ?? [];
    return attributes.length
      ? t('move.seat-any-with', {
          attributes: attributes.map((a) => t(`seats.attribute.${a}`)).join(', '),
        })
      : t('move.seat-any');
  };
}

/** The question before the move: from which appointment to which. */
function MoveSummary({ from, to, onBack }: { from: string; to: string; onBack: () => void }) {
  const { t } = useTranslation('booking');
  const summary = useRef<HTMLParagraphElement>(null);
  // The focus leaves the button that chose, so a second press does not move at once.
  useEffect(() => summary.current?.focus(), []);
  return (
    <>
      <p ref={summary} tabIndex={-1}>
        {t('move.question')}
      </p>
      <dl className="move-summary">
        <dt>{t('move.from')}</dt>
        <dd>{from}</dd>
        <dt>{t('move.to')}</dt>
        <dd>{to}</dd>
      </dl>
      <p>
        <button type="button" className="button button--secondary button--small" onClick={onBack}>
          {t('move.back')}
        </button>
      </p>
    </>
  );
}

/**
 * Keeping the slot, only another seat (docs/product.md#rebooking, a room with a seat plan): the
 * seat picker over the ticket's own slot; its choice changes the seat at once.
 */
function SeatOnlyChange(props: {
  ownerId: string;
  ticket: Ticket;
  plan: SeatPlan;
  slot: TimeSlot;
  onChanged: () => void;
}) {
  const { t } = useTranslation('booking');
  const [open, setOpen] = useState(false);
  const [changeSeat, { isLoading, error }] = useChangeTicketSeatMutation();
  return (
    <>
      <p>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => setOpen(true)}
        >
          {t('move.seat-only')}
        </button>
      </p>
      {open ? (
        <SeatDialog
          roomId={props.ticket.roomId}
          slot={props.slot}
          plan={props.plan}
          pending={isLoading}
          error={error ?? null}
          onBook={(wish) => {
            void changeSeat({ ownerId: props.ownerId, ticketId: props.ticket.id, wish }).then(
              (answer) => {
                if (!('error' in answer)) props.onChanged();
              },
            );
          }}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

/**
 * Rebooking (docs/product.md#rebooking): the visitor picks a day of the ticket's room, then one
 * of its slots with a free seat (full ones show disabled with the reason; nothing is chosen
 * beforehand), in a room with a seat plan then the seat (or any seat) in the seat picker over
 * the dialog, then confirms the move from the old to the new appointment. The server decides
 * with the seat rule and the visitor's other bookings; its refusal shows in the dialog and leaves
 * the booking as it was.
 */
export function MoveTicketDialog({ ownerId, ticket, onCancel, onMoved }: MoveTicketDialogProps) {
  const { t, i18n } = useTranslation('booking');
  const ticketText = useTicketText();
  const dayLabel = useDayLabel();
  const slotLabel = useSlotLabel();
  const wishText = useWishText();
  const { plan } = useSeatChoice(ticket.roomId);
  // The same (cached) read as the seat choice's: until it answers, whether to ask for a seat is open.
  const planRead = useGetSeatPlanQuery(ticket.roomId);
  const today = todayIso();
  const { data } = useGetBookableSlotsQuery({
    roomId: ticket.roomId,
    transactionId: null,
    fromDate: today,
    untilDate: addDaysIso(today, 366),
  });
  const days = moveDays(data ?? [], ticket.timeSlotId);
  const [date, setDate] = useState<string | null>(null);
  const [slotId, setSlotId] = useState<string | null>(null);
  const [missing, setMissing] = useState<'day' | 'slot' | null>(null);
  const [confirming, setConfirming] = useState(false);
  // In a room with a seat plan: the seat picker is open, and the seat asked for once picked.
  const [choosingSeat, setChoosingSeat] = useState(false);
  const [wish, setWish] = useState<SeatWish | null>(null);
  const [move, { isLoading, error }] = useMoveTicketMutation();
  const ownSlot = data?.find((s) => s.id === ticket.timeSlotId);
  const day = days.find((d) => d.date === date);
  const chosen = day?.choices.find((c) => c.slot.id === slotId && c.refusal === null);
  const none = data !== undefined && !days.some((d) => d.free > 0);

  const confirm = async () => {
    if (!day || !chosen) {
      const which = day ? 'slot' : 'day';
      setMissing(which);
      document.getElementById(which === 'day' ? DAY_ID : SLOT_ID)?.focus();
      return;
    }
    if (!confirming) {
      if (plan) setChoosingSeat(true);
      else setConfirming(true);
      return;
    }
    const answer = await move({
      ownerId,
      ticketId: ticket.id,
      timeSlotId: chosen.slot.id,
      wish: wish ?? undefined,
    });
    if (!('error' in answer)) onMoved();
  };

  const to = chosen
    ? `${ticket.roomName}, ${formatLongDate(chosen.slot.date, i18n.language)}, ${formatTimeRange(
        chosen.slot.startTime,
        chosen.slot.endTime,
      )}${plan && wish ? `, ${wishText(plan, wish)}` : ''}`
    : '';
  const back = () => {
    setConfirming(false);
    setWish(null);
  };
  return (
    <ConfirmDialog
      title={t('move.title')}
      confirmLabel={t(confirming ? 'move.confirm' : 'move.next')}
      cancelLabel={t('move.cancel')}
      tone="primary"
      busy={isLoading || data === undefined || none || planRead.isLoading}
      error={error}
      onCancel={onCancel}
      onConfirm={confirm}
    >
      {confirming && chosen ? (
        <MoveSummary from={ticketText(ticket)} to={to} onBack={back} />
      ) : (
        <>
          <p>{t('move.current', { slot: ticketText(ticket) })}</p>
          {plan && ownSlot ? (
            <SeatOnlyChange
              ownerId={ownerId}
              ticket={ticket}
              plan={plan}
              slot={ownSlot}
              onChanged={onMoved}
            />
          ) : null}
          {none ? <p>{t('move.none')}</p> : null}
          {days.length ? (
            <RadioGroupField
              id={DAY_ID}
              className="move-choice move-choice--days"
              legend={t('move.day')}
              required
              options={days.map((d) => ({
                value: d.date,
                label: dayLabel(d),
                disabled: d.free === 0,
              }))}
              value={date}
              error={missing === 'day' && !day ? t('move.choose-day') : undefined}
              onChange={(value) => {
                setDate(value);
                setSlotId(null);
              }}
            />
          ) : null}
          {day ? (
            <RadioGroupField
              id={SLOT_ID}
              className="move-choice"
              legend={t('move.time', { date: formatLongDate(day.date, i18n.language) })}
              required
              options={day.choices.map((c) => ({
                value: c.slot.id,
                label: slotLabel(c),
                disabled: c.refusal !== null,
              }))}
              value={slotId}
              error={missing === 'slot' && !chosen ? t('move.choose-slot') : undefined}
              onChange={setSlotId}
            />
          ) : null}
        </>
      )}
      {choosingSeat && plan && chosen ? (
        <SeatDialog
          roomId={ticket.roomId}
          slot={chosen.slot}
          plan={plan}
          pending={false}
          error={null}
          onBook={(seat) => {
            setWish(seat);
            setChoosingSeat(false);
            setConfirming(true);
          }}
          onClose={() => setChoosingSeat(false)}
        />
      ) : null}
    </ConfirmDialog>
  );
}
