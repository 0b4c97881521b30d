import { useEffect, useId, useState } from 'react';
import type { DisplayRoom, DisplaySlot } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { ErrorBox } from '../../../components/error-box';
import { TodayHours } from '../../../components/site-hours';
import { positionSeen } from '../../../api/consistency-slice';
import { useAppDispatch } from '../../../app/hooks';
import { useLiveStream } from '../../../lib/live-availability';
import { resolveApiUrl } from '../../../lib/url';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import {
  formatClockTime,
  formatDayMonth,
  formatLongDate,
  formatTimeRange,
  getLibraryTimeZone,
  todayIso,
} from '../../../lib/dates';
import {
  DISPLAY_POLLING_MS,
  useGetDisplayQuery,
  useGetDisplaySiteRoomsQuery,
  useGetDisplaySitesQuery,
} from '../api/display-api';
import { nextOf, seatLevel } from '../lib/display-view';
import { DisplaySeatPlan, planTime } from './display-seat-plan';
import { useCopyWithoutSoftHyphens, useHyphenate, type Hyphenate } from '../lib/hyphenate';

/** The current time, renewed every second (the browser's clock, for the display only). */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * A slot after its room's booking window: from which day it can be booked online, as the visitor
 * calendar says it (the server's day, docs/product.md#live-display).
 */
function BookableFrom({ slot, hy }: { slot: DisplaySlot; hy: Hyphenate }) {
  const { t, i18n } = useTranslation('display');
  if (!slot.bookableFrom) return null;
  return (
    <span className="display-room__bookable-from">
      {hy(t('bookable-from', { date: formatDayMonth(slot.bookableFrom, i18n.language) }))}
    </span>
  );
}

/** The free seats of a slot in words (the colour only repeats them); the number stands out. */
function Seats({ slot, hy, large = false }: { slot: DisplaySlot; hy: Hyphenate; large?: boolean }) {
  const { t } = useTranslation('display');
  const level = seatLevel(slot);
  return (
    <span
      className={`display-seats display-seats--${level}${large ? ' display-seats--large' : ''}`}
    >
      {level === 'full' ? (
        hy(t('full'))
      ) : (
        <>
          <span className="display-seats__count">{slot.freeSeats}</span>{' '}
          {hy(t('seats', { count: slot.freeSeats }))}
        </>
      )}
    </span>
  );
}

function RoomPanel({
  room,
  today,
  language,
  hy,
}: {
  room: DisplayRoom;
  today: string;
  language: string;
  hy: Hyphenate;
}) {
  const { t } = useTranslation('display');
  const headingId = useId();
  const name = useTextIn()(room.name, room.nameEn);
  const next = nextOf(room, today);
  const nextDay = next.later
    ? t('next-day', { date: formatLongDate(next.later.date, language) })
    : '';
  return (
    <section className="display-room" aria-labelledby={headingId}>
      {/* A heading's name (and so its region's) is the plain text: Chromium's accessibility tree
          would otherwise carry the soft hyphens. */}
      <h2 id={headingId} className="display-room__name" aria-label={name}>
        {hy(name)}
      </h2>
      {room.current ? (
        <div className="display-room__now">
          <p className="display-room__label">
            {hy(t('now'))}{' '}
            <span className="display-time">
              {formatTimeRange(room.current.startTime, room.current.endTime)}
            </span>
          </p>
          <p>
            <Seats slot={room.current} hy={hy} large />
          </p>
        </div>
      ) : next.today.length ? (
        <p className="display-room__none">{hy(t('no-current'))}</p>
      ) : null}
      {next.today.length ? (
        <>
          <h3 className="display-room__label" aria-label={t('next')}>
            {hy(t('next'))}
          </h3>
          <ul className="display-room__next">
            {next.today.map((slot) => (
              <li key={slot.id}>
                <span className="display-time">
                  {formatTimeRange(slot.startTime, slot.endTime)}
                </span>{' '}
                <Seats slot={slot} hy={hy} />
                <BookableFrom slot={slot} hy={hy} />
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="display-room__none">{hy(t('no-more-today'))}</p>
      )}
      {next.later ? (
        <>
          <h3 className="display-room__label display-room__label--date" aria-label={nextDay}>
            {hy(nextDay)}
          </h3>
          <ul className="display-room__next">
            <li>
              <span className="display-time">
                {formatTimeRange(next.later.startTime, next.later.endTime)}
              </span>{' '}
              <Seats slot={next.later} hy={hy} />
              <BookableFrom slot={next.later} hy={hy} />
            </li>
          </ul>
        </>
      ) : null}
      {room.seatPlan ? <DisplaySeatPlan plan={room.seatPlan} time={planTime(room)} /> : null}
    </section>
  );
}

/**
 * The display of one site (docs/product.md#sites): the site's rooms only and, once the library has
 * several sites, its name, postal address and contact; `known` false for a slug no site has.
 */
function useDisplaySite(slug: string) {
  const sites = useGetDisplaySitesQuery(undefined, { skip: !slug }).data?.content;
  const rooms = useGetDisplaySiteRoomsQuery(slug, {
    skip: !slug,
    pollingInterval: DISPLAY_POLLING_MS * 12,
  }).data?.content;
  const site = sites?.find((each) => each.slug === slug);
  return {
    known: !slug || !sites || site !== undefined,
    shown: site && sites && sites.length > 1 ? site : undefined,
    roomIds: slug ? rooms && new Set(rooms.map((room) => room.id)) : undefined,
  };
}

const isNotFound = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error && error.status === 404;

/**
 * A seat taken or freed shows within a second: the display follows the live stream of what it
 * shows (`display/stream`) and reads itself again on each change, with the stream's position as
 * X-Min-Position. The poll stays, for the passing of time and for when the stream is not open.
 */
function useLiveDisplay(baseApiUrl: string, roomId: string, refetch: () => unknown) {
  const dispatch = useAppDispatch();
  useLiveStream(
    baseApiUrl,
    `display/stream${roomId ? `?roomId=${encodeURIComponent(roomId)}` : ''}`,
    (position) => {
      dispatch(positionSeen(position));
      refetch();
    },
  );
}

/**
 * The live occupancy display: a public screen for the foyer, one room or all rooms,
 * with the slot running now and the next ones and their free seats, asked again every 5 seconds
 * and at once when the live stream reports a change.
 * No navigation, no personal data; large type and high contrast, read from three metres.
 */
export function OccupancyDisplay({ roomId, site = '' }: { roomId: string; site?: string }) {
  const { t, i18n } = useTranslation('display');
  const textIn = useTextIn();
  const { known, shown, roomIds } = useDisplaySite(site);
  const { baseApiUrl } = useConfig();
  const now = useNow();
  const language = i18n.language;
  const hy = useHyphenate(language);
  useCopyWithoutSoftHyphens();
  const { data, error, fulfilledTimeStamp, refetch } = useGetDisplayQuery(roomId, {
    pollingInterval: DISPLAY_POLLING_MS,
    skipPollingIfUnfocused: false,
  });
  useLiveDisplay(baseApiUrl, roomId, refetch);
  useDocumentTitle(t('title'));
  const updated = fulfilledTimeStamp
    ? new Intl.DateTimeFormat(language, {
        timeZone: getLibraryTimeZone(),
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(fulfilledTimeStamp)
    : '';
  const rooms = data?.rooms.filter((room) => !roomIds || roomIds.has(room.id));
  let content;
  if (!known) {
    content = (
      <p className="display-message" role="alert">
        {hy(t('site-not-found'))}
      </p>
    );
  } else if (data && rooms && (!site || roomIds)) {
    content = rooms.length ? (
      rooms.map((room) => (
        <RoomPanel key={room.id} room={room} today={data.today} language={language} hy={hy} />
      ))
    ) : (
      <p className="display-room__none">{hy(t('no-rooms'))}</p>
    );
  } else if (error) {
    content = isNotFound(error) ? (
      <p className="display-message" role="alert">
        {hy(t('room-not-found'))}
      </p>
    ) : (
      <ErrorBox error={error} />
    );
  } else {
    content = (
      <p className="display-message" role="status">
        {t('loading', { ns: 'common' })}
      </p>
    );
  }
  return (
    <div className="display">
      <header className="display__header">
        <h1 className="display__title" aria-label={t('title')}>
          {hy(t('title'))}
        </h1>
        <p className="display__clock">
          <time className="display__time">{formatClockTime(now)}</time>{' '}
          <span className="display__date">{formatLongDate(todayIso(now), language)}</span>
        </p>
        {shown ? (
          <div className="display__site">
            {shown.logoUrl ? (
              <img
                className="display__site-logo"
                src={resolveApiUrl(baseApiUrl, shown.logoUrl)}
                alt=""
              />
            ) : null}
            <p className="display__site-name">{hy(textIn(shown.name, shown.nameEn))}</p>
            <address className="display__site-contact">
              {[shown.address?.replace(/\s*\n\s*/g, ', '), shown.phone, shown.contactEmail]
                .filter(Boolean)
                .join(' · ')}
            </address>
            <TodayHours
              hours={shown.hours}
              today={todayIso(now)}
              className="display__site-hours"
              texts={{
                title: t('site-hours.hours'),
                today: t('site-hours.today'),
                todayMark: t('site-hours.today-mark'),
                closed: t('site-hours.closed'),
                days: {
                  mon: t('site-hours.day-mon'),
                  tue: t('site-hours.day-tue'),
                  wed: t('site-hours.day-wed'),
                  thu: t('site-hours.day-thu'),
                  fri: t('site-hours.day-fri'),
                  sat: t('site-hours.day-sat'),
                  sun: t('site-hours.day-sun'),
                },
              }}
            />
          </div>
        ) : null}
      </header>
      <main
        id="main-content"
        className={`display__rooms${rooms?.length === 1 ? ' display__rooms--one' : ''}`}
      >
        {content}
      </main>
      {data ? (
        <footer className="display__footer">
          {error ? t('stale', { time: updated }) : t('updated', { time: updated })}
        </footer>
      ) : null}
    </div>
  );
}
