import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Link, Navigate, NavLink, Route, Routes } from 'react-router';
import { ExternalLink } from '../components/external-link';
import { InfoPopups } from '../components/info-popups';
import { MAIN_ID, SkipLink } from '../components/skip-link';
import { BookingPlaceholder } from '../features/booking/components/booking-placeholder';
import { isPrivacyAccepted, PrivacyOverlay } from '../features/privacy/components/privacy-overlay';
import { RoomChooser } from '../features/rooms/components/room-chooser';
import { useFocusOnNavigation } from '../hooks/use-focus-on-navigation';
import { routerBasename } from '../lib/url';
import { useConfig } from './config-context';

/** The visitor interface: the privacy notice first, then the booking routes. */
export function UserApp() {
  const { baseUrl } = useConfig();
  const [accepted, setAccepted] = useState(isPrivacyAccepted);
  const [justAccepted, setJustAccepted] = useState(false);

  if (!accepted) {
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
    <BrowserRouter basename={routerBasename(baseUrl)}>
      <UserLayout focusHeading={justAccepted} />
    </BrowserRouter>
  );
}

function UserLayout({ focusHeading }: { focusHeading: boolean }) {
  const { t } = useTranslation();
  const { faqUrl } = useConfig();
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
              <NavLink to="/your-reservations">{t('nav.your-reservations')}</NavLink>
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
      </header>
      <InfoPopups />
      <main id={MAIN_ID} className="main" ref={main} tabIndex={-1}>
        <Routes>
          <Route index element={<RoomChooser />} />
          {/* TODO(issue #4): booking screens replace these placeholders. */}
          <Route path="room/:id" element={<BookingPlaceholder view="room" />} />
          <Route
            path="your-reservations"
            element={<BookingPlaceholder view="your-reservations" />}
          />
          <Route path="your-personal-data" element={<BookingPlaceholder view="personal-data" />} />
          <Route path="summary" element={<BookingPlaceholder view="summary" />} />
          <Route
            path="reservation-confirmation/:id"
            element={<BookingPlaceholder view="confirmation" />}
          />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </main>
    </>
  );
}
