import {
  hasHours,
  HOURS_DAYS,
  hoursDayOf,
  hoursOn,
  rangesText,
  type HoursDay,
  type SiteHours,
} from '@rr/contracts/site-hours';
import { addDaysIso, formatDate } from '../lib/dates';
import { useTextIn } from '../i18n/i18n-context';

/** The texts of a site's hours in the page's language (each page's chunk brings its own). */
export interface SiteHoursTexts {
  title: string;
  /** Before today's hours: "Heute" / "Today". */
  today: string;
  /** After today's weekday in the week: "heute" / "today". */
  todayMark: string;
  closed: string;
  days: Record<HoursDay, string>;
}

/** How far ahead the dates with other hours are shown. */
const EXCEPTIONS_AHEAD_DAYS = 30;

/** Today's hours of a site: the date's exception when it has one (with its note), else its weekday's. */
export function TodayHours({
  hours,
  today,
  texts,
  className,
}: {
  hours: SiteHours;
  today: string;
  texts: SiteHoursTexts;
  className?: string;
}) {
  const textIn = useTextIn();
  if (!hasHours(hours)) return null;
  const on = hoursOn(hours, today);
  return (
    <p className={className ?? 'site-hours__today'}>
      <strong>
        {texts.today}: {rangesText(on.ranges, texts.closed)}
      </strong>
      {on.note ? ` (${textIn(on.note, on.noteEn)})` : null}
    </p>
  );
}

/**
 * A site's opening hours (docs/product.md#sites): each weekday, today's marked (with the date's
 * other hours when it has them), then the dates with other hours of the coming weeks.
 */
export function SiteHoursList({
  hours,
  today,
  texts,
  headingLevel = 3,
}: {
  hours: SiteHours;
  today: string;
  texts: SiteHoursTexts;
  /** The title's heading level; null: no title (a disclosure's summary names it). */
  headingLevel?: 2 | 3 | 4 | null;
}) {
  const textIn = useTextIn();
  if (!hasHours(hours)) return null;
  const todays = hoursDayOf(today);
  const until = addDaysIso(today, EXCEPTIONS_AHEAD_DAYS);
  const ahead = hours.exceptions.filter((e) => e.date > today && e.date <= until);
  const todayHours = hoursOn(hours, today);
  return (
    <div className="site-hours">
      {headingLevel === null ? null : (
        <Heading level={headingLevel} className="site-hours__title">
          {texts.title}
        </Heading>
      )}
      <dl className="site-hours__week">
        {HOURS_DAYS.map((day) => {
          const isToday = day === todays;
          const ranges = isToday ? todayHours.ranges : hours.weekly[day];
          return (
            <div
              key={day}
              className={isToday ? 'site-hours__day site-hours__day--today' : 'site-hours__day'}
            >
              <dt>
                {texts.days[day]}
                {isToday ? ` (${texts.todayMark})` : null}
              </dt>
              <dd>
                {rangesText(ranges, texts.closed)}
                {isToday && todayHours.note
                  ? ` – ${textIn(todayHours.note, todayHours.noteEn)}`
                  : null}
              </dd>
            </div>
          );
        })}
      </dl>
      {ahead.length ? (
        <ul className="site-hours__exceptions">
          {ahead.map((e) => (
            <li key={e.date}>
              {formatDate(e.date)}: {rangesText(e.ranges, texts.closed)}
              {e.note ? ` – ${textIn(e.note, e.noteEn)}` : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Heading({
  level,
  className,
  children,
}: {
  level: 2 | 3 | 4;
  className: string;
  children: string;
}) {
  if (level === 2) return <h2 className={className}>{children}</h2>;
  if (level === 4) return <h4 className={className}>{children}</h4>;
  return <h3 className={className}>{children}</h3>;
}
