import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
  type ReactNode,
} from 'react';
import { useTranslation } from '../../i18n/i18n-context';
import {
  currentYearMonth,
  dayLabel,
  dayStatus,
  formatYearMonth,
  gridKeyTarget,
  monthRange,
  monthWeeks,
  shiftMonth,
  slotsByDate,
  weekdayNames,
  yearMonthOfDate,
  type CalendarDay,
  type CalendarSlot,
  type DayNote,
  type DayStatus,
  type YearMonth,
} from '../../lib/calendar';
import { formatLongDate, parseIsoDate, todayIso } from '../../lib/dates';
import { Loading } from '../loading-container';
import { DaySlotsDialog } from './day-slots-dialog';

interface MonthCalendarProps<S extends CalendarSlot> {
  month: YearMonth;
  /** The month's slots; undefined while they load. */
  slots: readonly S[] | undefined;
  onMonthChange: (month: YearMonth) => void;
  /** Visitors cannot go back before the current month. */
  previousDisabled?: boolean;
  /** The action of one slot in the day dialog (edit for admins, book for visitors). */
  renderSlotAction: (slot: S) => ReactNode;
  /**
   * Further marks of a day from its slots (visitors: a slot in the cart, the day's limit;
   * staff: overbooked).
   */
  markDay?: (slots: readonly S[]) => readonly DayMark[];
  /** The further marks `markDay` can give, for the legend. */
  legendMarks?: readonly DayMark[];
  /** Shown right below the grid (visitors: the way on once a slot is chosen). */
  afterGrid?: ReactNode;
  /** Called when a day's dialog has closed and the focus is back on the day. */
  onDayClosed?: () => void;
  /**
   * What to say of a day beyond its slots, in its name, its cell and its dialog (visitors: a
   * holiday's name, "not yet bookable" after the booking window).
   */
  noteOf?: (date: string) => DayNote | undefined;
}

/** A further mark of a day: a symbol shown in the cell and a text for its name and the legend. */
export interface DayMark {
  symbol: string;
  label: string;
  /** The symbol's class (default `calendar__mark`). */
  className?: string;
}

const NO_MARKS: readonly DayMark[] = [];

const STATUS_SYMBOL: Readonly<Record<DayStatus, string>> = { empty: '', free: '○', full: '●' };

/**
 * Monthly calendar (docs/product.md#screens, "Calendar"): month navigation, weeks Monday to Sunday, each
 * day empty, free or full (colour plus symbol and text), and a dialog with the slots of a day.
 */
