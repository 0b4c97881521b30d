import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { AdminTimeSlot, Ticket, TimeSlot } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { DeleteConfirmation, DeleteZone } from '../../../components/delete-confirmation';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { SlotSummary } from '../../../components/slot-summary';
import { TableRegion } from '../../../components/table-region';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatDateTime, formatTimeRange } from '../../../lib/dates';
import { formatClock } from '../../../lib/staff-dates';
import { notify } from '../../../stores/notifications-slice';
import {
  useDeleteTimeSlotMutation,
  useGetSlotWaitlistQuery,
  useGetTimeSlotQuery,
  useGetTimeSlotRoomQuery,
  useGetTimeSlotTicketsQuery,
  useRemoveWaitlistEntryMutation,
  type WaitlistEntry,
} from '../api/admin-time-slots-api';
import {
  bookPath,
  calendarPath,
  calendarPathAt,
  reservationPath,
  slotHistoryPath,
} from '../utils/paths';
import { SlotEditForm, useSlotEdit } from './slot-edit-form';
import { SlotSeatsForm } from './slot-seats-form';

/** Route `/room/:roomId/time-slot-edit/:timeSlotId`: edit or delete a slot, see its reservations. */
export function TimeSlotEdit() {
  const { t } = useTranslation('admin-time-slots');
  const { roomId = '', timeSlotId = '' } = useParams();
  const { data, error } = useGetTimeSlotQuery({ roomId, timeSlotId });

  return (
    <Page title={t('edit.title')}>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: calendarPath(roomId), label: t('back-to-calendar') }}
      >
        {(slot) => <TimeSlotEditContent key={slot.id} slot={slot} />}
      </LoadingContainer>
    </Page>
  );
}

function TimeSlotEditContent({ slot }: { slot: AdminTimeSlot }) {
  const { t } = useTranslation('admin-time-slots');
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [mode, setMode] = useState<'form' | 'confirm-delete'>('form');
  const [deleteSlot, removal] = useDeleteTimeSlotMutation();
  const deleteButton = useRef<HTMLButtonElement>(null);
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const returnFocus = useRef(false);
  const key = { roomId: slot.roomId, timeSlotId: slot.id };
  const backTo = calendarPathAt(slot.roomId, slot.date);
  const edit = useSlotEdit(slot, backTo);
  const range = formatTimeRange(slot.startTime, slot.endTime);

  useEffect(() => {
    if (mode === 'confirm-delete') {
      confirmHeading.current?.focus();
    } else if (returnFocus.current) {
      returnFocus.current = false;
      deleteButton.current?.focus();
    }
  }, [mode]);

  const confirmDelete = async () => {
    try {
      await deleteSlot(key).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('edit.deleted', { date: formatDate(slot.date), range }) }));
    await navigate(backTo);
  };

  const cancelDelete = () => {
    removal.reset();
    returnFocus.current = true;
    setMode('form');
  };

  const summary = <SlotSummary slot={slot} />;

  if (mode === 'confirm-delete') {
    return (
      <DeleteConfirmation
        id="slot-delete-title"
        headingRef={confirmHeading}
        title={t('edit.delete-title')}
        question={t('edit.delete-question', { date: formatDate(slot.date), range })}
        error={removal.error}
        busy={removal.isLoading}
        confirmLabel={t('edit.delete-confirm')}
        cancelLabel={t('form.cancel')}
        onConfirm={confirmDelete}
        onCancel={cancelDelete}
      />
    );
  }

  return (
    <>
      {summary}
      {slot.closedReason ? (
        <p className="notice notice--warning">
          <strong>
            {t('edit.closed', { reason: textIn(slot.closedReason, slot.closedReasonEn) })}
          </strong>
        </p>
      ) : null}
      <SlotEditForm edit={edit} backTo={backTo} />
      <SlotSeatsForm slot={slot} />
      <DeleteZone
        headingId="slot-delete-heading"
        heading={t('edit.delete-heading')}
        blockedMessage={
          slot.heldCount > 0
            ? t('edit.blocked-held', {
                booked: slot.bookedCount,
                held: slot.heldCount,
                until: formatClock(slot.heldUntil ?? ''),
              })
            : slot.bookedCount > 0
              ? t('edit.has-tickets', { count: slot.bookedCount })
              : null
        }
        deleteLabel={t('edit.delete')}
        buttonRef={deleteButton}
        onDelete={() => setMode('confirm-delete')}
      />
      <section aria-labelledby="slot-reservations-heading">
        <h2 id="slot-reservations-heading">{t('edit.reservations')}</h2>
        <ul className="link-row">
          <li>
            <Link to={bookPath(slot.roomId, slot.id)}>{t('edit.book')}</Link>
          </li>
          <li>
            <Link to={slotHistoryPath(slot.roomId, slot.id)}>{t('edit.history')}</Link>
          </li>
        </ul>
        <SlotReservations slot={slot} />
      </section>
      <SlotWaitlist slot={slot} />
    </>
  );
}

