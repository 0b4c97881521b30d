import { useId } from 'react';
import type { SeatInsights } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { resolveApiUrl } from '../../../lib/url';
import { useGetSeatInsightsQuery } from '../api/reports-api';
import { numberText, seatInsightsCsvPath, shareText, type InsightsQuery } from '../utils/insights';
import { Bars } from './insights-charts';

/**
 * The seats' use of a room with a seat plan (docs/product.md#insights): per attribute its seats'
 * use, how early they are booked and how often they were booked up before the room, the seat
 * wishes turned away, and per seat its use, the least used first. The chart has its figures as
 * a table beside it; each table has its CSV.
 */
export function SeatInsightsPart({ query }: { query: InsightsQuery }) {
  const { t } = useTranslation('reports');
  const headingId = useId();
  const insights = useGetSeatInsightsQuery(query, { skip: query.roomId === '' });
  return (
    <section className="insights-part" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('insights.seats.title')}</h3>
      <p>{t('insights.seats.intro')}</p>
      {query.roomId === '' ? (
        <EmptyState>{t('insights.seats.pick-room')}</EmptyState>
      ) : (
        <LoadingContainer data={insights.data} error={insights.error}>
          {(x) =>
            x.seats.length === 0 ? (
              <EmptyState>{t('insights.seats.no-plan')}</EmptyState>
            ) : (
              <div aria-busy={insights.isFetching || undefined}>
                <AttributesTable x={x} query={query} />
                <SeatsTable x={x} query={query} />
              </div>
            )
          }
        </LoadingContainer>
      )}
    </section>
  );
}

interface Props {
  x: SeatInsights;
  query: InsightsQuery;
}

function useAttributeName() {
  const { t } = useTranslation('reports');
  return (attribute: string) => t(`seats.attribute.${attribute}`, { ns: 'admin-rooms' });
}

function CsvLink({
  query,
  part,
  label,
}: {
  query: InsightsQuery;
  part: 'seats' | 'attributes';
  label: string;
}) {
  const { baseApiUrl } = useConfig();
  return (
    <p className="no-print">
      <a
        className="button button--secondary"
        href={resolveApiUrl(baseApiUrl, seatInsightsCsvPath(query, part))}
        download
      >
        {label}
      </a>
    </p>
  );
}

function AttributesTable({ x, query }: Props) {
  const { t, i18n } = useTranslation('reports');
  const number = (value: number) => numberText(value, i18n.language);
  const percent = (value: number | null) => shareText(value, i18n.language) || '–';
  const attributeName = useAttributeName();
  const captionId = useId();
  const rows = x.attributes.filter((a) => a.seats > 0);
  const title = t('insights.seats.per-attribute');
  const bars = rows.map((a) => ({
    label: attributeName(a.attribute),
    value: Math.round((a.useShare ?? 0) * 100),
  }));
  return (
    <>
      <h4>{title}</h4>
      <div className="insights-part__body">
        <figure className="insights-figure">
          <figcaption id={captionId} className="visually-hidden">
            {t('insights.seats.chart')}
          </figcaption>
          <Bars bars={bars} labelledBy={captionId} formatNumber={(v) => `${number(v)} %`} />
        </figure>
        <TableRegion label={t('insights.table', { part: title })}>
          <table className="data-table report-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('insights.seats.attribute')}</th>
                {(
                  [
                    'count',
                    'offered',
                    'booked',
                    'use',
                    'lead',
                    'slots',
                    'sold-out',
                    'sold-out-first',
                    'refused-none',
                    'refused-taken',
                  ] as const
                ).map((key) => (
                  <th key={key} scope="col" className="data-table__number">
                    {t(`insights.seats.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.attribute}>
                  <th scope="row">{attributeName(a.attribute)}</th>
                  <td className="data-table__number">{number(a.seats)}</td>
                  <td className="data-table__number">{number(a.offeredHours)}</td>
                  <td className="data-table__number">{number(a.bookedHours)}</td>
                  <td className="data-table__number">{percent(a.useShare)}</td>
                  <td className="data-table__number">
                    {a.medianLeadDays === null
                      ? '–'
                      : t('insights.lead.days', { count: a.medianLeadDays })}
                  </td>
                  <td className="data-table__number">{number(a.slots)}</td>
                  <td className="data-table__number">{number(a.soldOutSlots)}</td>
                  <td className="data-table__number">{number(a.soldOutFirstSlots)}</td>
                  <td className="data-table__number">{number(a.refusedNoneMatching)}</td>
                  <td className="data-table__number">{number(a.refusedTaken)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      </div>
      <p>
        {t('insights.seats.refused-all', {
          noneMatching: number(x.refused.noneMatching),
          taken: number(x.refused.taken),
        })}
      </p>
      <CsvLink query={query} part="attributes" label={t('insights.seats.csv-attributes')} />
    </>
  );
}

/** The seats, the least used first (never offered last), then in the plan's order. */
const byUse = (seats: SeatInsights['seats']) =>
  seats
    .map((seat, order) => ({ seat, order }))
    .sort(
      (a, b) => (a.seat.useShare ?? Infinity) - (b.seat.useShare ?? Infinity) || a.order - b.order,
    )
    .map((s) => s.seat);

function SeatsTable({ x, query }: Props) {
  const { t, i18n } = useTranslation('reports');
  const number = (value: number) => numberText(value, i18n.language);
  const attributeName = useAttributeName();
  const title = t('insights.seats.per-seat');
  return (
    <>
      <h4>{title}</h4>
      <TableRegion label={t('insights.table', { part: title })}>
        <table className="data-table report-table">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t('insights.seats.seat')}</th>
              <th scope="col">{t('insights.seats.zone')}</th>
              <th scope="col">{t('insights.seats.attributes')}</th>
              <th scope="col" className="data-table__number">
                {t('insights.seats.offered')}
              </th>
              <th scope="col" className="data-table__number">
                {t('insights.seats.booked')}
              </th>
              <th scope="col" className="data-table__number">
                {t('insights.seats.use')}
              </th>
              {x.checkIn ? (
                <th scope="col" className="data-table__number">
                  {t('insights.seats.checked-in')}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {byUse(x.seats).map((s) => (
              <tr key={s.seatId}>
                <th scope="row">{s.label}</th>
                <td>{s.zone ?? ''}</td>
                <td>
                  {s.attributes.length === 0
                    ? t('insights.seats.no-attributes')
                    : s.attributes.map(attributeName).join(', ')}
                </td>
                <td className="data-table__number">{number(s.offeredHours)}</td>
                <td className="data-table__number">{number(s.bookedHours)}</td>
                <td className="data-table__number">
                  {shareText(s.useShare, i18n.language) || '–'}
                </td>
                {x.checkIn ? (
                  <td className="data-table__number">{number(s.checkedInHours ?? 0)}</td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
      <CsvLink query={query} part="seats" label={t('insights.seats.csv-seats')} />
    </>
  );
}
