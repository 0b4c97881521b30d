import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Insights, Room } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { InputField, SelectField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, todayIso } from '../../../lib/dates';
import { problemCode } from '../../../lib/error-message';
import { resolveApiUrl } from '../../../lib/url';
import { useGetInsightsQuery, useGetReportRoomsQuery, useGetWhatIfQuery } from '../api/reports-api';
import {
  cellAt,
  defaultInsightsQuery,
  heatmapHours,
  insightsCsvPath,
  insightsErrors,
  leadBuckets,
  share,
  shareText,
  type InsightsField,
  type InsightsPart,
  type InsightsQuery,
} from '../utils/insights';
import { Bars, OccupancyHeatmap, WeeklyLines } from './insights-charts';

const idOf = (field: InsightsField) => `insights-${field}`;

/**
 * Route `/insights` (docs/product.md#insights): for one room or all, over a period (the last
 * 8 weeks by default), occupancy by weekday and hour, the weekly trend, unmet demand, lead time
 * and late cancellations. Every chart has its figures as a table beside it and a CSV.
 */
export function InsightsPage() {
  const { t } = useTranslation('reports');
  const rooms = useGetReportRoomsQuery();
  return (
    <Page title={t('insights.title')}>
      <p className="no-print">
        <Link to="/reports">{t('back-to-reports')}</Link>
      </p>
      <LoadingContainer
        data={rooms.data}
        error={rooms.error}
        backLink={{ to: '/reports', label: t('back-to-reports') }}
      >
        {({ content }) => <InsightsContent rooms={content} />}
      </LoadingContainer>
    </Page>
  );
}

function InsightsContent({ rooms }: { rooms: Room[] }) {
  const { t } = useTranslation('reports');
  const [initial] = useState(() => defaultInsightsQuery(todayIso()));
  const [values, setValues] = useState<InsightsQuery>(initial);
  const [query, setQuery] = useState<InsightsQuery>(initial);
  const errors = insightsErrors(values);

  const change = (field: InsightsField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (Object.keys(insightsErrors(next)).length === 0)
      setQuery({ ...next, fromDate: next.fromDate.trim(), untilDate: next.untilDate.trim() });
  };
  const messageOf = (field: InsightsField) => {
    const error = errors[field];
    return error ? t(`validation.${error.key}`, { ns: 'common', ...error.params }) : undefined;
  };
  const room = rooms.find((candidate) => candidate.id === query.roomId);

  return (
    <>
      <form
        className="report-filters no-print"
        noValidate
        aria-label={t('insights.filters')}
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="field-row">
          <SelectField
            id={idOf('roomId')}
            label={t('insights.room')}
            value={values.roomId}
            options={[
              { value: '', label: t('insights.all-rooms') },
              ...rooms.map((candidate) => ({ value: candidate.id, label: candidate.name })),
            ]}
            onChange={(event) => change('roomId', event.target.value)}
          />
        </div>
        <div className="field-row">
          <InputField
            id={idOf('fromDate')}
            type="date"
            label={t('insights.from')}
            required
            value={values.fromDate}
            error={messageOf('fromDate')}
            onChange={(event) => change('fromDate', event.target.value)}
          />
          <InputField
            id={idOf('untilDate')}
            type="date"
            label={t('insights.until')}
            required
            value={values.untilDate}
            error={messageOf('untilDate')}
            onChange={(event) => change('untilDate', event.target.value)}
          />
        </div>
      </form>
      {Object.keys(errors).length > 0 ? (
        <p className="notice notice--warning" role="status">
          {t('insights.fix-filters')}
        </p>
      ) : (
        <InsightsResult
          query={query}
          header={t('insights.header', {
            room: room?.name ?? t('insights.all-rooms'),
            from: formatDate(query.fromDate),
            until: formatDate(query.untilDate),
          })}
        />
      )}
    </>
  );
}