/**
 * The slot's waitlist, only in a room that has one: each entry's address (until its erasure), its
 * status (a waiting entry the limits bar is shown passed over) and times, and a button that takes
 * an entry still in line off it.
 */
function SlotWaitlist({ slot }: { slot: AdminTimeSlot }) {
  const { t } = useTranslation('admin-time-slots');
  const dispatch = useAppDispatch();
  const [removeEntry, removal] = useRemoveWaitlistEntryMutation();
  const remove = async (entry: WaitlistEntry) => {
    try {
      await removeEntry({ ...key, entryId: entry.entryId }).unwrap();
    } catch {
      return;
    }
    dispatch(notify({ title: t('waitlist.removed', { position: entry.positionInLine }) }));
  };
  const room = useGetTimeSlotRoomQuery(slot.roomId);
  const key = { roomId: slot.roomId, timeSlotId: slot.id };
  const hasWaitlist = room.data?.services.waitlistOfferMinutes != null;
  const { data, error } = useGetSlotWaitlistQuery(key, { skip: !hasWaitlist });
  if (!hasWaitlist) return null;
  const time = (instant: string | null) => (instant ? formatDateTime(new Date(instant)) : '–');
  return (
    <section aria-labelledby="slot-waitlist-heading">
      <h2 id="slot-waitlist-heading">{t('waitlist.heading')}</h2>
      {removal.error ? <ErrorBox error={removal.error} reveal /> : null}
      <LoadingContainer data={data} error={error}>
        {({ content }) =>
          content.length === 0 ? (
            <EmptyState>{t('waitlist.empty')}</EmptyState>
          ) : (
            <TableRegion label={t('waitlist.caption', { count: content.length })}>
              <table className="data-table">
                <caption className="visually-hidden">
                  {t('waitlist.caption', { count: content.length })}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{t('waitlist.position')}</th>
                    <th scope="col">{t('waitlist.email')}</th>
                    <th scope="col">{t('waitlist.status')}</th>
                    <th scope="col">{t('waitlist.language')}</th>
                    <th scope="col">{t('waitlist.joined')}</th>
                    <th scope="col">{t('waitlist.offer-expires')}</th>
                    <th scope="col">{t('waitlist.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {content.map((entry) => (
                    <tr key={entry.entryId}>
                      <td>{entry.positionInLine}</td>
                      <td>{entry.email ?? t('waitlist.erased')}</td>
                      <td>
                        {entry.passedOver
                          ? t('waitlist.passed-over')
                          : t(`waitlist.statuses.${entry.status}`)}
                      </td>
                      <td>{t(`waitlist.languages.${entry.language}`)}</td>
                      <td>{time(entry.joinedAt)}</td>
                      <td>{time(entry.offerExpiresAt)}</td>
                      <td>
                        {entry.status === 'waiting' || entry.status === 'offered' ? (
                          <button
                            type="button"
                            className="button button--secondary"
                            disabled={removal.isLoading}
                            aria-label={t('waitlist.remove-entry', {
                              position: entry.positionInLine,
                            })}
                            onClick={() => void remove(entry)}
                          >
                            {t('waitlist.remove')}
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )
        }
      </LoadingContainer>
    </section>
  );
}

/** "Last, First" of a ticket's owner; null once the personal data was erased. */
function ownerName(ticket: Ticket): string | null {
  const parts = [ticket.lastName, ticket.firstName].filter((part) => part !== null && part !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

/** The booked tickets of the slot, each linking to its reservation. */
function SlotReservations({ slot }: { slot: TimeSlot }) {
  const { t } = useTranslation('admin-time-slots');
  const { data, error } = useGetTimeSlotTicketsQuery(slot.id);
  return (
    <LoadingContainer data={data} error={error}>
      {({ content }) =>
        content.length === 0 ? (
          <EmptyState>{t('empty.no-reservations', { ns: 'common' })}</EmptyState>
        ) : (
          <TableRegion label={t('edit.reservations-caption', { count: content.length })}>
            <table className="data-table">
              <caption className="visually-hidden">
                {t('edit.reservations-caption', { count: content.length })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('edit.column.name')}</th>
                  <th scope="col">{t('edit.column.organisation')}</th>
                  <th scope="col">{t('edit.column.email')}</th>
                  <th scope="col">{t('edit.column.action')}</th>
                </tr>
              </thead>
              <tbody>
                {content.map((ticket) => {
                  const name = ownerName(ticket) ?? t('edit.erased');
                  return (
                    <tr key={ticket.id}>
                      <td>{name}</td>
                      <td>{ticket.organisation}</td>
                      <td className="data-table__break">{ticket.email}</td>
                      <td>
                        <Link to={reservationPath(ticket.id)}>
                          {t('edit.open-reservation')}
                          <span className="visually-hidden"> {name}</span>
                        </Link>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        )
      }
    </LoadingContainer>
  );
}
