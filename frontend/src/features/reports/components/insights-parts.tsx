import { useId, type ReactNode } from 'react';
import type { Insights } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { resolveApiUrl } from '../../../lib/url';
import {
  cellAt,
  heatmapHours,
  insightsCsvPath,
  leadBuckets,
  numberText,
  share,
  shareText,
  type InsightsPart,
  type InsightsQuery,
} from '../utils/insights';
import { Bars, OccupancyHeatmap, WeeklyLines } from './insights-charts';

/**
 * The parts of the insights (docs/product.md#insights), each a chart with its figures as a
 * table beside it and a CSV: occupancy by weekday and hour, the weekly trend, unmet demand, lead
 * time and late cancellations.
 */

/** One part: its heading, the chart, the table beside it and its CSV. */
function Part({
  part,
  query,
  title,
  chart,
  table,
  empty,
  stacked = false,
}: {
  part: InsightsPart;
  query: InsightsQuery;
  title: string;
  chart: (captionId: string) => ReactNode;
  table: ReactNode;
  empty: boolean;
  /** The table under the chart at every width (a wide chart, a table of many columns). */
  stacked?: boolean;
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
        <div className={`insights-part__body${stacked ? ' insights-part__body--stacked' : ''}`}>
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

export function HeatmapPart({ x, query }: PartProps) {
  const { t, i18n } = useTranslation('reports');
  const number = (value: number) => numberText(value, i18n.language);
  const hours = heatmapHours(x.heatmap);
  const weekday = (d: number) => t(`insights.weekday.${d}`);
  const title = t('insights.heatmap.title');
  return (
    <Part
      part="heatmap"
      query={query}
      title={title}
      empty={hours.length === 0}
      stacked
      chart={(id) => (
        <OccupancyHeatmap
          cells={x.heatmap}
          hours={hours}
          weekdayLabel={weekday}
          labelledBy={id}
          scrollLabel={t('insights.chart', { part: title })}
        />
      )}
      table={
        <TableRegion label={t('insights.table', { part: title })}>
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
                      <td className="data-table__number">{number(c.offeredSeatHours)}</td>
                      <td className="data-table__number">{number(c.bookedSeatHours)}</td>
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

export function WeeksPart({ x, query }: PartProps) {
  const { t, i18n } = useTranslation('reports');
  const number = (value: number) => numberText(value, i18n.language);
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
          <WeeklyLines
            weeks={x.weeks.map((w) => w.weekStart)}
            series={series}
            labelledBy={id}
            formatNumber={number}
          />
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
        <TableRegion label={t('insights.table', { part: title })}>
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
                      {number(w[key])}
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

export function DemandPart({ x, query }: PartProps) {
  const { t, i18n } = useTranslation('reports');
  const number = (value: number) => numberText(value, i18n.language);
  const title = t('insights.demand.title');
  const keys = ['refused', 'waitlistJoins', 'offersTaken', 'offersLapsed'] as const;
  const bars = keys.map((key) => ({ label: t(`insights.demand.${key}`), value: x.demand[key] }));
  return (
    <Part
      part="demand"
      query={query}
      title={title}
      empty={false}
      chart={(id) => <Bars bars={bars} labelledBy={id} formatNumber={number} />}
      table={
        <TableRegion label={t('insights.table', { part: title })}>
          <table className="data-table report-table">
            <caption className="visually-hidden">{title}</caption>
            <tbody>
              {bars.map((b) => (
                <tr key={b.label}>
                  <th scope="row">{b.label}</th>
                  <td className="data-table__number">{number(b.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      }
    />
  );
}

export function LeadTimePart({ x, query }: PartProps) {
  const { t, i18n } = useTranslation('reports');
  const number = (value: number) => numberText(value, i18n.language);
  const days = (value: number) => t('insights.lead.days', { count: value });
  const title = t('insights.lead.title');
  const bucketLabel = (from: number, until: number | null) =>
    until === null
      ? t('insights.lead.days-more', { count: from })
      : from === until
        ? days(from)
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
            <dd>{x.leadTimeDays[p] === null ? none : days(x.leadTimeDays[p])}</dd>
          </div>
        ))}
        <div>
          <dt>{t('insights.lead.late')}</dt>
          <dd>
            {x.lateCancellationShare === null
              ? none
              : t('insights.lead.late-value', {
                  share: shareText(x.lateCancellationShare, i18n.language),
                  late: number(x.lateCancellations),
                  count: x.cancellations,
                  cancellations: number(x.cancellations),
                })}
          </dd>
        </div>
      </dl>
      <Part
        part="lead-time"
        query={query}
        title={title}
        empty={x.leadTimeDays.histogram.length === 0}
        chart={(id) => <Bars bars={bars} labelledBy={id} formatNumber={number} />}
        table={
          <TableRegion label={t('insights.table', { part: title })}>
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
                    <td className="data-table__number">{number(b.value)}</td>
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
