import { useCallback, useId, useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatDate, todayIso } from '../../../lib/dates';
import { formatClock } from '../../../lib/staff-dates';
import {
  useCheckInByCodeMutation,
  useCheckInMutation,
  useGetCheckInDayQuery,
  useLazyLookUpCodeQuery,
  useUndoCheckInMutation,
  type CheckInTicket,
} from '../api/check-in-api';
import { displayName, explainCode, type CodeExplanation } from '../lib/check-in-filter';
import { CodeForm } from './code-form';
import { DeskSeats } from './desk-seats';
import { RoomTickets } from './room-tickets';
import '../check-in.css';

/**
 * Route `/check-in`: today's tickets of the rooms with check-in, per room, with a
 * search by name or booking number, a check-in button per ticket and undo for a few minutes;
 * a form for the QR reference or booking number (typed, or read by the camera where the browser
 * has BarcodeDetector).
 */
export function CheckInPage() {
  const { t } = useTranslation('admin-check-in');
  const textIn = useTextIn();
  const { data, error, refetch } = useGetCheckInDayQuery(undefined, { pollingInterval: 30_000 });
  const [checkIn, checkInState] = useCheckInMutation();
  const [undo, undoState] = useUndoCheckInMutation();
  const [byCode, byCodeState] = useCheckInByCodeMutation();
  const [lookUp] = useLazyLookUpCodeQuery();
  const [explained, setExplained] = useState<CodeExplanation | null>(null);
  const [search, setSearch] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const searchId = useId();
  const now = new Date();

  const run = useCallback(
    async (action: () => Promise<{ ticketId: string }>, message: (id: string) => string) => {
      setFailure(null);
      setExplained(null);
      setDone(null);
      try {
        const result = await action();
        setDone(message(result.ticketId));
        return true;
      } catch (err) {
        setFailure(err);
        return false;
      }
    },
    [],
  );

  const ticketName = (id: string) => {
    for (const room of data?.rooms ?? [])
      for (const ticket of room.tickets) if (ticket.id === id) return displayName(ticket);
    return '';
  };

  const submitCode = useCallback(
    async (value: string) => {
      const trimmed = value.trim();
      if (!trimmed) return false;
      const ok = await run(
        () => byCode(trimmed).unwrap(),
        (id) => t('done.checked-in', { name: ticketName(id) || trimmed }),
      );
      if (ok) return true;
      // A code of another day, or one already checked in, cancelled or released: the lookup
      // says which day and room, or when and by whom.
      const found = await lookUp(trimmed)
        .unwrap()
        .catch(() => null);
      const today = data?.date ?? todayIso();
      const explanation = found
        ? explainCode(found.tickets, today, formatClock, (x) => textIn(x.roomName, x.roomNameEn))
        : null;
      if (explanation) {
        setFailure(null);
        setExplained(explanation);
      }
      return false;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [byCode, lookUp, run, t, data, textIn],
  );

  const checkInTicket = (ticket: CheckInTicket) => {
    const name = displayName(ticket);
    void run(
      () => checkIn(ticket.id).unwrap(),
      () => t('done.checked-in', { name }),
    );
  };
  const undoCheckIn = (ticket: CheckInTicket) => {
    const name = displayName(ticket);
    void run(
      () => undo(ticket.id).unwrap(),
      () => t('done.undone', { name }),
    );
  };
  const busy = checkInState.isLoading || undoState.isLoading || byCodeState.isLoading;

  return (
    <Page title={t('title')}>
      <p>{t('intro')}</p>
      <CodeForm busy={busy} onCode={submitCode} />
      <div aria-live="polite">{done ? <p className="check-in__done">{done}</p> : null}</div>
      {failure ? <ErrorBox error={failure} reveal /> : null}
      {explained ? (
        <div className="error-box" role="alert">
          <p className="error-box__message">
            {t(
              explained.key === 'explain.checked-in' && !explained.params.by
                ? 'explain.checked-in-unknown'
                : explained.key,
              explained.params,
            )}
          </p>
        </div>
      ) : null}
      <LoadingContainer data={data} error={error} backLink={{ to: '/', label: t('back') }}>
        {(day) => (
          <>
            <h2 className="check-in__day">{t('day', { date: formatDate(day.date) })}</h2>
            <div className="check-in__search">
              <label htmlFor={searchId}>{t('search.label')}</label>
              <input
                id={searchId}
                className="field__control check-in__field"
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            {day.rooms.length === 0 ? (
              <EmptyState>{t('empty.no-rooms')}</EmptyState>
            ) : (
              day.rooms.map((room) => (
                <RoomTickets
                  key={room.roomId}
                  room={room}
                  search={search}
                  now={now}
                  busy={busy}
                  onCheckIn={checkInTicket}
                  onUndo={undoCheckIn}
                />
              ))
            )}
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void refetch()}
            >
              {t('refresh')}
            </button>
          </>
        )}
      </LoadingContainer>
      <DeskSeats />
    </Page>
  );
}
