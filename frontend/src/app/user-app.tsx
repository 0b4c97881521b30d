import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Loading } from '../components/loading-container';
import {
  BrowserRouter,
  Link,
  matchPath,
  Navigate,
  NavLink,
  Route,
  Routes,
  useLocation,
} from 'react-router';
import { ExternalLink } from '../components/external-link';
import { InfoPopups } from '../components/info-popups';
import { LanguageSwitch, useLanguageInAddress } from '../components/language-switch';
import { MAIN_ID, SkipLink } from '../components/skip-link';
import { BookingProvider, useBooking } from '../features/booking/components/booking-context';
import { CartHold } from '../features/booking/components/cart-hold';
import { PanicButton } from '../features/booking/components/panic-button';
import { PersonalDataForm } from '../features/booking/components/personal-data-form';
import { ReservationConfirmation } from '../features/booking/components/reservation-confirmation';
import { RoomBooking } from '../features/booking/components/room-booking';
import { SummaryPage } from '../features/booking/components/summary-page';
import { WaitlistLeave, WaitlistOffer } from '../features/booking/components/waitlist-offer';
import { YourReservations } from '../features/booking/components/your-reservations';
import {
  isPrivacyAccepted,
  PrivacyNote,
  PrivacyOverlay,
} from '../features/privacy/components/privacy-overlay';
import { useGetSitesQuery } from '../features/rooms/api/rooms-api';
import { RoomChooser } from '../features/rooms/components/room-chooser';
import type { SitePart } from './site-parts';
import { useFocusOnNavigation } from '../hooks/use-focus-on-navigation';
import { useTranslation } from '../i18n/i18n-context';
import { routerBasename } from '../lib/url';
import { useConfig } from './config-context';
// The booking screens are part of this chunk (the visitor interface is already loaded on
// demand): one chunk is smaller in total than one per screen.
import '../styles/visitor.css';

// The service worker (src/sw/): the installable app and "my tickets" offline once opened
// (docs/product.md#installable-app). Registered by the visitor interface only, never by the staff
// pages; without it (an insecure address, a refusing browser) the app works online as before.
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => undefined);

// "My bookings" is reached by few visitors and from its own link: a chunk of its own.
const myBookings = () => import('../features/booking/components/my-bookings');
const MyBookingsRequest = lazy(() =>
  myBookings().then((module) => ({ default: module.MyBookingsRequest })),
);
const MyBookingsPage = lazy(() =>
  myBookings().then((module) => ({ default: module.MyBookingsPage })),
);

// The sites' parts (docs/product.md#sites: the chooser, the site's details, an unknown site): only
// a library with several sites or a site's own address loads them.
const SiteParts = lazy(() => import('./site-parts'));

// The seat's page, where a seat's QR code leads: reached by few visitors, a chunk of its own.
const SeatPage = lazy(() => import('../features/booking/components/seat-page/seat-page'));

/**
 * The pages the mails link to (a booking's tickets, my bookings, a waitlist's offer and leaving
 * it): they show what the mail refers to without the privacy overlay (docs/product.md#visitor-screens),
 * with the notice beside them. An offer taken goes on to the personal data, which waits for it.
 */
const MAIL_LINK_ROUTES = [
  '/reservation-confirmation/:id',
  '/my-bookings/:token',
  '/waitlist-offer/:timeSlotId/:offerId',
  '/waitlist-leave/:reference',
] as const;

/** The visitor interface: the privacy notice first (not before a mail's link), then the booking routes. */
export function UserApp() {
  const base = routerBasename(useConfig().baseUrl).replace(/\/$/, '');
  // A site's own address (`/s/{slug}/...`): the app's pages below it, so every link stays there.
  const site = /^\/s\/([^/]+)/.exec(location.pathname.slice(base.length))?.[1] ?? '';
  return (
    <BrowserRouter basename={site ? `${base}/s/${site}` : base || '/'}>
      <PrivacyGate site={site} />
    </BrowserRouter>
  );
}

