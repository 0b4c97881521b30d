import { useId, useState } from 'react';
import { ErrorBox } from '../../../components/error-box';
import { TableRegion } from '../../../components/table-region';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatTimeRange } from '../../../lib/dates';
import { SeatMark } from '../../../components/seat-mark';
import {
  useGetSeatPlanRoomsQuery,
  useGetDeskSlotSeatsQuery,
  useMoveTicketToSeatMutation,
  type DeskRoom,
  type DeskSeat,
  type DeskSeatTicket,
  type DeskSlotSeats,
} from '../api/desk-seats-api';
import { DeskSeatLegend, DeskSeatPlan } from './desk-seat-plan';
import { DeskSeatMove } from './desk-seat-move';

/** How often the seats are read again: they move with every booking, cart and check-in. */
const SEATS_POLLING_MS = 30_000;

const nameOf = (ticket: DeskSeatTicket) =>
  [ticket.firstName, ticket.lastName].filter(Boolean).join(' ') || ticket.bookingNumber || '';

/** The ticket being moved: its seat now (null: none). */
interface Moving {
  ticket: DeskSeatTicket;
  from: DeskSeat | null;
}

function SeatRows({ slot, onMove }: { slot: DeskSlotSeats; onMove: (moving: Moving) => void }) {
  const { t } = useTranslation('admin-check-in');
  const attribute = (a: string) => t(`seats.attribute.${a}`, { ns: 'booking' });
  const moveButton = (ticket: DeskSeatTicket, from: DeskSeat | null) => (
    <button
      type="button"
      className="button button--secondary"
      onClick={() => onMove({ ticket, from })}
    >
      {t('seats.move.open')}
      <span className="visually-hidden">: {nameOf(ticket)}</span>
    </button>
  );
  return (
    <tbody>
      {slot.seats.map((seat) => (
        <tr key={seat.id}>
          <th scope="row">{seat.label}</th>
          <td>{seat.attributes.map(attribute).join(', ')}</td>
          <td>
            <span className="desk-seats__state">
              <SeatMark state={seat.state} /> <span>{t(`seats.state.${seat.state}`)}</span>
            </span>
          </td>
          <td>{seat.ticket ? nameOf(seat.ticket) : null}</td>
          <td>{seat.ticket ? moveButton(seat.ticket, seat) : null}</td>
        </tr>
      ))}
      {slot.withoutSeat.map((ticket) => (
        <tr key={ticket.id}>
          <th scope="row">{t('seats.without')}</th>
          <td />
          <td>{t(ticket.checkedInAt ? 'seats.state.checked_in' : 'seats.state.booked')}</td>
          <td>{nameOf(ticket)}</td>
          <td>{moveButton(ticket, null)}</td>
        </tr>
      ))}
    </tbody>
  );
}

/** One room's seats in a slot of today: the plan, the list, and moving a reader. */
function RoomSeats({ room }: { room: DeskRoom }) {
  const { t } = useTranslation('admin-check-in');
  const name = useTextIn()(room.name, room.nameEn);
  const headingId = useId();
  const kinds = (['current', 'next'] as const).filter((kind) => room[kind]?.seats);
  const [kind, setKind] = useState(kinds[0] ?? 'current');
  const shown = room[kind] ?? room[kinds[0] ?? 'current'];
  const { data, error } = useGetDeskSlotSeatsQuery(
    { roomId: room.id, timeSlotId: shown?.id ?? '' },
    { skip: !shown, pollingInterval: SEATS_POLLING_MS },
  );
  const [move, moveState] = useMoveTicketToSeatMutation();
  const [moving, setMoving] = useState<Moving | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  if (!shown) return null;
  const time = formatTimeRange(shown.startTime, shown.endTime);

  const moveTo = async (seatId: string, reason: string) => {
    if (!moving) return;
    setFailure(null);
    setDone(null);
    try {
      const answer = await move({
        ticketId: moving.ticket.id,
        timeSlotId: shown.id,
        seatId,
        ...(reason ? { reason } : {}),
      }).unwrap();
      setDone(t('seats.move.done', { name: nameOf(moving.ticket), seat: answer.seat?.label }));
      setMoving(null);
    } catch (err) {
      setFailure(err);
    }
  };

  return (
    <section className="desk-seats__room" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('seats.room', { room: name, time })}</h3>
      {kinds.length > 1 ? (
        <div className="desk-seats__slots" role="group" aria-label={t('seats.slot')}>
          {kinds.map((k) => (
            <button
              key={k}
              type="button"
              className="button button--small"
              aria-pressed={k === kind}
              onClick={() => setKind(k)}
            >
              {t(`seats.${k}`)}
            </button>
          ))}
        </div>
      ) : null}
      {error ? <ErrorBox error={error} /> : null}
      {data ? (
        <>
          <DeskSeatPlan slot={data} />
          <div aria-live="polite">{done ? <p className="check-in__done">{done}</p> : null}</div>
          {failure ? <ErrorBox error={failure} reveal /> : null}
          {moving ? (
            <DeskSeatMove
              key={moving.ticket.id}
              ticket={moving.ticket}
              from={moving.from}
              free={data.seats.filter((seat) => seat.state === 'free')}
              busy={moveState.isLoading}
              onMove={(seatId, reason) => void moveTo(seatId, reason)}
              onCancel={() => setMoving(null)}
            />
          ) : null}
          <TableRegion label={t('seats.caption', { room: name, time })}>
            <table className="data-table desk-seats__table">
              <caption className="visually-hidden">
                {t('seats.caption', { room: name, time })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('seats.column.seat')}</th>
                  <th scope="col">{t('seats.column.attributes')}</th>
                  <th scope="col">{t('seats.column.state')}</th>
                  <th scope="col">{t('seats.column.name')}</th>
                  <th scope="col">{t('seats.column.action')}</th>
                </tr>
              </thead>
              <SeatRows
                slot={data}
                onMove={(m) => {
                  setDone(null);
                  setFailure(null);
                  setMoving(m);
                }}
              />
            </table>
          </TableRegion>
        </>
      ) : null}
    </section>
  );
}

/**
 * The seats of today's rooms with a seat plan (docs/product.md#staff-and-display-views): per room
 * the slot running now (or the next one), each seat free, held, booked, checked in or out of
 * service, with the reader's name, and moving a booked ticket to a free seat.
 */
export function DeskSeats() {
  const { t } = useTranslation('admin-check-in');
  const { data: rooms } = useGetSeatPlanRoomsQuery(undefined, {
    pollingInterval: SEATS_POLLING_MS,
  });
  if (!rooms?.length) return null;
  return (
    <section className="desk-seats" aria-labelledby="desk-seats-title">
      <h2 id="desk-seats-title">{t('seats.title')}</h2>
      <DeskSeatLegend />
      {rooms.map((room) => (
        <RoomSeats key={room.id} room={room} />
      ))}
    </section>
  );
}
