import { lazy, Suspense } from 'react';
import { Loading } from '../../../components/loading-container';
import { Link, useLocation, useParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { useConfig } from '../../../app/config-context';
import { resolveApiUrl } from '../../../lib/url';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDateMinute } from '../../../lib/dates';
import {
  useCancelOwnerTicketsMutation,
  useConfirmOwnerBookingMutation,
  useGetOwnerTicketsQuery,
  type Ticket,
} from '../api/booking-api';
import {
  TicketButtons,
  TicketDialogs,
  TicketNotices,
  useTicketActions,
  type TicketActions,
} from './ticket-actions';
import { MovedTo, TicketList, useTicketText } from './ticket-list';
import { WizardSteps } from './wizard-steps';

const OfflineNotice = lazy(() => import('./offline-notice'));

/**
 * Offline (the browser says so, or the service worker gave its saved answer because the network
 * failed), the tickets shown are the saved ones: the notice saying so is loaded only then.
 */
function SavedTickets({ ownerId, saved }: { ownerId: string; saved: boolean }) {
  return navigator.onLine && !saved ? null : (
    <Suspense>
      <OfflineNotice ownerId={ownerId} />
    </Suspense>
  );
}

/** The history state of the navigation right after booking (it survives a reload). */
export interface BookedState {
  bookedEmail: string;
}

const bookedEmailOf = (state: unknown): string | null => {
  const email = (state as Partial<BookedState> | null)?.bookedEmail;
  return typeof email === 'string' ? email : null;
};

/**
 * The token of the confirmation mail's link (`#confirm=…`): in the fragment, which the browser
 * never sends, so no server or proxy log keeps the secret; null when the page was opened
 * otherwise (right after booking, the booking's other links).
 */