function PrivacyGate({ site }: { site: string }) {
  const { pathname } = useLocation();
  const [accepted, setAccepted] = useState(isPrivacyAccepted);
  const [justAccepted, setJustAccepted] = useState(false);
  const fromMail = MAIL_LINK_ROUTES.some((route) => matchPath(route, pathname) !== null);
  // Asked while the notice shows: the start page knows at once whether there are several sites.
  useGetSitesQuery();
  // Under the notice too: a page the app moves on to (an offer taken goes on to the personal
  // data, which may wait for the notice) keeps naming the language of the link it came from.
  useLanguageInAddress();

  if (!accepted && !fromMail) {
    return (
      <PrivacyOverlay
        onAccept={() => {
          setAccepted(true);
          setJustAccepted(true);
        }}
      />
    );
  }
  return (
    <BookingProvider>
      <UserLayout focusHeading={justAccepted} privacyNote={!accepted} site={site} />
    </BookingProvider>
  );
}

function UserLayout({
  focusHeading,
  privacyNote,
  site,
}: {
  focusHeading: boolean;
  /** The notice not yet accepted: beside a page reached from a mail's link. */
  privacyNote: boolean;
  /** The slug of the site's address the app was opened at; '' without one. */
  site: string;
}) {
  const { t } = useTranslation();
  const sites = useGetSitesQuery().data?.content;
  // One site: everything as before sites (no chooser, no site details).
  const several = (sites?.length ?? 0) > 1;
  const part = (name: SitePart) => (
    <Suspense fallback={name === 'bar' ? null : <Loading />}>
      <SiteParts part={name} site={site} focusHeading={focusHeading} />
    </Suspense>
  );
  const { faqUrl } = useConfig();
  const { tickets } = useBooking();
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);

  useEffect(() => {
    // The privacy dialog that had focus is gone: continue at the page heading.
    if (focusHeading) main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [focusHeading]);

  return (
    <>
      <SkipLink />
      <header className="site-header">
        <Link className="site-header__title" to="/">
          {t('app-title')}
        </Link>
        <nav className="site-nav" aria-label={t('nav.label')}>
          <ul>
            <li>
              <NavLink to="/" end>
                {t('nav.rooms')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/your-reservations">
                {t('nav.your-reservations')}
                {tickets.length > 0 ? (
                  // The cart's count in the header, on every page.
                  <span className="nav-count">
                    <span aria-hidden="true">{tickets.length}</span>
                    <span className="visually-hidden">
                      {' '}
                      ({t('nav.cart-count', { count: tickets.length })})
                    </span>
                  </span>
                ) : null}
              </NavLink>
            </li>
            <li>
              <NavLink to="/my-bookings">{t('nav.my-bookings')}</NavLink>
            </li>
            {faqUrl ? (
              <li>
                <ExternalLink href={faqUrl} newWindow>
                  {t('nav.faq')}
                </ExternalLink>
              </li>
            ) : null}
          </ul>
        </nav>
        <PanicButton />
        <LanguageSwitch />
      </header>
      {privacyNote ? <PrivacyNote /> : null}
      <InfoPopups />
      <main id={MAIN_ID} className="main" ref={main} tabIndex={-1}>
        {several ? part('bar') : null}
        <CartHold />
        {site && sites && !sites.some((known) => known.slug === site) ? (
          part('missing')
        ) : (
          <Routes>
            <Route index element={site || several ? part('start') : <RoomChooser />} />
            <Route path="sites" element={part('chooser')} />
            <Route path="room/:id" element={<RoomBooking />} />
            <Route path="your-reservations" element={<YourReservations />} />
            <Route path="your-personal-data" element={<PersonalDataForm />} />
            <Route path="summary" element={<SummaryPage />} />
            <Route path="reservation-confirmation/:id" element={<ReservationConfirmation />} />
            <Route path="waitlist-offer/:timeSlotId/:offerId" element={<WaitlistOffer />} />
            <Route path="waitlist-leave/:reference" element={<WaitlistLeave />} />
            <Route
              path="my-bookings"
              element={
                <Suspense fallback={<Loading />}>
                  <MyBookingsRequest />
                </Suspense>
              }
            />
            <Route
              path="my-bookings/:token"
              element={
                <Suspense fallback={<Loading />}>
                  <MyBookingsPage />
                </Suspense>
              }
            />
            <Route
              path="seat/:roomId/:seatId"
              element={
                <Suspense fallback={<Loading />}>
                  <SeatPage />
                </Suspense>
              }
            />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        )}
      </main>
    </>
  );
}
