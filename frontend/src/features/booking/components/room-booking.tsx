import { lazy, Suspense, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Room, TimeSlot } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { useAppDispatch } from '../../../app/hooks';
import { MonthCalendar, type DayMark } from '../../../components/calendar/month-calendar';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { Translated } from '../../../components/translated';
import { useLanguage, useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { textIn } from '../../../i18n/language-choice';
import {
  compareYearMonth,
  currentYearMonth,
  monthRange,
  parseYearMonth,
  type YearMonth,
} from '../../../lib/calendar';
import { formatDayMonth, formatLongDate, formatTimeRange } from '../../../lib/dates';
import { resolveApiUrl } from '../../../lib/url';
import { notify } from '../../../stores/notifications-slice';
import {
  useGetBookableSlotsQuery,
  useGetSettingsQuery,
  useGetBookingRoomQuery,
  useGetRoomCalendarQuery,
  type RoomCalendar,
  type SeatWish,
} from '../api/booking-api';
import { slotAction } from '../lib/cart';
import { dayNotes } from '../lib/day-notes';
import { useLiveSlots } from '../lib/live-slots';
import { useBooking } from './booking-context';
import { CartPanel } from './cart-panel';
import { SeatDialog, useSeatChoice } from './seat-dialog';
import { WaitlistJoin } from './waitlist-join';
import { WizardSteps } from './wizard-steps';

// Only where the library lets visitors sign in with the campus identity.
const MembersSignIn = lazy(() =>
  import('./visitor-account').then((m) => ({ default: m.MembersSignIn })),
);

/** The day dialog around a button (closing it returns focus to the day). */
const dialogOf = (event: MouseEvent<HTMLElement>) => event.currentTarget.closest('dialog');

interface SlotActionProps {
  slot: TimeSlot;
  /** The room's waitlist offer time; undefined or null: the room has no waitlist. */
  offerMinutes: number | null | undefined;
  /** The slot being added to the cart, if any. */
  pending: string | null;
  /** The room has a seat plan: the button opens the slot's seats instead of adding it. */
  choosesSeat: boolean;
  onBook: (dialog: HTMLDialogElement | null) => void;
}

/**
 * What the day dialog offers for one slot: the book button, or why it cannot be booked (in the
 * cart, a limit, full with the waitlist where the room has one, unavailable).
 */
function SlotAction({ slot, offerMinutes, pending, choosesSeat, onBook }: SlotActionProps) {
  const { t } = useTranslation('booking');
  const { settings } = useBooking();
  const time = (
    <span className="visually-hidden"> {formatTimeRange(slot.startTime, slot.endTime)}</span>
  );
  const action = slotAction(slot);
  switch (action) {
    case 'in-cart':
      return (
        <>
          <p>{t('room.in-cart')}</p>
          <button
            type="button"
            className="button button--secondary"
            onClick={(event) => dialogOf(event)?.close()}
          >
            {t('room.back')}
          </button>
        </>
      );
    case 'cart-full':
      return (
        <p>
          {settings
            ? t('room.cart-full', { count: settings.maxCartTickets })
            : t('max_tickets_per_transaction_reached', { ns: 'common-error' })}
        </p>
      );
    case 'visitor-full':
      return <p>{t('max_tickets_by_user_reached', { ns: 'common-error' })}</p>;
    case 'day-full':
      // The message of docs/product.md#errors; the cart beside the calendar names the day and the limit.
      return <p>{t('max_tickets_per_day_reached', { ns: 'common-error' })}</p>;
    case 'overlap':
      // Says why, instead of "temporarily full" beside free seats.
      return <p>{t('max_tickets_per_time_reached', { ns: 'common-error' })}</p>;
    case 'fully-booked':
    case 'unavailable':
      return (
        <>
          <button type="button" className="button button--secondary" disabled>
            {t(`room.${action}`)}
            {time}
          </button>
          {action === 'fully-booked' && offerMinutes != null ? (
            <WaitlistJoin
              timeSlotId={slot.id}
              offerMinutes={offerMinutes}
              time={formatTimeRange(slot.startTime, slot.endTime)}
            />
          ) : null}
        </>
      );
    case 'book':
      return (
        <button
          type="button"
          className="button button--primary"
          aria-disabled={pending !== null || undefined}
          onClick={(event) => onBook(dialogOf(event))}
        >
          {t(pending === slot.id ? 'room.booking' : choosesSeat ? 'seats.choose' : 'room.book')}
          {time}
        </button>
      );
  }
}

/** The room's image, description and, for a members-only room, whose addresses may book. */
function RoomDetails({ room }: { room: Room }) {
  const { t } = useTranslation('booking');
  const { baseApiUrl } = useConfig();
  const way = useGetSettingsQuery().data?.visitorSignIn?.[0];
  const textOf = useTextIn();
  return (
    <>
      {room.imageUrl ? (
        <img
          className="room-image"
          src={resolveApiUrl(baseApiUrl, room.imageUrl)}
          alt={textOf(room.imageAlt, room.imageAltEn)}
        />
      ) : null}
      <p>
        <Translated german={room.description} english={room.descriptionEn} />
      </p>
      {way ? (
        // Members of the university (docs/product.md#room-services): sign in before booking.
        <Suspense fallback={null}>
          <MembersSignIn way={way} members={room.members} />
        </Suspense>
      ) : null}
      {room.services.allowedEmailDomains?.length ? (
        // Members only (docs/product.md#room-services): said before any data is entered.
        <p className="notice">
          {t('room.members-only', {
            domains: room.services.allowedEmailDomains.join(', '),
          })}
        </p>
      ) : null}
    </>
  );
}

/**
 * The calendar's marks and notes of days: a slot in the cart, the day's limit reached, and what
 * the slots do not say (a holiday, open or not, a closure's reason, and from which day a day
 * after the booking window can be booked online: day-notes.ts), in the page's language.
 */
function useDayMarks(calendar: RoomCalendar | undefined) {
  const { t, i18n } = useTranslation('booking');
  const { language } = useLanguage();
  const inCartMark: DayMark = { symbol: '✓', label: t('room.mark-in-cart') };
  const dayFullMark: DayMark = { symbol: '–', label: t('room.mark-day-full') };
  const laterMark: DayMark = { symbol: '◌', label: t('room.not-yet-bookable') };
  const markDay = (daySlots: readonly TimeSlot[]): DayMark[] => {
    const has = (rule: string) => daySlots.some((slot) => slot.failedRules.includes(rule));
    return [
      ...(has('timeslot_already_in_transaction') ? [inCartMark] : []),
      ...(has('max_tickets_per_day_reached') ? [dayFullMark] : []),
    ];
  };
  const noteOf = dayNotes(
    calendar,
    {
      closed: (reasons) => t('room.closed', { reasons }),
      closedPlain: t('room.closed-plain'),
      open: t('room.open'),
      bookableFrom: (date) =>
        t('room.bookable-from', { date: formatDayMonth(date, i18n.language) }),
      laterSymbol: laterMark.symbol,
    },
    language,
  );
  return { legendMarks: [inCartMark, dayFullMark, laterMark], markDay, noteOf };
}

/**
 * The month's slots as the visitor sees them. After the first add the query changes (it then
 * carries the cart's rules): the month's slots show meanwhile, so the calendar and its focus
 * stay. Spec: visitors see only slots with capacity and without the not-open rule; a slot staff
 * overbooked shows as full, never beyond its seats.
 */
function shownSlots(
  slots: { currentData?: TimeSlot[] | undefined; data?: TimeSlot[] | undefined },
  range: { fromDate: string; untilDate: string },
): TimeSlot[] | undefined {
  const loaded =
    slots.currentData ??
    (slots.data?.every((slot) => slot.date >= range.fromDate && slot.date <= range.untilDate)
      ? slots.data
      : undefined);
  return loaded
    ?.filter((slot) => slot.capacity > 0 && !slot.failedRules.includes('timeslot_not_open'))
    .map((slot) => ({ ...slot, ticketCount: Math.min(slot.ticketCount, slot.capacity) }));
}

/**
 * Route `/room/:id`: the room, a month calendar of its bookable slots (month in the query
 * parameters `year` and `month`, never before the current month) and the cart beside it.
 */
export function RoomBooking() {
  const { t, i18n } = useTranslation('booking');
  const { language } = useLanguage();
  const dispatch = useAppDispatch();
  const { id = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const [current] = useState(() => currentYearMonth());
  const requested = parseYearMonth(
    { year: searchParams.get('year'), month: searchParams.get('month') },
    current,
  );
  const month = compareYearMonth(requested, current) < 0 ? current : requested;
  const range = monthRange(month);
  useLiveSlots(id, month); // the month's slots read again when they change on the server
  const { transactionId, addTicket, tickets } = useBooking();
  const room = useGetBookingRoomQuery(id);
  const offerMinutes = room.data?.services.waitlistOfferMinutes; // of a waitlist on full slots
  const slots = useGetBookableSlotsQuery({ roomId: id, transactionId, ...range });
  const calendar = useGetRoomCalendarQuery({ roomId: id, ...range });
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ slotId: string; error: unknown } | null>(null);
  // A room with a seat plan: a slot's seats are picked (over the day's dialog) before it is added.
  const { plan, seatSlot, setSeatSlot } = useSeatChoice(id);
  // After an add the way on comes into view: on a phone it lies below the grid, out of sight of
  // the day the focus returns to. Once the dialog has given the focus back (which scrolls to the
  // day), and once the way on shows (the cart's answer may come after).
  const onward = useRef<HTMLAnchorElement>(null);
  const onwardWanted = useRef<'after-close' | 'now' | null>(null);
  const bringOnward = () => {
    if (onwardWanted.current !== 'now' || !onward.current) return;
    onwardWanted.current = null;
    onward.current.scrollIntoView({ block: 'nearest' });
  };
  useEffect(bringOnward);

  const shown = shownSlots(slots, range);

  const { legendMarks, markDay, noteOf } = useDayMarks(calendar.data);
  // The month shows once its days' notes are there too, so a day does not change under the
  // visitor's eyes (or focus) from a plain day to one with a note.
  const notesPending = calendar.currentData === undefined && !calendar.isError;

  const showMonth = ({ year, month: next }: YearMonth) => {
    setSearchParams({ year: String(year), month: String(next) }, { replace: true });
  };

  const book = async (slot: TimeSlot, dialog: HTMLDialogElement | null, wish?: SeatWish) => {
    if (pending) return;
    setPending(slot.id);
    setFailure(null);
    try {
      await addTicket(slot.id, wish);
      setSeatSlot(null);
      onwardWanted.current = 'after-close';
      const when = `${formatLongDate(slot.date, i18n.language)}, ${formatTimeRange(slot.startTime, slot.endTime)}`;
      dispatch(notify({ title: t('room.added', { slot: when }) }));
      dialog?.close();
    } catch (error) {
      setFailure({ slotId: slot.id, error });
    } finally {
      setPending(null);
    }
  };

  const renderSlotAction = (slot: TimeSlot) => (
    <>
      <SlotAction
        slot={slot}
        offerMinutes={offerMinutes}
        pending={pending}
        choosesSeat={plan !== undefined}
        onBook={(dialog) =>
          plan ? setSeatSlot({ slot, dayDialog: dialog }) : void book(slot, dialog)
        }
      />
      {failure?.slotId === slot.id && !seatSlot ? <ErrorBox error={failure.error} reveal /> : null}
    </>
  );

  return (
    <Page title={room.data ? textIn(language, room.data.name, room.data.nameEn) : t('room.title')}>
      <WizardSteps current="reservation" />
      <p>
        <Link to="/">{t('room.other-room')}</Link>
      </p>
      {room.error ? (
        // An unknown or malformed room id: "not found", not the server's validation message.
        <ErrorBox
          error={room.error}
          messageKey={
            'status' in room.error && (room.error.status === 400 || room.error.status === 404)
              ? 'not_found'
              : undefined
          }
        />
      ) : (
        <div className="booking-layout">
          <div className="booking-layout__main">
            {room.data ? <RoomDetails room={room.data} /> : null}
            <p>{t('room.intro')}</p>
            {slots.error ? <ErrorBox error={slots.error} /> : null}
            <MonthCalendar
              month={month}
              slots={slots.error ? [] : notesPending ? undefined : shown}
              onMonthChange={showMonth}
              previousDisabled={compareYearMonth(month, current) <= 0}
              renderSlotAction={renderSlotAction}
              markDay={markDay}
              legendMarks={legendMarks}
              noteOf={noteOf}
              onDayClosed={() => {
                if (onwardWanted.current === 'after-close') onwardWanted.current = 'now';
                bringOnward();
              }}
              afterGrid={
                tickets.length > 0 ? (
                  // On a phone the cart is below the fold; the way on is right here.
                  <p className="calendar__continue">
                    <Link ref={onward} className="button button--primary" to="/your-reservations">
                      {t('room.continue', { count: tickets.length })}
                    </Link>
                  </p>
                ) : null
              }
            />
          </div>
          <CartPanel />
        </div>
      )}
      {seatSlot && plan ? (
        <SeatDialog
          roomId={id}
          slot={seatSlot.slot}
          plan={plan}
          pending={pending !== null}
          error={failure?.slotId === seatSlot.slot.id ? failure.error : null}
          onBook={(wish) => void book(seatSlot.slot, seatSlot.dayDialog, wish)}
          onClose={() => {
            setSeatSlot(null);
            setFailure(null);
          }}
        />
      ) : null}
    </Page>
  );
}
