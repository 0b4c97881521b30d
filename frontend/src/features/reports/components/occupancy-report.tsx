import { useState } from 'react';
import { Link } from 'react-router';
import type { OccupancyReportItem, Room } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { InputField, SelectField } from '../../../components/form-field';
import { roomsOfSite, SiteFilter, useReportSites } from './site-filter';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, todayIso } from '../../../lib/dates';
import { resolveApiUrl } from '../../../lib/url';
import { useGetOccupancyReportQuery, useGetReportRoomsQuery } from '../api/reports-api';
import { noShowTotals } from '../utils/no-shows';
import {
  barWidth,
  defaultOccupancyQuery,
  occupancyByDay,
  occupancyTotals,
  formatSlotTime,
  OCCUPANCY_TYPES,
  type OccupancySum,
  occupancyCsvPath,
  occupancyErrors,
  percentText,
  type OccupancyField,
  type OccupancyQuery,
} from '../utils/reports';
import { fieldMessage } from '../../../lib/field-message';

const idOf = (field: OccupancyField) => `occupancy-${field}`;

/**
 * Route `/occupancy-report`: booked or cancelled tickets per slot of a room in a date range,
 * absolute and as a share of the capacity, as a table and a bar chart. Reloads on every change.
 */
export function OccupancyReport() {
  const { t } = useTranslation('reports');
  const rooms = useGetReportRoomsQuery();

  return (
    <Page title={t('occupancy.title')}>
      <p className="no-print">
        <Link to="/reports">{t('back-to-reports')}</Link>
      </p>
      <LoadingContainer
        data={rooms.data}
        error={rooms.error}
        backLink={{ to: '/reports', label: t('back-to-reports') }}
      >
        {({ content }) =>
          content.length === 0 ? (
            // docs/product.md#screens: without rooms the report shows the error state.
            <ErrorBox
              messageKey="report__no_rooms"
              extra={<Link to="/reports">{t('back-to-reports')}</Link>}
            />
          ) : (
            <OccupancyReportContent rooms={content} />
          )
        }
      </LoadingContainer>
    </Page>
  );
}

function OccupancyReportContent({ rooms }: { rooms: Room[] }) {
  const { t } = useTranslation('reports');
  const [initial] = useState(() => defaultOccupancyQuery(todayIso(), rooms));
  /** What the filters show (possibly invalid while typing). */
  const [values, setValues] = useState<OccupancyQuery>(initial);
  /** The last valid filters: the report shown. */
  const [query, setQuery] = useState<OccupancyQuery>(initial);
  const errors = occupancyErrors(values);
  const room = rooms.find((candidate) => candidate.id === query.roomId);
  // With several sites a site narrows the rooms offered (docs/product.md#sites): the sites with
  // rooms, the report's room then the site's first unless it is of the site already.
  const sites = useReportSites().filter((site) => site.roomCount > 0);
  const [siteSlug, setSiteSlug] = useState('');
  const chooseSite = (slug: string) => {
    setSiteSlug(slug);
    const offered = roomsOfSite(rooms, sites, slug);
    if (offered[0] && !offered.some((r) => r.id === values.roomId)) change('roomId', offered[0].id);
  };
  // No-shows only for a room with check-in; any other room's report is as before.
  const noShows = room?.services.checkInMinutesBefore != null;

  const change = (field: OccupancyField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (Object.keys(occupancyErrors(next)).length === 0) {
      setQuery({ ...next, fromDate: next.fromDate.trim(), untilDate: next.untilDate.trim() });
    }
  };

  const messageOf = (field: OccupancyField) => {
    const error = errors[field];
    return error ? fieldMessage(t, error) : undefined;
  };

  const header = t('occupancy.header', {
    room: room?.name ?? '',
    type: t(`occupancy.types.${query.status}`),
    from: formatDate(query.fromDate),
    until: formatDate(query.untilDate),
  });

  return (
    <>
      <form
        className="report-filters no-print"
        noValidate
        aria-label={t('occupancy.filters')}
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="field-row">
          <InputField
            id={idOf('fromDate')}
            type="date"
            label={t('occupancy.from')}
            required
            value={values.fromDate}
            error={messageOf('fromDate')}
            onChange={(event) => change('fromDate', event.target.value)}
          />
          <InputField
            id={idOf('untilDate')}
            type="date"
            label={t('occupancy.until')}
            required
            value={values.untilDate}
            error={messageOf('untilDate')}
            onChange={(event) => change('untilDate', event.target.value)}
          />
        </div>
        <div className="field-row">
          <SiteFilter id="occupancy-site" sites={sites} value={siteSlug} onChange={chooseSite} />
          <SelectField
            id={idOf('roomId')}
            label={t('occupancy.room')}
            required
            value={values.roomId}
            options={roomsOfSite(rooms, sites, siteSlug).map((candidate) => ({
              value: candidate.id,
              label: candidate.name,
            }))}
            onChange={(event) => change('roomId', event.target.value)}
          />
          <SelectField
            id={idOf('status')}
            label={t('occupancy.type')}
            required
            value={values.status}
            options={OCCUPANCY_TYPES.map((type) => ({
              value: type,
              label: t(`occupancy.types.${type}`),
            }))}
            onChange={(event) => change('status', event.target.value)}
          />
        </div>
      </form>
      {Object.keys(errors).length > 0 ? (
        // Not the report of earlier filters under the error: it would not be what they say.
        <p className="notice notice--warning" role="status">
          {t('occupancy.fix-filters')}
        </p>
      ) : (
        <OccupancyResult query={query} header={header} noShows={noShows} />
      )}
    </>
  );
}

