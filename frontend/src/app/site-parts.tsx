import { useEffect, useRef } from 'react';
import { Navigate, useMatch } from 'react-router';
import { useConfig } from './config-context';
import type { Site } from '../api/types';
import { Loading } from '../components/loading-container';
import { Page } from '../components/page';
import { Translated } from '../components/translated';
import { useLanguage } from '../i18n/i18n-context';
// Its own texts, in its own chunk: only a library with several sites downloads them.
import de from '../i18n/visitor-sites.de.json';
import en from '../i18n/visitor-sites.en.json';
import '../styles/site-parts.css';
import { useGetOwnerTicketsQuery } from '../features/booking/api/booking-api';
import {
  ROOM_LIST_QUERY,
  useGetRoomsQuery,
  useGetSitesQuery,
} from '../features/rooms/api/rooms-api';
import { RoomChooser } from '../features/rooms/components/room-chooser';
import { SiteHoursList, TodayHours, type SiteHoursTexts } from '../components/site-hours';
import { hasHours } from '@rr/contracts/site-hours';
import { todayIso } from '../lib/dates';
import { resolveApiUrl } from '../lib/url';

/**
 * The visitors' side of sites (docs/product.md#sites), loaded only by a library with several
 * sites or at a site's own address (`/s/{slug}/`): the chooser, the site's details above the
 * pages and the page of an address no site has.
 */
export type SitePart = 'start' | 'chooser' | 'bar' | 'missing';

/**
 * After the privacy notice, the focus it had continues at the page's heading. The app looks for
 * the heading at once (user-app.tsx), but this part's heading (the chooser's, or a site's rooms)
 * comes later, with this chunk and the sites: while the focus is on nothing, the first heading
 * shown takes it, once; a focus the visitor has moved meanwhile stays where it is.
 */
function useHeadingFocus(wanted: boolean) {
  const done = useRef(false);
  useEffect(() => {
    if (!wanted || done.current) return;
    const focused = document.activeElement;
    if (focused && focused !== document.body) {
      done.current = true;
      return;
    }
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return;
    heading.focus();
    done.current = true;
  });
}

/** The site chosen on this device (its slug), kept across visits. */
const REMEMBERED = 'site';

function remembered(): string {
  try {
    return localStorage.getItem(REMEMBERED) ?? '';
  } catch {
    // Storage refused (private mode, blocked): the chooser asks again on the next visit.
    return '';
  }
}

function remember(slug: string): void {
  try {
    localStorage.setItem(REMEMBERED, slug);
  } catch {
    // See remembered(): nothing kept, nothing lost.
  }
}

function useTexts() {
  return useLanguage().language === 'en' ? en : de;
}

function useHoursTexts(): SiteHoursTexts {
  const t = useTexts();
  return {
    title: t.hours,
    today: t.today,
    todayMark: t['today-mark'],
    closed: t.closed,
    days: {
      mon: t['day-mon'],
      tue: t['day-tue'],
      wed: t['day-wed'],
      thu: t['day-thu'],
      fri: t['day-fri'],
      sat: t['day-sat'],
      sun: t['day-sun'],
    },
  };
}

/** A site's logo beside its name: the name says it, so the image is for the eye only. */
function Logo({ site }: { site: Site }) {
  const { baseApiUrl } = useConfig();
  return site.logoUrl ? (
    <img className="site-details__logo" src={resolveApiUrl(baseApiUrl, site.logoUrl)} alt="" />
  ) : null;
}

/**
 * A site's logo, name, postal address, phone and contact e-mail, and its opening hours: the
 * whole week in the chooser (`heading`), today's above the pages with the week to open.
 */
function SiteDetails({ site, heading }: { site: Site; heading?: boolean }) {
  const t = useTexts();
  const hoursTexts = useHoursTexts();
  const today = todayIso();
  const name = <Translated german={site.name} english={site.nameEn} />;
  const details = (
    <>
      {heading ? (
        <h2 className="card__title">
          <Logo site={site} />
          {name}
        </h2>
      ) : (
        <p className="site-details__name">
          <Logo site={site} />
          {name}
        </p>
      )}
      <address className="site-details">
        {site.address ? <span className="site-details__address">{site.address}</span> : null}
        {site.phone ? (
          <span>
            {t.phone}: <a href={`tel:${site.phone.replace(/[^+\d]/g, '')}`}>{site.phone}</a>
          </span>
        ) : null}
        {site.contactEmail ? (
          <span>
            {t.email}: <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
          </span>
        ) : null}
      </address>
    </>
  );
  if (heading)
    return (
      <>
        {details}
        <SiteHoursList hours={site.hours} today={today} texts={hoursTexts} />
      </>
    );
  return (
    <>
      {details}
      <TodayHours hours={site.hours} today={today} texts={hoursTexts} />
      {hasHours(site.hours) ? (
        <details className="site-hours__more">
          <summary>{t.hours}</summary>
          <SiteHoursList hours={site.hours} today={today} texts={hoursTexts} headingLevel={null} />
        </details>
      ) : null}
    </>
  );
}

