import { useCallback, useId, useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatTimeRange, todayIso } from '../../../lib/dates';
import { formatClock } from '../../../lib/staff-dates';
import {
  useCheckInByCodeMutation,
  useCheckInMutation,
  useGetCheckInDayQuery,
  useLazyLookUpCodeQuery,
  useUndoCheckInMutation,
  type CheckInTicket,
} from '../api/check-in-api';
import { canUndo, explainCode, matchesSearch, type CodeExplanation } from '../lib/check-in-filter';
import { canScan, QrScanner } from './qr-scanner';
import '../check-in.css';

/**
 * Route `/check-in`: today's tickets of the rooms with check-in, per room, with a
 * search by name or booking number, a check-in button per ticket and undo for a few minutes;
 * a form for the QR reference or booking number (typed, or read by the camera where the browser
 * has BarcodeDetector).
 */
export function CheckInPage() {
  const { t } = useTranslation('admin-check-in');
  const { data, error, refetch } = useGetCheckInDayQuery(undefined, { pollingInterval: 30_000 });
  const [checkIn, checkInState] = useCheckInMutation();
  const [undo, undoState] = useUndoCheckInMutation();
  const [byCode, byCodeState] = useCheckInByCodeMutation();
  const [lookUp] = useLazyLookUpCodeQuery();
  const [explained, setExplained] = useState<CodeExplanation | null>(null);
  const [search, setSearch] = useState('');
  const [code, setCode] = useState('');
  const [scanning, setScanning] = useState(false);
  const [scanFailed, setScanFailed] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const searchId = useId();
  const codeId = useId();
  const now = new Date();

  const nameOf = (ticket: CheckInTicket) =>
    [ticket.firstName, ticket.lastName].filter(Boolean).join(' ') || ticket.bookingNumber || '';

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
      for (const ticket of room.tickets) if (ticket.id === id) return nameOf(ticket);
    return '';
  };

  const submitCode = useCallback(
    async (value: string) => {
      const trimmed = value.trim();
      if (!trimmed) return;
      const ok = await run(
        () => byCode(trimmed).unwrap(),
        (id) => t('done.checked-in', { name: ticketName(id) || trimmed }),
      );
      if (ok) {
        setCode('');
        return;
      }
      // A code of another day, or one already checked in, cancelled or released: the lookup
      // says which day and room, or when and by whom.
      const found = await lookUp(trimmed)
        .unwrap()
        .catch(() => null);
      const today = data?.date ?? todayIso();
      const explanation = found ? explainCode(found.tickets, today, formatClock) : null;
      if (explanation) {
        setFailure(null);
        setExplained(explanation);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [byCode, lookUp, run, t, data],
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submitCode(code);
  };
  const onScanned = useCallback(
    (value: string) => {
      setScanning(false);
      void submitCode(value);
    },
    [submitCode],
  );
  const onScanError = useCallback(() => {
    setScanning(false);
    setScanFailed(true);
  }, []);
  const busy = checkInState.isLoading || undoState.isLoading || byCodeState.isLoading;

  return (
    <Page title={t('title')}>
      <p>{t('intro')}</p>
      <form className="check-in__code" onSubmit={onSubmit}>
        <label htmlFor={codeId}>{t('code.label')}</label>
        <div className="check-in__code-row">
          <input
            id={codeId}
            className="field__control check-in__field"
            value={code}
            autoComplete="off"
            onChange={(e) => setCode(e.target.value)}
          />
          <button type="submit" className="button" disabled={busy || !code.trim()}>
            {t('code.submit')}
          </button>
          {canScan() ? (
            <button
              type="button"
              className="button button--secondary"
              aria-pressed={scanning}
              onClick={() => {
                setScanFailed(false);
                setScanning((s) => !s);
              }}
            >
              {scanning ? t('scan.stop') : t('scan.start')}
            </button>
          ) : null}
        </div>
        {scanning ? <QrScanner onCode={onScanned} onError={onScanError} /> : null}
        {scanFailed ? <p className="muted">{t('scan.failed')}</p> : null}
      </form>
      <div aria-live="polite">{done ? <p className="check-in__done">{done}</p> : null}</div>
      {failure ? <ErrorBox error={failure} /> : null}
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
              day.rooms.map((room) => {
                const shown = room.tickets.filter((x) => matchesSearch(x, search));
                return (
                  <section key={room.roomId} className="check-in__room" aria-label={room.roomName}>
                    <h3>{room.roomName}</h3>
                    {shown.length === 0 ? (
                      <p className="muted">{t('empty.no-tickets')}</p>
                    ) : (
                      <TableRegion label={t('caption', { room: room.roomName })}>
                        <table className="data-table check-in-table">
                          <caption className="visually-hidden">
                            {t('caption', { room: room.roomName })}
                          </caption>
                          <thead>
                            <tr>
                              <th scope="col">{t('column.time')}</th>
                              <th scope="col">{t('column.name')}</th>
                              <th scope="col">{t('column.number')}</th>
                              <th scope="col">{t('column.status')}</th>
                              <th scope="col">{t('column.action')}</th>
                            </tr>
                          </thead>
                          <tbody>
                            {shown.map((ticket) => {
                              const name = nameOf(ticket);
                              return (
                                <tr key={ticket.id}>
                                  <td data-label={t('column.time')} className="data-table__nowrap">
                                    {formatTimeRange(ticket.startTime, ticket.endTime)}
                                  </td>
                                  <td data-label={t('column.name')}>{name}</td>
                                  <td data-label={t('column.number')}>{ticket.bookingNumber}</td>
                                  <td data-label={t('column.status')}>
                                    {ticket.noShow
                                      ? t('status.released')
                                      : ticket.checkedInAt
                                        ? t(
                                            ticket.checkedInBy
                                              ? 'status.checked-in-by'
                                              : 'status.checked-in',
                                            {
                                              time: formatClock(ticket.checkedInAt),
                                              by: ticket.checkedInBy ?? '',
                                            },
                                          )
                                        : t('status.open')}
                                    {ticket.awaitingConfirmation ? (
                                      <div className="muted">
                                        {t('status.awaiting-confirmation')}
                                      </div>
                                    ) : null}
                                  </td>
                                  <td data-label={t('column.action')}>
                                    {ticket.noShow ? null : ticket.checkedInAt ? (
                                      canUndo(ticket, now) ? (
                                        <button
                                          type="button"
                                          className="button button--secondary button--small"
                                          disabled={busy}
                                          onClick={() =>
                                            void run(
                                              () => undo(ticket.id).unwrap(),
                                              () => t('done.undone', { name }),
                                            )
                                          }
                                        >
                                          {t('undo')}
                                          <span className="visually-hidden"> {name}</span>
                                        </button>
                                      ) : null
                                    ) : (
                                      <button
                                        type="button"
                                        className="button button--small"
                                        disabled={busy}
                                        onClick={() =>
                                          void run(
                                            () => checkIn(ticket.id).unwrap(),
                                            () => t('done.checked-in', { name }),
                                          )
                                        }
                                      >
                                        {t('check-in')}
                                        <span className="visually-hidden"> {name}</span>
                                      </button>
                                    )}
                                  </td>
                                </tr>
                              );
                            })}
                          </tbody>
                        </table>
                      </TableRegion>
                    )}
                  </section>
                );
              })
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
    </Page>
  );
}