function OccupancyResult({
  query,
  header,
  noShows,
}: {
  query: OccupancyQuery;
  header: string;
  noShows: boolean;
}) {
  const { t, i18n } = useTranslation('reports');
  const { baseApiUrl } = useConfig();
  const report = useGetOccupancyReportQuery(query);
  return (
    <>
      <h2 className="report-heading">{header}</h2>
      <LoadingContainer
        data={report.data}
        error={report.error}
        backLink={{ to: '/reports', label: t('back-to-reports') }}
      >
        {(items) => (
          <>
            <p className="result-count" role="status">
              {report.isFetching
                ? t('loading', { ns: 'common' })
                : t('occupancy.count', { count: items.length })}
            </p>
            <div className="button-row no-print">
              {items.length > 0 ? (
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => window.print()}
                >
                  {t('print')}
                </button>
              ) : null}
              <a
                className="button button--secondary"
                href={resolveApiUrl(baseApiUrl, occupancyCsvPath(query))}
                download
              >
                {t('csv')}
              </a>
            </div>
            {items.length === 0 ? (
              <EmptyState>{t('empty.no-entries', { ns: 'common' })}</EmptyState>
            ) : (
              <>
                <OccupancyTotals items={items} locale={i18n.language} noShows={noShows} />
                {/* The chart, a glance per day, before the table of every slot it sums. */}
                <OccupancyChart days={occupancyByDay(items)} locale={i18n.language} />
                <OccupancyTable
                  items={items}
                  noShows={noShows}
                  caption={header}
                  busy={report.isFetching}
                  locale={i18n.language}
                />
              </>
            )}
          </>
        )}
      </LoadingContainer>
    </>
  );
}

const slotLabel = (item: OccupancyReportItem) =>
  `${formatDate(item.date)} ${formatSlotTime(item.time)}`;

interface TableProps {
  items: OccupancyReportItem[];
  noShows: boolean;
  caption: string;
  busy: boolean;
  locale: string;
}