/** The address of a site's own pages, and of the chooser. */
function useAddresses() {
  const { baseUrl } = useConfig();
  return {
    siteUrl: (slug: string) => `${baseUrl}s/${encodeURIComponent(slug)}/`,
    chooserUrl: `${baseUrl}sites`,
  };
}

/** Every site with its details; choosing one opens its own address, which the device keeps. */
function Chooser({ sites }: { sites: Site[] }) {
  const t = useTexts();
  const { siteUrl } = useAddresses();
  return (
    <Page title={t['chooser-title']}>
      <p>{t['chooser-intro']}</p>
      <ul className="card-list">
        {sites.map((site) => (
          <li key={site.id} className="card">
            <div className="card__body">
              <SiteDetails site={site} heading />
              <a className="button button--primary" href={siteUrl(site.slug)}>
                {t.choose}
                <span className="visually-hidden">
                  {' '}
                  <Translated german={site.name} english={site.nameEn} />
                </span>
              </a>
            </div>
          </li>
        ))}
      </ul>
    </Page>
  );
}

/**
 * The sites a page is about: a room's calendar its room's, a booking's confirmation its rooms',
 * every other page the site of the address or the one this device chose.
 */
function useShownSites(sites: Site[], slug: string): Site[] {
  const roomId = useMatch('/room/:id')?.params.id;
  const ownerId = useMatch('/reservation-confirmation/:id')?.params.id ?? '';
  const rooms = useGetRoomsQuery(ROOM_LIST_QUERY, { skip: !roomId && !ownerId }).data?.content;
  const tickets = useGetOwnerTicketsQuery(ownerId, { skip: !ownerId }).data?.tickets;
  if (!roomId && !ownerId) return sites.filter((site) => site.slug === slug);
  const roomIds = roomId ? [roomId] : (tickets ?? []).map((ticket) => ticket.roomId);
  const siteIds = new Set(
    (rooms ?? []).filter((room) => roomIds.includes(room.id)).map((room) => room.siteId),
  );
  return sites.filter((site) => siteIds.has(site.id));
}

function Bar({ sites, slug }: { sites: Site[]; slug: string }) {
  const t = useTexts();
  const { chooserUrl } = useAddresses();
  const shown = useShownSites(sites, slug);
  if (useMatch('/sites') || shown.length === 0) return null;
  return (
    <section className="site-bar" aria-label={t.site}>
      {shown.map((site) => (
        <div key={site.id}>
          <SiteDetails site={site} />
        </div>
      ))}
      <a className="site-bar__change" href={chooserUrl}>
        {t.change}
      </a>
    </section>
  );
}

/** An address whose slug no site has: said plainly, with the way to the sites. */
function Missing() {
  const t = useTexts();
  const { chooserUrl } = useAddresses();
  return (
    <Page title={t['missing-title']}>
      <p>{t['missing-text']}</p>
      <p>
        <a href={chooserUrl}>{t['all-sites']}</a>
      </p>
    </Page>
  );
}

export default function SiteParts({
  part,
  site,
  focusHeading = false,
}: {
  part: SitePart;
  site: string;
  /** The privacy notice was just accepted: the page's heading takes the focus it had. */
  focusHeading?: boolean;
}) {
  useHeadingFocus(focusHeading && part !== 'bar');
  const sites = useGetSitesQuery().data?.content;
  const several = (sites?.length ?? 0) > 1;
  const known = (slug: string) => sites?.some((each) => each.slug === slug) === true;
  // The site of the address, else the one this device chose (while it still exists).
  const chosen = site || (several && known(remembered()) ? remembered() : '');
  useEffect(() => {
    if (several && site && known(site)) remember(site);
  });

  if (part === 'missing') return <Missing />;
  if (!sites) return part === 'bar' ? null : <Loading />;
  switch (part) {
    case 'bar':
      return <Bar sites={sites} slug={chosen} />;
    case 'chooser':
      return several ? <Chooser sites={sites} /> : <Navigate to="/" replace />;
    case 'start':
      // One site: its rooms as before sites; several: the chooser until one is chosen.
      return several && !chosen ? (
        <Chooser sites={sites} />
      ) : (
        <RoomChooser site={chosen || undefined} />
      );
  }
}
