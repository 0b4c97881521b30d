import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConfig } from '../../../app/config-context';
import { ExternalLink } from '../../../components/external-link';
import { Page } from '../../../components/page';

interface DashboardLink {
  /** Key below `links.` in the dashboard namespace. */
  key: string;
  to: string;
  /** Whether the screen exists yet; later issues switch their links on. */
  available: boolean;
}

/**
 * Dashboard links of spec section 2 in their spec order. Only screens that exist are shown.
 * TODO(issue #5): switch `available` on when the reservations list, overbooked slots and reports
 * screens are built (and load the overbooked count).
 */
const LINKS: readonly DashboardLink[] = [
  { key: 'rooms', to: '/rooms', available: true },
  { key: 'reservations', to: '/reservations', available: false },
  { key: 'overbooked', to: '/overbooked', available: false },
  { key: 'blacklist', to: '/blacklist', available: true },
  { key: 'holidays', to: '/holiday-list', available: true },
  { key: 'reports', to: '/reports', available: false },
];

interface DashboardProps {
  /** Only administrators get the (external) edit-texts link. */
  isAdmin: boolean;
}

/** Admin route `/`. */
export function Dashboard({ isAdmin }: DashboardProps) {
  const { t } = useTranslation('dashboard');
  const { labelAdminUrl } = useConfig();

  return (
    <Page title={t('title')}>
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
          {LINKS.filter((link) => link.available).map((link) => (
            <li key={link.key}>
              <Link className="dashboard-links__link" to={link.to}>
                {t(`links.${link.key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </Page>
  );
}