function OccupancyTable({ items, noShows, caption, busy, locale }: TableProps) {
  const { t } = useTranslation('reports');
  // Confirmed addresses: the column only while some slot has bookings awaiting confirmation.
  const awaiting = items.some((item) => item.awaitingConfirmation);
  return (
    <TableRegion label={caption} busy={busy}>
      <table className="data-table report-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('occupancy.column.slot')}</th>
            <th scope="col" className="data-table__number">
              {t('occupancy.column.count')}
            </th>
            <th scope="col" className="data-table__number">
              {t('occupancy.column.capacity')}
            </th>
            <th scope="col" className="data-table__number">
              {t('occupancy.column.percentage')}
            </th>
            {noShows ? (
              <th scope="col" className="data-table__number">
                {t('occupancy.column.no-shows')}
              </th>
            ) : null}
            {awaiting ? (
              <th scope="col" className="data-table__number">
                {t('occupancy.column.awaiting-confirmation')}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.timeSlotId}>
              <td className="data-table__nowrap">{slotLabel(item)}</td>
              <td className="data-table__number">{item.count}</td>
              <td className="data-table__number">{item.capacity}</td>
              <td className="data-table__number">{percentText(item.percentage, locale)}</td>
              {noShows ? <td className="data-table__number">{noShowText(item, locale)}</td> : null}
              {awaiting ? (
                <td className="data-table__number">{item.awaitingConfirmation ?? 0}</td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** A slot's (or the total's) no-shows with their rate, e.g. `2 (10 %)`. */
function noShowText(x: { noShows: number; noShowRate: number | null }, locale: string): string {
  const rate = percentText(x.noShowRate, locale);
  return rate ? `${x.noShows} (${rate})` : String(x.noShows);
}

/** The report's totals: tickets, capacity, overall and mean occupancy. */
function OccupancyTotals({
  items,
  locale,
  noShows,
}: {
  items: OccupancyReportItem[];
  locale: string;
  noShows: boolean;
}) {
  const { t } = useTranslation('reports');
  const totals = occupancyTotals(items);
  return (
    <dl className="summary-list occupancy-totals">
      <div>
        <dt>{t('occupancy.totals.count')}</dt>
        <dd>
          {t('occupancy.totals.count-value', {
            seats: t('occupancy.totals.seats', { count: totals.count }),
            capacity: totals.capacity,
            slots: t('occupancy.totals.slots', { count: totals.slots }),
          })}
        </dd>
      </div>
      <div>
        <dt>{t('occupancy.totals.overall')}</dt>
        <dd>{percentText(totals.percentage, locale) || '–'}</dd>
      </div>
      <div>
        <dt>{t('occupancy.totals.mean')}</dt>
        <dd>{percentText(totals.meanPercentage, locale) || '–'}</dd>
      </div>
      {noShows ? (
        <div>
          <dt>{t('occupancy.totals.no-shows')}</dt>
          <dd>{noShowText(noShowTotals(items), locale)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * A bar per day, drawn with CSS (printed too): the bars are decoration, every bar's text value
 * stands next to it, so the chart reads as a list without them.
 */
function OccupancyChart({ days, locale }: { days: OccupancySum[]; locale: string }) {
  const { t } = useTranslation('reports');
  return (
    <figure className="bar-chart">
      <figcaption className="bar-chart__caption">{t('occupancy.chart-day')}</figcaption>
      <ul className="bar-chart__list">
        {days.map((item) => {
          const percent = percentText(item.percentage, locale);
          return (
            <li key={item.date} className="bar-chart__item">
              <span className="bar-chart__label">{formatDate(item.date)}</span>
              <span className="bar-chart__track" aria-hidden="true">
                <span
                  className={`bar-chart__bar${(item.percentage ?? 0) > 100 ? ' bar-chart__bar--over' : ''}`}
                  style={{ width: `${barWidth(item.percentage)}%` }}
                />
              </span>
              <span className="bar-chart__value">
                {percent
                  ? t('occupancy.bar-value', {
                      percent,
                      count: item.count,
                      capacity: item.capacity,
                    })
                  : t('occupancy.bar-no-capacity', { count: item.count })}
              </span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
