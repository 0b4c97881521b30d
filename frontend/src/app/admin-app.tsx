import { useRef, type ReactNode } from 'react';
import { BrowserRouter, Link, Navigate, NavLink, Route, Routes } from 'react-router';
import type { Me } from '../api/types';
import { ErrorBox } from '../components/error-box';
import { InfoPopups } from '../components/info-popups';
import { Page } from '../components/page';
import { PermissionError } from '../components/permission-error';
import { MAIN_ID, SkipLink } from '../components/skip-link';
import { RoomAdd } from '../features/admin-rooms/components/room-add';
import { RoomEdit } from '../features/admin-rooms/components/room-edit';
import { RoomEditImage } from '../features/admin-rooms/components/room-edit-image';
import { SeatPlanImagePage } from '../features/admin-rooms/components/seat-plan-image';
import { SeatPlanPage } from '../features/admin-rooms/components/seat-plan-page';
import { SeatQrSheetPage } from '../features/admin-rooms/components/seat-qr-sheet';
import { RoomList } from '../features/admin-rooms/components/room-list';
import { BlacklistAdd } from '../features/admin-blacklist/components/blacklist-add';
import { BlacklistEdit } from '../features/admin-blacklist/components/blacklist-edit';
import { BlacklistList } from '../features/admin-blacklist/components/blacklist-list';
import { NoShowBlockList } from '../features/admin-no-show-blocks/components/no-show-block-list';
import { HolidayAdd } from '../features/admin-holidays/components/holiday-add';
import { HolidayEdit } from '../features/admin-holidays/components/holiday-edit';
import { HolidayImport } from '../features/admin-holidays/components/holiday-import';
import { HolidayList } from '../features/admin-holidays/components/holiday-list';
import { RoomClosure } from '../features/admin-holidays/components/room-closure';
import { SiteAdd } from '../features/admin-sites/components/site-add';
import { SiteEdit } from '../features/admin-sites/components/site-edit';
import { SiteList } from '../features/admin-sites/components/site-list';
import { TimeSlotAdd } from '../features/admin-time-slots/components/time-slot-add';
import { TimeSlotCalendar } from '../features/admin-time-slots/components/time-slot-calendar';
import { TimeSlotCapacity } from '../features/admin-time-slots/components/time-slot-capacity';
import { TimeSlotEdit } from '../features/admin-time-slots/components/time-slot-edit';
import {
  hasRole,
  ROLE_ADMIN,
  ROLE_CHECKIN,
  ROLE_REPORTS,
  hasRoleForAllSites,
  useGetMeQuery,
} from '../features/auth/api/auth-api';
import { CheckInPage } from '../features/admin-check-in/components/check-in-page';
import { IntegrationsPage } from '../features/admin-integrations/components/integrations-page';
import { WebhookDeliveries } from '../features/admin-integrations/components/webhook-deliveries';
import { WebhookAdd, WebhookEdit } from '../features/admin-integrations/components/webhook-form';
import { SignIn } from '../features/auth/components/sign-in';
import { SignOutButton } from '../features/auth/components/sign-out-button';
import { LanguageSwitch, useLanguageInAddress } from '../components/language-switch';
import { TicketHistory } from '../features/admin-history/components/ticket-history';
import { TimeSlotHistory } from '../features/admin-history/components/time-slot-history';
import { OverbookedList } from '../features/admin-overbooked/components/overbooked-list';
import { ReservationEdit } from '../features/admin-reservations/components/reservation-edit';
import { ReservationList } from '../features/admin-reservations/components/reservation-list';
import { TimeSlotBook } from '../features/admin-reservations/components/time-slot-book';
import { Dashboard } from '../features/dashboard/components/dashboard';
import { StaffAccountsPage } from '../features/admin-staff-accounts/components/staff-accounts-page';
import { DailyReport } from '../features/reports/components/daily-report';
import { OccupancyReport } from '../features/reports/components/occupancy-report';
import { InsightsPage } from '../features/reports/components/insights-page';
import { ReportsPage } from '../features/reports/components/reports-page';
import { useFocusOnNavigation } from '../hooks/use-focus-on-navigation';
import { useTranslation } from '../i18n/i18n-context';
import { routerBasename } from '../lib/url';
import { useConfig } from './config-context';
import { registerStaffRefusals } from './staff-refusals';
import '../styles/staff.css';

registerStaffRefusals();

type AdminMode = 'admin' | 'reports';

/**
 * The admin (and reports) interface: sign-in when `GET session` says nobody is signed in; role `admin` gets
 * the admin routes, role `reports` only the reports; anyone else the permission error.
 */