const confirmationTokenOf = (hash: string): string | null =>
  new URLSearchParams(hash.replace(/^#/, '')).get('confirm') || null;

/**
 * Confirmed addresses (docs/product.md#confirmed-addresses): while tickets await confirmation,
 * "please confirm by …" (the earliest deadline, in the library's time zone) and, opened by the
 * confirmation mail's link (its token), the button that posts the confirmation; opened otherwise
 * (the booked page, whose visitor need not own the address), "check your mail" instead. Opening
 * the page never confirms (mail scanners open links). A booking released unconfirmed says so.
 */
function ConfirmBooking({
  ownerId,
  token,
  tickets,
}: {
  ownerId: string;
  token: string | null;
  tickets: Ticket[];
}) {
  const { t } = useTranslation('booking');
  const [confirm, { isLoading, error, isSuccess }] = useConfirmOwnerBookingMutation();
  const deadline = tickets
    .map((ticket) => ticket.confirmBy)
    .filter((at): at is string => typeof at === 'string')
    .sort()[0];
  if (deadline)
    return (
      <div className="notice" role="region" aria-label={t('confirmation.confirm-booking')}>
        <p>
          <strong>
            {t('confirmation.confirm-by', { at: formatDateMinute(new Date(deadline)) })}
          </strong>
        </p>
        {error ? <ErrorBox error={error} reveal /> : null}
        {token ? (
          <button
            type="button"
            className="button button--primary"
            disabled={isLoading}
            onClick={() => void confirm({ ownerId, token })}
          >
            {t('confirmation.confirm-booking')}
          </button>
        ) : (
          <p>{t('confirmation.check-mail')}</p>
        )}
      </div>
    );
  if (isSuccess)
    return (
      <p className="notice notice--success" role="status">
        {t('confirmation.confirmed')}
      </p>
    );
  if (tickets.some((ticket) => ticket.unconfirmed) && !tickets.some((x) => x.status === 'BOOKED'))
    return <p className="notice">{t('confirmation.lapsed')}</p>;
  return null;
}

/**
 * The booking's booked tickets: each with its check-in QR code where the room has check-in and,
 * while it can be cancelled, the buttons to cancel or move it; and their calendar feed.
 */
function BookedTickets({
  ownerId,
  booked,
  actions,
}: {
  ownerId: string;
  booked: Ticket[];
  actions: TicketActions;
}) {
  const { t } = useTranslation('booking');
  const { baseApiUrl } = useConfig();
  const ticketText = useTicketText();
  return (
    <>
      {booked.length === 0 ? (
        <EmptyState>{t('confirmation.no-tickets')}</EmptyState>
      ) : (
        <TicketList
          tickets={booked}
          renderExtra={(ticket) => (
            <>
              {ticket.checkIn ? (
                // The check-in QR code, drawn by the server (no QR code in the JS).
                <img
                  className="ticket-list__qr"
                  src={resolveApiUrl(
                    baseApiUrl,
                    `owners/${ownerId}/tickets/${ticket.id}/check-in.svg`,
                  )}
                  // Which ticket's code, with its seat: a booking may show several.
                  alt={t('confirmation.qr', { ticket: ticketText(ticket) })}
                  width="160"
                  height="160"
                />
              ) : null}
              <TicketButtons ticket={ticket} actions={actions} />
            </>
          )}
        />
      )}
      {booked.length > 0 ? (
        <p>
          {/* The booked appointments as a calendar feed a calendar application subscribes to. */}
          <a href={resolveApiUrl(baseApiUrl, `owners/${ownerId}/tickets.ics`)}>
            {t('confirmation.calendar-feed')}
          </a>
        </p>
      ) : null}
    </>
  );
}

/**
 * Route `/reservation-confirmation/:id` (the link of the confirmation mail): the tickets of a
 * booking, each cancelable one with a cancel button (after a confirmation). After a cancel the
 * other tickets of the order are offered for cancelling too. Right after booking the visitor
 * lands here (history state `BookedState`): the thank-you heading, the last wizard step and the
 * hint that a mail was sent come first, and all of it survives a reload.
 */
export function ReservationConfirmation() {
  const { t } = useTranslation('booking');
  const { id = '' } = useParams();
  const location = useLocation();
  const bookedEmail = bookedEmailOf(location.state);
  const token = confirmationTokenOf(location.hash);
  const { data: read, error } = useGetOwnerTicketsQuery(id);
  const data = read?.tickets;
  const [cancel, { isLoading }] = useCancelOwnerTicketsMutation();
  const actions = useTicketActions((ids) => cancel({ ownerId: id, ids }).unwrap(), isLoading);
  const { done } = actions;

  const status = (error as { status?: unknown } | undefined)?.status;
  const body = () => {
    if (status === 404 || status === 400) {
      return (
        <div className="error-box" role="alert">
          <p className="error-box__message">{t('confirmation.invalid-id', { id })}</p>
          <p>
            <Link to="/">{t('confirmation.to-start')}</Link>
          </p>
        </div>
      );
    }
    if (error) {
      return (
        <ErrorBox messageKey="unknown" extra={<Link to="/">{t('confirmation.to-start')}</Link>} />
      );
    }
    if (!data) {
      return <Loading />;
    }
    const booked = data.filter((ticket) => ticket.status === 'BOOKED');
    // A moved ticket is cancelled too: it says where it went (docs/product.md#rebooking).
    const movedAway = data.filter(
      (ticket) => ticket.status === 'CANCELLED' && ticket.cancellation?.movedTo,
    );
    const cancelled = data.filter(
      (ticket) => ticket.status === 'CANCELLED' && !ticket.cancellation?.movedTo,
    );
    const cancelable = booked.filter((ticket) => ticket.cancelable);
    const number = data.find((ticket) => ticket.bookingNumber)?.bookingNumber;
    return (
      <>
        <SavedTickets ownerId={id} saved={read?.saved ?? false} />
        {number ? (
          <p>
            {t('booked.number')} <strong>{number}</strong>
          </p>
        ) : null}
        <ConfirmBooking ownerId={id} token={token} tickets={data} />
        <TicketNotices actions={actions} />
        {done && cancelable.length > 0 ? (
          <div className="notice">
            <p>{t('confirmation.others-question', { count: cancelable.length })}</p>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => actions.start({ tickets: cancelable, others: true })}
            >
              {t('confirmation.cancel-others', { count: cancelable.length })}
            </button>
          </div>
        ) : null}
        <h2>{t('confirmation.booked')}</h2>
        <BookedTickets ownerId={id} booked={booked} actions={actions} />
        {movedAway.length > 0 ? (
          <>
            <h2>{t('confirmation.moved')}</h2>
            <TicketList
              tickets={movedAway}
              renderExtra={(ticket) => <MovedTo movedTo={ticket.cancellation?.movedTo} />}
            />
          </>
        ) : null}
        {cancelled.length > 0 ? (
          <>
            <h2>{t('confirmation.cancelled')}</h2>
            <TicketList tickets={cancelled} />
          </>
        ) : null}
      </>
    );
  };

  return (
    <Page title={t(bookedEmail === null ? 'confirmation.title' : 'booked.title')}>
      {bookedEmail === null ? null : (
        <>
          <WizardSteps current="confirmation" />
          <p className="notice notice--success">{t('booked.mail', { email: bookedEmail })}</p>
        </>
      )}
      {body()}
      {bookedEmail === null ? null : (
        <p>
          <Link to="/">{t('booked.again')}</Link>
        </p>
      )}
      <TicketDialogs
        actions={actions}
        ownerId={() => id}
        title={({ tickets, others }) =>
          t(others ? 'confirmation.confirm-others' : 'confirmation.confirm', {
            count: tickets.length,
          })
        }
      />
    </Page>
  );
}