export function MonthCalendar<S extends CalendarSlot>({
  month,
  slots,
  onMonthChange,
  previousDisabled = false,
  renderSlotAction,
  markDay,
  legendMarks = NO_MARKS,
  afterGrid,
  onDayClosed,
  noteOf,
}: MonthCalendarProps<S>) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const headingId = useId();
  const [openDate, setOpenDate] = useState<string | null>(null);
  const weeks = useMemo(() => monthWeeks(month), [month]);
  const byDate = useMemo(() => slotsByDate(slots ?? []), [slots]);
  const longNames = weekdayNames(locale, 'long');
  const shortNames = weekdayNames(locale, 'short');
  const monthLabel = formatYearMonth(month, locale);

  const openSlots = openDate ? (byDate.get(openDate) ?? []) : [];

  // The grid is one tab stop (roving tabindex): the day that has it is the one last moved to in
  // this month, else today in the current month, else the month's first day.
  const { fromDate, untilDate } = monthRange(month);
  const [moved, setMoved] = useState<string | null>(null);
  const today = todayIso();
  const inMonth = (date: string | null) => date !== null && date >= fromDate && date <= untilDate;
  const activeDate = inMonth(moved) ? moved! : inMonth(today) ? today : fromDate;
  const grid = useRef<HTMLTableElement>(null);
  // The day a key moved to: the focus follows once that day is rendered (a month change renders
  // the old month once more, and then loads).
  const focusPending = useRef<string | null>(null);
  useEffect(() => {
    if (!focusPending.current) return;
    const cell = grid.current?.querySelector<HTMLElement>(`[data-date="${focusPending.current}"]`);
    if (cell) {
      focusPending.current = null;
      cell.focus();
    }
  });

  const keptFocus = useKeptDayFocus(grid);

  const onGridKey = (event: KeyboardEvent<HTMLTableElement>) => {
    const target = gridKeyTarget(activeDate, event.key);
    if (!target) return;
    event.preventDefault();
    if (target < fromDate && previousDisabled) return;
    focusPending.current = target;
    setMoved(target);
    if (!inMonth(target)) onMonthChange(yearMonthOfDate(parseIsoDate(target)!));
  };

  return (
    <section className="calendar" aria-labelledby={headingId}>
      <MonthHeader
        headingId={headingId}
        month={month}
        monthLabel={monthLabel}
        previousDisabled={previousDisabled}
        onMonthChange={onMonthChange}
      />
      {slots === undefined ? (
        <Loading />
      ) : (
        <>
          {/* The grid pattern's keys are handled on the table, where they bubble from the day. */}
          <table
            ref={grid}
            className="calendar__grid"
            role="grid"
            onKeyDown={onGridKey}
            onFocus={keptFocus.onFocus}
            onBlur={keptFocus.onBlur}
          >
            <caption className="visually-hidden">
              {t('calendar.caption', { month: monthLabel })}
            </caption>
            <thead>
              <tr>
                {longNames.map((name, index) => (
                  <th key={name} scope="col">
                    <span aria-hidden="true">{shortNames[index]}</span>
                    <span className="visually-hidden">{name}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week[0]!.date}>
                  {week.map((day) => {
                    const daySlots = byDate.get(day.date) ?? [];
                    return (
                      <DayCell
                        key={day.date}
                        day={day}
                        slots={daySlots}
                        marks={markDay && daySlots.length > 0 ? markDay(daySlots) : NO_MARKS}
                        note={day.inMonth ? noteOf?.(day.date) : undefined}
                        active={day.date === activeDate}
                        onOpen={() => {
                          setMoved(day.date);
                          setOpenDate(day.date);
                        }}
                      />
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          {afterGrid}
          <Legend marks={legendMarks} />
        </>
      )}
      {openDate ? (
        <DaySlotsDialog
          title={formatLongDate(openDate, locale)}
          note={noteOf?.(openDate)?.text}
          slots={openSlots}
          renderSlotAction={renderSlotAction}
          onClose={() => {
            setOpenDate(null);
            onDayClosed?.();
          }}
        />
      ) : null}
    </section>
  );
}

/**
 * Keeps the focus on the grid's day when its cell is rebuilt: a day that gains its first slot or
 * a note turns from a plain cell into a button, which drops the focus from it. The focus goes on
 * to the rebuilt cell, unless the visitor has meanwhile moved it elsewhere.
 */
function useKeptDayFocus(grid: RefObject<HTMLTableElement | null>) {
  const focusedDate = useRef<string | null>(null);
  useEffect(() => {
    const date = focusedDate.current;
    if (!date) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.dataset.date === date) return;
    const inPage = active !== null && active !== document.body;
    if (inPage && !grid.current?.contains(active)) return;
    focusedDate.current = null;
    grid.current?.querySelector<HTMLElement>(`[data-date="${date}"]`)?.focus();
  });
  return {
    onFocus: (event: FocusEvent<HTMLTableElement>) => {
      focusedDate.current = event.target.dataset.date ?? null;
    },
    onBlur: (event: FocusEvent<HTMLTableElement>) => {
      const cell = event.target;
      // Only a day left while it is still a day of the page lets go of it; one rebuilt or taken
      // out keeps its date for the next render.
      queueMicrotask(() => {
        if (cell.isConnected && cell.dataset.date === focusedDate.current)
          focusedDate.current = null;
      });
    },
  };
}

interface MonthHeaderProps {
  headingId: string;
  month: YearMonth;
  monthLabel: string;
  previousDisabled: boolean;
  onMonthChange: (month: YearMonth) => void;
}

/** The month's name (announced on a change) and the way to the previous, current, next month. */
function MonthHeader({
  headingId,
  month,
  monthLabel,
  previousDisabled,
  onMonthChange,
}: MonthHeaderProps) {
  const { t } = useTranslation();
  return (
    <div className="calendar__header">
      <h2 id={headingId} className="calendar__month" aria-live="polite">
        {monthLabel}
      </h2>
      <div className="calendar__nav">
        <button
          type="button"
          className="button button--secondary"
          disabled={previousDisabled}
          onClick={() => onMonthChange(shiftMonth(month, -1))}
        >
          <span aria-hidden="true">‹ </span>
          {t('calendar.previous-month')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => onMonthChange(currentYearMonth())}
        >
          {t('calendar.current-month')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => onMonthChange(shiftMonth(month, 1))}
        >
          {t('calendar.next-month')}
          <span aria-hidden="true"> ›</span>
        </button>
      </div>
    </div>
  );
}

interface DayCellProps {
  day: CalendarDay;
  slots: readonly CalendarSlot[];
  marks: readonly DayMark[];
  note: DayNote | undefined;
  /** The day that holds the grid's one tab stop. */
  active: boolean;
  onOpen: () => void;
}

function DayCell({ day, slots, marks, note, active, onOpen }: DayCellProps) {
  const { t, i18n } = useTranslation();
  if (!day.inMonth) return <td className="calendar__day calendar__day--outside" />;

  const status = dayStatus(slots);
  const today = day.date === todayIso();
  const label = dayLabel({
    date: formatLongDate(day.date, i18n.language),
    today: today ? t('calendar.today') : undefined,
    note,
    status,
    statusText: t(`calendar.status.${status}`),
    marks: marks.map((mark) => mark.label),
  });
  const content = (
    <>
      <span className="calendar__number" aria-hidden="true">
        {day.day}
      </span>
      <span className="calendar__marks" aria-hidden="true">
        {STATUS_SYMBOL[status]}
        {marks.map((mark) => (
          <span key={mark.label} className={mark.className ?? 'calendar__mark'}>
            {mark.symbol}
          </span>
        ))}
        {note?.symbol ? <span className="calendar__mark">{note.symbol}</span> : null}
      </span>
      {note && !note.symbol ? (
        <span className="calendar__note" aria-hidden="true">
          {note.text}
        </span>
      ) : null}
      <span className="visually-hidden">{label}</span>
    </>
  );
  const tabIndex = active ? 0 : -1;

  // A day with slots or a note opens its dialog; any other day of the month takes the focus
  // itself, so the arrow keys reach every day.
  return (
    <td
      className={`calendar__day calendar__day--${status}${today ? ' calendar__day--today' : ''}`}
      aria-current={today ? 'date' : undefined}
      {...(status === 'empty' && !note ? { tabIndex, 'data-date': day.date } : {})}
    >
      {status === 'empty' && !note ? (
        <span className="calendar__cell">{content}</span>
      ) : (
        <button
          type="button"
          className="calendar__cell"
          tabIndex={tabIndex}
          data-date={day.date}
          onClick={onOpen}
        >
          {content}
        </button>
      )}
    </td>
  );
}

function Legend({ marks }: { marks: readonly DayMark[] }) {
  const { t } = useTranslation();
  const statuses: DayStatus[] = ['free', 'full', 'empty'];
  return (
    <ul className="calendar__legend" aria-label={t('calendar.legend')}>
      {statuses.map((status) => (
        <li key={status}>
          <span className={`calendar__swatch calendar__day--${status}`} aria-hidden="true">
            {STATUS_SYMBOL[status]}
          </span>
          {t(`calendar.status.${status}`)}
        </li>
      ))}
      {marks.map((mark) => (
        <li key={mark.label}>
          <span className="calendar__swatch" aria-hidden="true">
            <span className={mark.className ?? 'calendar__mark'}>{mark.symbol}</span>
          </span>
          {mark.label}
        </li>
      ))}
    </ul>
  );
}