export default function AdminApp({ mode }: { mode: AdminMode }) {
  // The staff texts are already loaded: createI18n adds them for the admin and reports interfaces.
  const { baseUrl } = useConfig();
  return (
    <BrowserRouter basename={routerBasename(baseUrl)}>
      <AdminGate mode={mode} />
    </BrowserRouter>
  );
}

function AdminGate({ mode }: { mode: AdminMode }) {
  const { t } = useTranslation('auth');
  const { data: me, error, refetch, isFetching } = useGetMeQuery();

  if (error) {
    return (
      <AdminLayout me={null}>
        <Page title={t('check-failed-title')}>
          <ErrorBox
            error={error}
            extra={
              <button
                type="button"
                className="button button--secondary"
                disabled={isFetching}
                onClick={() => void refetch()}
              >
                {t('retry')}
              </button>
            }
          />
        </Page>
      </AdminLayout>
    );
  }
  if (me === undefined) {
    return (
      <p className="loading" role="status">
        {t('checking')}
      </p>
    );
  }
  if (me === null) {
    return (
      <AdminLayout me={null}>
        <SignIn />
      </AdminLayout>
    );
  }
  const isAdmin = hasRole(me, ROLE_ADMIN);
  if (mode === 'admin' && isAdmin) {
    return (
      <AdminLayout me={me} nav="admin">
        <AdminRoutes allSites={hasRoleForAllSites(me, ROLE_ADMIN)} />
      </AdminLayout>
    );
  }
  if (isAdmin || hasRole(me, ROLE_REPORTS)) {
    // The reports interface, and the admin interface for a user with only the reports role:
    // the reports part only, read-only.
    return (
      <AdminLayout me={me} nav="reports">
        <ReportsRoutes />
      </AdminLayout>
    );
  }
  if (hasRole(me, ROLE_CHECKIN)) {
    // A user with only the check-in role sees the check-in screen and nothing else.
    return (
      <AdminLayout me={me} nav="check-in">
        <Routes>
          <Route path="check-in" element={<CheckInPage />} />
          <Route path="*" element={<Navigate to="/check-in" replace />} />
        </Routes>
      </AdminLayout>
    );
  }
  return (
    <AdminLayout me={me}>
      <PermissionError />
    </AdminLayout>
  );
}

