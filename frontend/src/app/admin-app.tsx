import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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
import { RoomList } from '../features/admin-rooms/components/room-list';
import { BlacklistAdd } from '../features/admin-blacklist/components/blacklist-add';
import { BlacklistEdit } from '../features/admin-blacklist/components/blacklist-edit';
import { BlacklistList } from '../features/admin-blacklist/components/blacklist-list';
import { HolidayAdd } from '../features/admin-holidays/components/holiday-add';
import { HolidayEdit } from '../features/admin-holidays/components/holiday-edit';
import { HolidayImport } from '../features/admin-holidays/components/holiday-import';
import { HolidayList } from '../features/admin-holidays/components/holiday-list';
import { TimeSlotAdd } from '../features/admin-time-slots/components/time-slot-add';
import { TimeSlotCalendar } from '../features/admin-time-slots/components/time-slot-calendar';
import { TimeSlotCapacity } from '../features/admin-time-slots/components/time-slot-capacity';
import { TimeSlotEdit } from '../features/admin-time-slots/components/time-slot-edit';
import { hasRole, ROLE_ADMIN, ROLE_REPORTS, useGetMeQuery } from '../features/auth/api/auth-api';
import { SignIn } from '../features/auth/components/sign-in';
import { SignOutButton } from '../features/auth/components/sign-out-button';
import { Dashboard } from '../features/dashboard/components/dashboard';
import { ReportsPlaceholder } from '../features/reports/components/reports-placeholder';
import { useFocusOnNavigation } from '../hooks/use-focus-on-navigation';
import { routerBasename } from '../lib/url';
import { useConfig } from './config-context';

type AdminMode = 'admin' | 'reports';

/**
 * The admin (and reports) interface: sign-in when `GET auth/me` answers 401; role `admin` gets
 * the admin routes, role `reports` only the reports; anyone else the permission error.
 */
export function AdminApp({ mode }: { mode: AdminMode }) {
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
      <AdminLayout me={me} showNav>
        <AdminRoutes />
      </AdminLayout>
    );
  }
  return (
    <AdminLayout me={me}>
      {isAdmin || hasRole(me, ROLE_REPORTS) ? (
        // TODO(issue #5): the reports routes.
        <ReportsPlaceholder />
      ) : (
        <PermissionError />
      )}
    </AdminLayout>
  );
}

function AdminRoutes() {
  return (
    <Routes>
      <Route index element={<Dashboard isAdmin />} />
      <Route path="rooms" element={<RoomList />} />
      <Route path="room-add" element={<RoomAdd />} />
      <Route path="room-edit/:id" element={<RoomEdit />} />
      <Route path="room-edit-image/:id" element={<RoomEditImage />} />
      <Route path="room/:id/time-slots" element={<TimeSlotCalendar />} />
      <Route path="room/:id/time-slot-add" element={<TimeSlotAdd />} />
      <Route path="room/:roomId/time-slot-edit/:timeSlotId" element={<TimeSlotEdit />} />
      <Route path="room/:roomId/time-slot-edit-multi-capacity" element={<TimeSlotCapacity />} />
      <Route path="holiday-list" element={<HolidayList />} />
      <Route path="holiday-add" element={<HolidayAdd />} />
      <Route path="holiday-edit/:id" element={<HolidayEdit />} />
      <Route path="holiday-import" element={<HolidayImport />} />
      <Route path="blacklist" element={<BlacklistList />} />
      <Route path="blacklist-add" element={<BlacklistAdd />} />
      <Route path="blacklist-edit/:email" element={<BlacklistEdit />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

interface AdminLayoutProps {
  me: Me | null;
  showNav?: boolean;
  children: ReactNode;
}

function AdminLayout({ me, showNav = false, children }: AdminLayoutProps) {
  const { t } = useTranslation();
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);

  return (
    <>
      <SkipLink />
      <header className="site-header site-header--admin">
        <Link className="site-header__title" to="/">
          {t('app-title')}
          <span className="site-header__subtitle">{t('admin-title')}</span>
        </Link>
        {showNav ? (
          <nav className="site-nav" aria-label={t('nav.label')}>
            <ul>
              <li>
                <NavLink to="/" end>
                  {t('nav.dashboard')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/rooms">{t('nav.admin-rooms')}</NavLink>
              </li>
              <li>
                <NavLink to="/holiday-list">{t('nav.admin-holidays')}</NavLink>
              </li>
              <li>
                <NavLink to="/blacklist">{t('nav.admin-blacklist')}</NavLink>
              </li>
            </ul>
          </nav>
        ) : null}
        {me ? (
          <div className="site-header__user">
            <span>{t('signed-in-as', { username: me.username })}</span>
            <SignOutButton />
          </div>
        ) : null}
      </header>
      <InfoPopups />
      <main id={MAIN_ID} className="main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