function InsightsResult({ query, header }: { query: InsightsQuery; header: string }) {
  const { t } = useTranslation('reports');
  const insights = useGetInsightsQuery(query);
  return (
    <>
      <h2 className="report-heading">{header}</h2>
      <LoadingContainer
        data={insights.data}
        error={insights.error}
        backLink={{ to: '/reports', label: t('back-to-reports') }}
      >
        {(x) => (
          <div aria-busy={insights.isFetching || undefined}>
            <HeatmapPart x={x} query={query} />
            <WeeksPart x={x} query={query} />
            <DemandPart x={x} query={query} />
            <LeadTimePart x={x} query={query} />
            {query.roomId !== '' ? <WhatIfPart key={query.roomId} query={query} /> : null}
          </div>
        )}
      </LoadingContainer>
    </>
  );
}

/** One part: its heading, the chart, the table beside it and its CSV. */
function Part({
  part,
  query,
  title,
  chart,
  table,
  empty,
}: {
  part: InsightsPart;
  query: InsightsQuery;
  title: string;
  chart: (captionId: string) => ReactNode;
  table: ReactNode;
  empty: boolean;
}) {
  const { t } = useTranslation('reports');
  const { baseApiUrl } = useConfig();
  const headingId = useId();
  const captionId = useId();
  return (
    <section className="insights-part" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {empty ? (
        <EmptyState>{t('empty.no-entries', { ns: 'common' })}</EmptyState>
      ) : (
        <div className="insights-part__body">
          <figure className="insights-figure">
            <figcaption id={captionId} className="visually-hidden">
              {title}
            </figcaption>
            {chart(captionId)}
          </figure>
          {table}
        </div>
      )}
      <p className="no-print">
        <a
          className="button button--secondary"
          href={resolveApiUrl(baseApiUrl, insightsCsvPath(query, part))}
          download
        >
          {t('insights.csv', { part: title })}
        </a>
      </p>
    </section>
  );
}

interface PartProps {
  x: Insights;
  query: InsightsQuery;
}

function HeatmapPart({ x, query }: PartProps) {
  const { t, i18n } = useTranslation('reports');
  const hours = heatmapHours(x.heatmap);
  const weekday = (d: number) => t(`insights.weekday.${d}`);
  const title = t('insights.heatmap.title');
  return (
    <Part
      part="heatmap"
      query={query}
      title={title}
      empty={hours.length === 0}
      chart={(id) => (
        <OccupancyHeatmap cells={x.heatmap} hours={hours} weekdayLabel={weekday} labelledBy={id} />
      )}
      table={
        <TableRegion label={title}>
          <table className="data-table report-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('insights.heatmap.weekday')}</th>
                <th scope="col">{t('insights.heatmap.hour')}</th>
                <th scope="col" className="data-table__number">
                  {t('insights.heatmap.offered')}
                </th>
                <th scope="col" className="data-table__number">
                  {t('insights.heatmap.booked')}
                </th>
                <th scope="col" className="data-table__number">
                  {t('insights.heatmap.occupancy')}
                </th>
              </tr>
            </thead>
            <tbody>
              {[1, 2, 3, 4, 5, 6, 7].flatMap((d) =>
                hours.map((h) => {
                  const c = cellAt(x.heatmap, d, h);
                  if (!c) return null;
                  return (
                    <tr key={`${d}-${h}`}>
                      <td>{weekday(d)}</td>
                      <td>{t('insights.heatmap.hour-value', { hour: h })}</td>
                      <td className="data-table__number">{c.offeredSeatHours}</td>
                      <td className="data-table__number">{c.bookedSeatHours}</td>
                      <td className="data-table__number">
                        {shareText(share(c.bookedSeatHours, c.offeredSeatHours), i18n.language)}
                      </td>
                    </tr>
                  );
                }),
              )}
            </tbody>
          </table>
        </TableRegion>
      }
    />
  );
}

const SERIES_COLORS = ['#00707a', '#1f4e9c', '#b3541e', '#6b2d8c'];

