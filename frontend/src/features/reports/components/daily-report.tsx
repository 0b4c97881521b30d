import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { DailyReport as DailyReportData } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { InputField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { addDaysIso, formatDate, isIsoDate, todayIso } from '../../../lib/dates';
import { resolveApiUrl } from '../../../lib/url';
import { useGetDailyReportQuery, useGetReportRoomQuery } from '../api/reports-api';
import { checkDailyReport, dailyCsvPath, formatSlotTime } from '../utils/reports';
import { fieldMessage } from '../../../lib/field-message';

const DATE_ID = 'daily-report-date';

/**
 * Route `/daily-report/:id`: the booked tickets of a room on a day (query `date`, default today)
 * with seat numbers per slot. Choosing another date reloads the report.
 */
export function DailyReport() {
  const { t } = useTranslation('reports');
  const { id = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const [today] = useState(() => todayIso());
  const requested = searchParams.get('date') ?? '';
  const date = isIsoDate(requested) ? requested : today;
  const [input, setInput] = useState(date);
  const [shownDate, setShownDate] = useState(date);
  const [error, setError] = useState<string | undefined>();
  const room = useGetReportRoomQuery(id);
  const report = useGetDailyReportQuery({ roomId: id, date });

  // The date changed from outside (back/forward): show it in the picker.
  if (date !== shownDate) {
    setShownDate(date);
    setInput(date);
    setError(undefined);
  }

  const change = (value: string) => {
    setInput(value);
    const result = checkDailyReport(value);
    if (!result.ok) {
      const problem = result.errors.date ?? { key: 'invalid' };
      setError(fieldMessage(t, problem));
      return;
    }
    setError(undefined);
    setSearchParams({ date: result.data.date }, { replace: true });
  };

  const name = room.data?.name ?? report.data?.roomName;

  return (
    <Page title={name ? t('daily.title-room', { room: name }) : t('daily.title')}>
      <p className="no-print">
        <Link to="/reports">{t('back-to-reports')}</Link>
      </p>
      <form className="report-filters no-print" noValidate onSubmit={(e) => e.preventDefault()}>
        <InputField
          id={DATE_ID}
          type="date"
          label={t('daily.date')}
          required
          value={input}
          error={error}
          onChange={(event) => change(event.target.value)}
        />
      </form>
      <nav className="period-nav no-print" aria-label={t('daily.day-nav')}>
        <Link className="button button--secondary" to={`?date=${addDaysIso(date, -1)}`} replace>
          {t('daily.previous-day')}
        </Link>
        <Link className="button button--secondary" to={`?date=${addDaysIso(date, 1)}`} replace>
          {t('daily.next-day')}
        </Link>
      </nav>
      <h2 className="report-heading">{t('daily.heading', { date: formatDate(date) })}</h2>
      <LoadingContainer
        data={report.data}
        error={report.error}
        backLink={{ to: '/reports', label: t('back-to-reports') }}
      >
        {(data) => <DailyReportTable report={data} roomId={id} busy={report.isFetching} />}
      </LoadingContainer>
    </Page>
  );
}

interface TableProps {
  report: DailyReportData;
  roomId: string;
  busy: boolean;
}

function DailyReportTable({ report, roomId, busy }: TableProps) {
  const { t } = useTranslation('reports');
  const { baseApiUrl } = useConfig();
  const csvUrl = resolveApiUrl(baseApiUrl, dailyCsvPath(roomId, report.date));

  return (
    <>
      <p className="result-count" role="status">
        {busy ? t('loading', { ns: 'common' }) : t('daily.count', { count: report.content.length })}
      </p>
      <div className="button-row no-print">
        {report.content.length > 0 ? (
          <button type="button" className="button button--secondary" onClick={() => window.print()}>
            {t('print')}
          </button>
        ) : null}
        <a className="button button--secondary" href={csvUrl} download>
          {t('csv')}
        </a>
      </div>
      {report.content.length === 0 ? (
        <EmptyState>{t('empty.no-entries', { ns: 'common' })}</EmptyState>
      ) : (
        <TableRegion
          label={t('daily.caption', { room: report.roomName, date: formatDate(report.date) })}
          busy={busy}
        >
          <table className="data-table report-table">
            <caption className="visually-hidden">
              {t('daily.caption', { room: report.roomName, date: formatDate(report.date) })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('daily.column.slot')}</th>
                <th scope="col" className="data-table__number">
                  {t('daily.column.seat')}
                </th>
                <th scope="col">{t('daily.column.last-name')}</th>
                <th scope="col">{t('daily.column.first-name')}</th>
                <th scope="col">{t('daily.column.accessibility')}</th>
              </tr>
            </thead>
            <tbody>
              {report.content.map((row) => (
                <tr key={row.ticketId}>
                  <td className="data-table__nowrap">{formatSlotTime(row.timeSlot)}</td>
                  <td className="data-table__number">{row.seatNumber}</td>
                  <td>{row.lastName ?? '–'}</td>
                  <td>
                    {row.firstName ?? '–'}
                    {/* Confirmed addresses: the seat is taken, the visitor has not confirmed yet. */}
                    {row.awaitingConfirmation ? (
                      <div className="muted">{t('daily.awaiting-confirmation')}</div>
                    ) : null}
                  </td>
                  <td>{t(row.accessibility ? 'yes' : 'no')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}
