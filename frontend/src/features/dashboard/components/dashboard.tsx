import { useState } from 'react';
import { Link } from 'react-router';
import { useConfig } from '../../../app/config-context';
import { ExternalLink } from '../../../components/external-link';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { todayIso } from '../../../lib/dates';
import { useGetOverbookedCountQuery } from '../api/dashboard-api';
import { DeskDayPanel } from './desk-day';

interface DashboardLink {
  /** Key below `links.` in the dashboard namespace. */
  key: string;
  to: string;
  /** Only administrators get these links (docs/product.md#roles). */
  adminOnly: boolean;
  /** Library-wide screens: only administrators of all sites (not `admin@jura`) get these. */
  allSitesOnly?: boolean;
}

/** Dashboard links of docs/product.md#screens in the order listed there. */
const LINKS: readonly DashboardLink[] = [
  { key: 'rooms', to: '/rooms', adminOnly: true },
  { key: 'sites', to: '/sites', adminOnly: true },
  { key: 'reservations', to: '/reservations', adminOnly: false },
  { key: 'overbooked', to: '/overbooked', adminOnly: true },
  { key: 'blacklist', to: '/blacklist', adminOnly: true, allSitesOnly: true },
  { key: 'no-show-blocks', to: '/no-show-blocks', adminOnly: true, allSitesOnly: true },
  { key: 'holidays', to: '/holiday-list', adminOnly: true },
  { key: 'closures', to: '/closures', adminOnly: true },
  { key: 'reports', to: '/reports', adminOnly: false },
];

interface DashboardProps {
  /** Only administrators get the (external) edit-texts link and the management links. */
  isAdmin: boolean;
  /** Whether the roles are for all sites (docs/product.md#roles); true when left out. */
  allSites?: boolean;
}

/** Admin route `/`: the desk's day, then the links to the staff screens. */
export function Dashboard({ isAdmin, allSites = true }: DashboardProps) {
  const { t } = useTranslation('dashboard');
  const { labelAdminUrl } = useConfig();
  const [today] = useState(() => todayIso());
  // docs/product.md#roles: only administrators load the overbooked count.
  const { data: overbooked } = useGetOverbookedCountQuery(today, { skip: !isAdmin });

  const label = (key: string) =>
    key === 'overbooked' && overbooked !== undefined
      ? t('links.overbooked-count', { count: overbooked })
      : t(`links.${key}`);

  return (
    <Page title={t('title')}>
      <DeskDayPanel />
      <h2 className="dashboard-links__title">{t('links-label')}</h2>
      <p>{t('intro')}</p>
      <nav aria-label={t('links-label')}>
        <ul className="dashboard-links">
          {labelAdminUrl && isAdmin ? (
            <li>
              <ExternalLink className="dashboard-links__link" href={labelAdminUrl} newWindow>
                {t('links.label-admin')}
              </ExternalLink>
            </li>
          ) : null}
          {LINKS.filter(
            (link) => (isAdmin || !link.adminOnly) && (allSites || !link.allSitesOnly),
          ).map((link) => (
            <li key={link.key}>
              <Link className="dashboard-links__link" to={link.to}>
                {label(link.key)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </Page>
  );
}
