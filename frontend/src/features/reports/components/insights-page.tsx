import { useState } from 'react';
import { Link } from 'react-router';
import type { Room } from '../../../api/types';
import { InputField, SelectField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatDate, todayIso } from '../../../lib/dates';
import { useGetInsightsQuery, useGetReportRoomsQuery } from '../api/reports-api';
import {
  defaultInsightsQuery,
  insightsErrors,
  type InsightsField,
  type InsightsQuery,
} from '../utils/insights';
import { DemandPart, HeatmapPart, LeadTimePart, WeeksPart } from './insights-parts';
import { SeatInsightsPart } from './seat-insights-part';
import { WhatIfPart } from './what-if-part';
import { roomsOfSite, SiteFilter, useReportSites } from './site-filter';
import { fieldMessage } from '../../../lib/field-message';

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
  const textIn = useTextIn();
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
    return error ? fieldMessage(t, error) : undefined;
  };
  const room = rooms.find((candidate) => candidate.id === query.roomId);
  // With several sites: a site narrows the rooms offered (docs/product.md#sites).
  const sites = useReportSites();
  const siteSlug = values.site ?? '';
  const site = sites.find((candidate) => candidate.slug === (query.site ?? ''));
  const chooseSite = (slug: string) => {
    const offered = roomsOfSite(rooms, sites, slug);
    const roomId = offered.some((r) => r.id === values.roomId) ? values.roomId : '';
    const next = { ...values, site: slug, roomId };
    setValues(next);
    if (Object.keys(insightsErrors(next)).length === 0)
      setQuery({ ...next, fromDate: next.fromDate.trim(), untilDate: next.untilDate.trim() });
  };

  return (
    <>
      <form
        className="report-filters no-print"
        noValidate
        aria-label={t('insights.filters')}
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="field-row">
          <SiteFilter id="insights-site" sites={sites} value={siteSlug} onChange={chooseSite} />
          <SelectField
            id={idOf('roomId')}
            label={t('insights.room')}
            value={values.roomId}
            options={[
              { value: '', label: t('insights.all-rooms') },
              ...roomsOfSite(rooms, sites, siteSlug).map((candidate) => ({
                value: candidate.id,
                label: candidate.name,
              })),
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
            room: room?.name ?? (site ? textIn(site.name, site.nameEn) : t('insights.all-rooms')),
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
            <SeatInsightsPart query={query} />
            {query.roomId !== '' ? <WhatIfPart key={query.roomId} query={query} /> : null}
          </div>
        )}
      </LoadingContainer>
    </>
  );
}