function WeeksPart({ x, query }: PartProps) {
  const { t } = useTranslation('reports');
  const title = t('insights.weeks.title');
  const keys = ['offeredSeats', 'bookedSeats', 'cancelled', 'noShows'] as const;
  const series = keys.map((key, i) => ({
    label: t(`insights.weeks.${key}`),
    color: SERIES_COLORS[i]!,
    values: x.weeks.map((w) => w[key]),
  }));
  return (
    <Part
      part="weeks"
      query={query}
      title={title}
      empty={x.weeks.length === 0}
      chart={(id) => (
        <>
          <WeeklyLines weeks={x.weeks.map((w) => w.weekStart)} series={series} labelledBy={id} />
          <ul className="insights-legend" aria-hidden="true">
            {series.map((s) => (
              <li key={s.label}>
                <span className="insights-legend__swatch" style={{ background: s.color }} />
                {s.label}
              </li>
            ))}
          </ul>
        </>
      )}
      table={
        <TableRegion label={title}>
          <table className="data-table report-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('insights.weeks.week')}</th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="data-table__number">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {x.weeks.map((w) => (
                <tr key={w.weekStart}>
                  <td className="data-table__nowrap">{formatDate(w.weekStart)}</td>
                  {keys.map((key) => (
                    <td key={key} className="data-table__number">
                      {w[key]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      }
    />
  );
}

function DemandPart({ x, query }: PartProps) {
  const { t } = useTranslation('reports');
  const title = t('insights.demand.title');
  const keys = ['refused', 'waitlistJoins', 'offersTaken', 'offersLapsed'] as const;
  const bars = keys.map((key) => ({ label: t(`insights.demand.${key}`), value: x.demand[key] }));
  return (
    <Part
      part="demand"
      query={query}
      title={title}
      empty={false}
      chart={(id) => <Bars bars={bars} labelledBy={id} />}
      table={
        <TableRegion label={title}>
          <table className="data-table report-table">
            <caption className="visually-hidden">{title}</caption>
            <tbody>
              {bars.map((b) => (
                <tr key={b.label}>
                  <th scope="row">{b.label}</th>
                  <td className="data-table__number">{b.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      }
    />
  );
}

function LeadTimePart({ x, query }: PartProps) {
  const { t, i18n } = useTranslation('reports');
  const title = t('insights.lead.title');
  const bucketLabel = (from: number, until: number | null) =>
    until === null
      ? t('insights.lead.days-more', { from })
      : from === until
        ? t('insights.lead.days', { count: from })
        : t('insights.lead.days-range', { from, until });
  const bars = leadBuckets(x.leadTimeDays.histogram).map((b) => ({
    label: bucketLabel(b.from, b.until),
    value: b.bookings,
  }));
  const none = t('insights.lead.none');
  return (
    <>
      <dl className="summary-list">
        {(['p50', 'p90'] as const).map((p) => (
          <div key={p}>
            <dt>{t(`insights.lead.${p}`)}</dt>
            <dd>
              {x.leadTimeDays[p] === null
                ? none
                : t('insights.lead.days', { count: x.leadTimeDays[p] })}
            </dd>
          </div>
        ))}
        <div>
          <dt>{t('insights.lead.late')}</dt>
          <dd>
            {x.lateCancellationShare === null
              ? none
              : t('insights.lead.late-value', {
                  share: shareText(x.lateCancellationShare, i18n.language),
                  late: x.lateCancellations,
                  count: x.cancellations,
                })}
          </dd>
        </div>
      </dl>
      <Part
        part="lead-time"
        query={query}
        title={title}
        empty={x.leadTimeDays.histogram.length === 0}
        chart={(id) => <Bars bars={bars} labelledBy={id} />}
        table={
          <TableRegion label={title}>
            <table className="data-table report-table">
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('insights.lead.bucket')}</th>
                  <th scope="col" className="data-table__number">
                    {t('insights.lead.bookings')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {bars.map((b) => (
                  <tr key={b.label}>
                    <td>{b.label}</td>
                    <td className="data-table__number">{b.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        }
      />
    </>
  );
}

/** The rules the replay changes: seats of every slot, tickets per visitor and day. */
interface WhatIfAsk {
  capacity?: number;
  maxTicketsPerDay?: number;
}

/** A whole number in [min, max] from a field, undefined when empty, null when not valid. */
function wholeIn(text: string, min: number, max: number): number | undefined | null {
  const v = text.trim();
  if (v === '') return undefined;
  if (!/^\d{1,6}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
}

/** "What if …?": the replay under other rules beside what happened (docs/product.md#insights). */
function WhatIfPart({ query }: { query: InsightsQuery }) {
  const { t } = useTranslation('reports');
  const headingId = useId();
  const [seats, setSeats] = useState('');
  const [perDay, setPerDay] = useState('');
  const [tried, setTried] = useState(false);
  const [asked, setAsked] = useState<WhatIfAsk | null>(null);
  const capacity = wholeIn(seats, 0, 99999);
  const maxTicketsPerDay = wholeIn(perDay, 1, 100);
  const none = capacity === undefined && maxTicketsPerDay === undefined;
  const replay = useGetWhatIfQuery({ query, change: asked ?? {} }, { skip: asked === null });
  const title = t('insights.what-if.title');
  const changed = asked
    ? [
        ...(asked.capacity === undefined
          ? []
          : [t('insights.what-if.seats-n', { seats: asked.capacity })]),
        ...(asked.maxTicketsPerDay === undefined
          ? []
          : [t('insights.what-if.per-day-n', { tickets: asked.maxTicketsPerDay })]),
      ].join(', ')
    : '';
  return (
    <section className="insights-part" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <form
        className="report-filters no-print"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (capacity === null || maxTicketsPerDay === null || none) return;
          setAsked({
            ...(capacity === undefined ? {} : { capacity }),
            ...(maxTicketsPerDay === undefined ? {} : { maxTicketsPerDay }),
          });
        }}
      >
        <div className="field-row">
          <InputField
            id="insights-what-if-seats"
            type="number"
            inputMode="numeric"
            min={0}
            max={99999}
            label={t('insights.what-if.seats')}
            value={seats}
            error={
              capacity === null
                ? t('insights.what-if.seats-invalid')
                : tried && none
                  ? t('insights.what-if.change-required')
                  : undefined
            }
            onChange={(event) => setSeats(event.target.value)}
          />
          <InputField
            id="insights-what-if-per-day"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            label={t('insights.what-if.per-day')}
            value={perDay}
            error={maxTicketsPerDay === null ? t('insights.what-if.per-day-invalid') : undefined}
            onChange={(event) => setPerDay(event.target.value)}
          />
        </div>
        <button type="submit" className="button">
          {t('insights.what-if.replay')}
        </button>
      </form>
      {asked === null ? null : problemCode(replay.error)?.code === 'insights__replay_busy' ? (
        // Other replays hold every turn: the message names the wait, the button asks again.
        <ErrorBox
          error={replay.error}
          extra={
            <button
              type="button"
              className="button"
              disabled={replay.isFetching}
              onClick={() => void replay.refetch()}
            >
              {t('insights.what-if.try-again')}
            </button>
          }
        />
      ) : (
        <LoadingContainer
          data={replay.currentData}
          error={replay.error}
          backLink={{ to: '/reports', label: t('back-to-reports') }}
        >
          {(w) => (
            <TableRegion label={t('insights.what-if.caption', { change: changed })}>
              <table className="data-table report-table">
                <caption className="visually-hidden">
                  {t('insights.what-if.caption', { change: changed })}
                </caption>
                <thead>
                  <tr>
                    <td />
                    <th scope="col" className="data-table__number">
                      {t('insights.what-if.actual')}
                    </th>
                    <th scope="col" className="data-table__number">
                      {t('insights.what-if.with-change', { change: changed })}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {(['served', 'refused', 'waitlisted'] as const).map((key) => (
                    <tr key={key}>
                      <th scope="row">{t(`insights.what-if.${key}`)}</th>
                      <td className="data-table__number">{w.actual[key]}</td>
                      <td className="data-table__number">{w.whatIf[key]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
        </LoadingContainer>
      )}
    </section>
  );
}
