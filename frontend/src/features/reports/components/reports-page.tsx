import { Link } from 'react-router';
import type { Room } from '../../../api/types';
import { EmptyState } from '../../../components/empty-state';
import { ExternalLink } from '../../../components/external-link';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { useGetReportRoomsQuery } from '../api/reports-api';
import { commonReports } from '../utils/reports';
import { roomsOfSite, useReportSites } from './site-filter';

/** The daily report's link of each room. */
function DailyLinks({ rooms }: { rooms: readonly Room[] }) {
  const { t } = useTranslation('reports');
  return (
    <ul className="report-links">
      {rooms.map((room) => (
        <li key={room.id}>
          <Link to={`/daily-report/${encodeURIComponent(room.id)}`}>
            {t('page.daily-link', { room: room.name })}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The daily reports' links: with several sites (those the user reaches) under each site's name,
 * a site without rooms left out; else one list, as with one site.
 */
function DailyReports({ rooms }: { rooms: readonly Room[] }) {
  const sites = useReportSites();
  const textIn = useTextIn();
  if (sites.length < 2) return <DailyLinks rooms={rooms} />;
  return (
    <>
      {sites.map((site) => {
        const ofSite = roomsOfSite(rooms, sites, site.slug);
        return ofSite.length === 0 ? null : (
          <section key={site.id} aria-labelledby={`reports-daily-${site.slug}`}>
            <h3 id={`reports-daily-${site.slug}`}>{textIn(site.name, site.nameEn)}</h3>
            <DailyLinks rooms={ofSite} />
          </section>
        );
      })}
    </>
  );
}

/**
 * Route `/reports` (and `/` of the reports interface): the daily report of each room (by site
 * when there are several), the occupancy report and the further common reports.
 */
export function ReportsPage({ backTo }: { backTo?: string }) {
  const { t } = useTranslation('reports');
  const rooms = useGetReportRoomsQuery();
  const common = commonReports();

  return (
    <Page title={t('title')}>
      <section aria-labelledby="reports-daily">
        <h2 id="reports-daily">{t('page.daily-heading')}</h2>
        <LoadingContainer
          data={rooms.data}
          error={rooms.error}
          backLink={backTo ? { to: backTo, label: t('back-to-dashboard') } : undefined}
        >
          {({ content }) =>
            content.length === 0 ? (
              <EmptyState>{t('page.no-rooms')}</EmptyState>
            ) : (
              <DailyReports rooms={content} />
            )
          }
        </LoadingContainer>
      </section>
      <section aria-labelledby="reports-occupancy">
        <h2 id="reports-occupancy">{t('page.occupancy-heading')}</h2>
        <p>{t('page.occupancy-intro')}</p>
        <ul className="report-links">
          <li>
            <Link to="/occupancy-report">{t('page.occupancy-link')}</Link>
          </li>
        </ul>
      </section>
      <section aria-labelledby="reports-insights">
        <h2 id="reports-insights">{t('page.insights-heading')}</h2>
        <p>{t('page.insights-intro')}</p>
        <ul className="report-links">
          <li>
            <Link to="/insights">{t('page.insights-link')}</Link>
          </li>
        </ul>
      </section>
      {/* The further reports, or the empty state for none (docs/product.md#staff-screens). */}
      <section aria-labelledby="reports-common">
        <h2 id="reports-common">{t('page.common-heading')}</h2>
        {common.length === 0 ? (
          <EmptyState>{t('empty.no-reports', { ns: 'common' })}</EmptyState>
        ) : (
          <ul className="report-links">
            {common.map((report) => (
              <li key={report.url}>
                <ExternalLink href={report.url}>{report.label}</ExternalLink>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Page>
  );
}