/** `allSites`: an admin of all sites; an admin of some (`admin@jura`) gets her sites' screens. */
function AdminRoutes({ allSites }: { allSites: boolean }) {
  return (
    <Routes>
      <Route index element={<Dashboard isAdmin allSites={allSites} />} />
      <Route path="rooms" element={<RoomList />} />
      <Route path="room-add" element={<RoomAdd />} />
      <Route path="room-edit/:id" element={<RoomEdit />} />
      <Route path="room-edit-image/:id" element={<RoomEditImage />} />
      <Route path="room-edit/:id/seats" element={<SeatPlanPage />} />
      <Route path="room-edit/:id/seats/qr-sheet" element={<SeatQrSheetPage />} />
      <Route path="room-edit/:id/seat-plan-image" element={<SeatPlanImagePage />} />
      <Route path="room/:id/time-slots" element={<TimeSlotCalendar />} />
      <Route path="room/:id/time-slot-add" element={<TimeSlotAdd />} />
      <Route path="room/:roomId/time-slot-edit/:timeSlotId" element={<TimeSlotEdit />} />
      <Route path="room/:roomId/time-slot-edit-multi-capacity" element={<TimeSlotCapacity />} />
      <Route path="sites" element={<SiteList allSites={allSites} />} />
      <Route path="site-add" element={<SiteAdd />} />
      <Route path="site-edit/:id" element={<SiteEdit />} />
      <Route path="holiday-list" element={<HolidayList allSites={allSites} />} />
      <Route path="holiday-add" element={<HolidayAdd allSites={allSites} />} />
      <Route path="holiday-edit/:id" element={<HolidayEdit allSites={allSites} />} />
      <Route path="holiday-import" element={<HolidayImport allSites={allSites} />} />
      <Route path="closures" element={<RoomClosure />} />
      <Route path="blacklist" element={<BlacklistList />} />
      <Route path="blacklist-add" element={<BlacklistAdd />} />
      <Route path="blacklist-edit/:email" element={<BlacklistEdit />} />
      <Route path="no-show-blocks" element={<NoShowBlockList />} />
      <Route path="reservations" element={<ReservationList canEdit />} />
      <Route path="reservations/:id" element={<ReservationEdit canEdit />} />
      <Route path="reservations/:id/history" element={<TicketHistory />} />
      <Route path="room/:roomId/time-slot-book/:timeSlotId" element={<TimeSlotBook />} />
      <Route path="room/:roomId/time-slot-edit/:timeSlotId/history" element={<TimeSlotHistory />} />
      <Route path="overbooked" element={<OverbookedList />} />
      <Route path="check-in" element={<CheckInPage />} />
      <Route path="reports" element={<ReportsPage backTo="/" />} />
      <Route path="occupancy-report" element={<OccupancyReport />} />
      <Route path="insights" element={<InsightsPage />} />
      <Route path="daily-report/:id" element={<DailyReport />} />
      <Route path="staff-accounts" element={<StaffAccountsPage />} />
      <Route path="integrations" element={<IntegrationsPage />} />
      <Route path="webhook-add" element={<WebhookAdd />} />
      <Route path="webhook-edit/:id" element={<WebhookEdit />} />
      <Route path="webhook-deliveries/:id" element={<WebhookDeliveries />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

/** The reports part (docs/product.md#screens): reports page, daily and occupancy report; read-only. */
function ReportsRoutes() {
  return (
    <Routes>
      <Route index element={<ReportsPage />} />
      <Route path="reports" element={<ReportsPage />} />
      <Route path="occupancy-report" element={<OccupancyReport />} />
      <Route path="insights" element={<InsightsPage />} />
      <Route path="daily-report/:id" element={<DailyReport />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

interface AdminLayoutProps {
  me: Me | null;
  /** The site navigation: all admin screens, only the reports, or none (signed out). */
  nav?: 'admin' | 'reports' | 'check-in' | 'none';
  children: ReactNode;
}

function AdminLayout({ me, nav = 'none', children }: AdminLayoutProps) {
  const { t } = useTranslation();
  // An admin of some sites only: the library-wide screens refuse her, so they are not offered.
  const allSites = hasRoleForAllSites(me, ROLE_ADMIN);
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);
  useLanguageInAddress();

  return (
    <>
      <SkipLink />
      <header className="site-header site-header--admin">
        <Link className="site-header__title" to="/">
          {t('app-title')}
          <span className="site-header__subtitle">{t('admin-title')}</span>
        </Link>
        {nav === 'admin' ? (
          <nav className="site-nav" aria-label={t('nav.label')}>
            <ul>
              <li>
                <NavLink to="/" end>
                  {t('nav.dashboard')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/reservations">{t('nav.admin-reservations')}</NavLink>
              </li>
              <li>
                <NavLink to="/rooms">{t('nav.admin-rooms')}</NavLink>
              </li>
              <li>
                <NavLink to="/sites">{t('nav.admin-sites')}</NavLink>
              </li>
              <li>
                <NavLink to="/holiday-list">{t('nav.admin-holidays')}</NavLink>
              </li>
              <li>
                <NavLink to="/closures">{t('nav.admin-closures')}</NavLink>
              </li>
              {allSites ? (
                <>
                  <li>
                    <NavLink to="/blacklist">{t('nav.admin-blacklist')}</NavLink>
                  </li>
                  <li>
                    <NavLink to="/no-show-blocks">{t('nav.admin-no-show-blocks')}</NavLink>
                  </li>
                </>
              ) : null}
              <li>
                <NavLink to="/reports">{t('nav.admin-reports')}</NavLink>
              </li>
              <li>
                <NavLink to="/check-in">{t('nav.check-in')}</NavLink>
              </li>
              {allSites ? (
                <>
                  <li>
                    <NavLink to="/staff-accounts">{t('nav.admin-staff-accounts')}</NavLink>
                  </li>
                  <li>
                    <NavLink to="/integrations">{t('nav.admin-integrations')}</NavLink>
                  </li>
                </>
              ) : null}
            </ul>
          </nav>
        ) : nav === 'check-in' ? (
          <nav className="site-nav" aria-label={t('nav.label')}>
            <ul>
              <li>
                <NavLink to="/check-in">{t('nav.check-in')}</NavLink>
              </li>
            </ul>
          </nav>
        ) : nav === 'reports' ? (
          <nav className="site-nav" aria-label={t('nav.label')}>
            <ul>
              <li>
                <NavLink to="/" end>
                  {t('nav.admin-reports')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/occupancy-report">{t('nav.occupancy-report')}</NavLink>
              </li>
            </ul>
          </nav>
        ) : null}
        <div className="site-header__user">
          {me ? (
            <>
              <span>{t('signed-in-as', { username: me.username })}</span>
              <SignOutButton />
            </>
          ) : null}
          <LanguageSwitch />
        </div>
      </header>
      <InfoPopups />
      <main id={MAIN_ID} className="main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
