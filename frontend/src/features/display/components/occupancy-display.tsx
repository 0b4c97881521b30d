import { useEffect, useId, useState } from 'react';
import type { DisplayRoom, DisplaySlot } from '../../../api/types';
import { ErrorBox } from '../../../components/error-box';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  formatClockTime,
  formatLongDate,
  formatTimeRange,
  getLibraryTimeZone,
  todayIso,
} from '../../../lib/dates';
import { DISPLAY_POLLING_MS, useGetDisplayQuery } from '../api/display-api';
import { nextOf, seatLevel } from '../lib/display-view';

/** The current time, renewed every second (the browser's clock, for the display only). */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** The free seats of a slot in words (the colour only repeats them); the number stands out. */
function Seats({ slot, large = false }: { slot: DisplaySlot; large?: boolean }) {
  const { t } = useTranslation('display');
  const level = seatLevel(slot);
  return (
    <span
      className={`display-seats display-seats--${level}${large ? ' display-seats--large' : ''}`}
    >
      {level === 'full' ? (
        t('full')
      ) : (
        <>
          <span className="display-seats__count">{slot.freeSeats}</span>{' '}
          {t('seats', { count: slot.freeSeats })}
        </>
      )}
    </span>
  );
}

function RoomPanel({
  room,
  today,
  language,
}: {
  room: DisplayRoom;
  today: string;
  language: string;
}) {
  const { t } = useTranslation('display');
  const headingId = useId();
  const next = nextOf(room, today);
  return (
    <section className="display-room" aria-labelledby={headingId}>
      <h2 id={headingId} className="display-room__name">
        {room.name}
      </h2>
      {room.current ? (
        <div className="display-room__now">
          <p className="display-room__label">
            {t('now')}{' '}
            <span className="display-time">
              {formatTimeRange(room.current.startTime, room.current.endTime)}
            </span>
          </p>
          <p>
            <Seats slot={room.current} large />
          </p>
        </div>
      ) : next.today.length ? (
        <p className="display-room__none">{t('no-current')}</p>
      ) : null}
      {next.today.length ? (
        <>
          <h3 className="display-room__label">{t('next')}</h3>
          <ul className="display-room__next">
            {next.today.map((slot) => (
              <li key={slot.id}>
                <span className="display-time">
                  {formatTimeRange(slot.startTime, slot.endTime)}
                </span>{' '}
                <Seats slot={slot} />
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="display-room__none">{t('no-more-today')}</p>
      )}
      {next.later ? (
        <>
          <h3 className="display-room__label display-room__label--date">
            {t('next-day', { date: formatLongDate(next.later.date, language) })}
          </h3>
          <ul className="display-room__next">
            <li>
              <span className="display-time">
                {formatTimeRange(next.later.startTime, next.later.endTime)}
              </span>{' '}
              <Seats slot={next.later} />
            </li>
          </ul>
        </>
      ) : null}
    </section>
  );
}

const isNotFound = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error && error.status === 404;

/**
 * The live occupancy display: a public screen for the foyer, one room or all rooms,
 * with the slot running now and the next ones and their free seats, asked again every 5 seconds.
 * No navigation, no personal data; large type and high contrast, read from three metres.
 */
export function OccupancyDisplay({ roomId }: { roomId: string }) {
  const { t, i18n } = useTranslation('display');
  const now = useNow();
  const language = i18n.language;
  const { data, error, fulfilledTimeStamp } = useGetDisplayQuery(roomId, {
    pollingInterval: DISPLAY_POLLING_MS,
    skipPollingIfUnfocused: false,
  });
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
  let content;
  if (data) {
    content = data.rooms.length ? (
      data.rooms.map((room) => (
        <RoomPanel key={room.id} room={room} today={data.today} language={language} />
      ))
    ) : (
      <p className="display-room__none">{t('no-rooms')}</p>
    );
  } else if (error) {
    content = isNotFound(error) ? (
      <p className="display-message" role="alert">
        {t('room-not-found')}
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
        <h1 className="display__title">{t('title')}</h1>
        <p className="display__clock">
          <time className="display__time">{formatClockTime(now)}</time>{' '}
          <span className="display__date">{formatLongDate(todayIso(now), language)}</span>
        </p>
      </header>
      <main
        id="main-content"
        className={`display__rooms${data?.rooms.length === 1 ? ' display__rooms--one' : ''}`}
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
