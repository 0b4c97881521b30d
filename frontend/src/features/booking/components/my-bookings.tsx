import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Loading } from '../../../components/loading-container';
import { Link, useParams } from 'react-router';
import type { Output } from '@rr/contracts/issues';
import { MyBookingsLinkInput } from '@rr/contracts/my-bookings';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDateTime } from '../../../lib/dates';
import { resolveApiUrl } from '../../../lib/url';
import {
  useCancelMyBookingsTicketsMutation,
  useCancelOwnerTicketsMutation,
  useGetMyBookingsQuery,
  useGetSignedInBookingsQuery,
  useGetSettingsQuery,
  useRequestMyBookingsLinkMutation,
  type Ticket,
} from '../api/booking-api';
import { EmailRequestForm, emailRequestCheck } from './email-request-form';
import { TicketButtons, TicketDialogs, TicketNotices, useTicketActions } from './ticket-actions';
import { TicketList } from './ticket-list';

const checkRequest = emailRequestCheck(MyBookingsLinkInput);
// A chunk of its own: loaded only from a server that makes wallet passes.
const WalletLinks = lazy(() => import('./wallet-links'));

function TicketWallets({ ticket }: { ticket: Ticket }) {
  const wallets = useGetSettingsQuery().data?.wallets;
  return wallets?.apple || wallets?.google ? (
    <Suspense>
      <WalletLinks ticket={ticket} wallets={wallets} />
    </Suspense>
  ) : null;
}

// Reminders as notifications: a chunk of its own, loaded only where the server offers web push
// (its VAPID key in the settings).
const PushReminders = lazy(() => import('./push-reminders'));

function PushSwitch(props: { ownerId: string; bookingNumber: string }) {
  const publicKey = useGetSettingsQuery().data?.webPushPublicKey;
  if (!publicKey) return null;
  return (
    <Suspense fallback={null}>
      <PushReminders {...props} publicKey={publicKey} />
    </Suspense>
  );
}

/**
 * Route `/my-bookings`: a visitor signed in with the campus identity sees the bookings she made
 * signed in at once, without a mail; anyone else asks for the link to every booking of an address.
 */
export function MyBookingsRequest() {
  const signInOffered = (useGetSettingsQuery().data?.visitorSignIn?.length ?? 0) > 0;
  const signedIn = useGetSignedInBookingsQuery(undefined, { skip: !signInOffered });
  // Only the answer for now: a refused one after a sign-out shows no earlier visitor's list.
  if (signedIn.currentData) return <SignedInBookings tickets={signedIn.currentData.tickets} />;
  if (signedIn.isLoading) return <Loading />;
  return <MyBookingsLinkRequest />;
}

/** A visitor signed in with the campus identity: her bookings made signed in. */
function SignedInBookings({ tickets }: { tickets: Ticket[] }) {
  const { t } = useTranslation('booking');
  const [cancel, { isLoading }] = useCancelOwnerTicketsMutation();
  const cancelOwn = async (ids: string[]) => {
    // One request per booking: each cancels by its own owner id.
    for (const group of byBooking(tickets.filter((ticket) => ids.includes(ticket.id))))
      await cancel({ ownerId: group.ownerId, ids: group.tickets.map((x) => x.id) }).unwrap();
  };
  return (
    <Page title={t('my.list-title')}>
      <VisitorBookings tickets={tickets} cancel={cancelOwn} busy={isLoading} />
    </Page>
  );
}

/**
 * The request for the link to every booking of an address. The answer is the same for every
 * address (docs/product.md#my-bookings), so the page only says that a mail is on its way.
 */
function MyBookingsLinkRequest() {
  const { t } = useTranslation('booking');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [send, { error, isLoading }] = useRequestMyBookingsLinkMutation();
  const sent = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (sentTo) sent.current?.focus();
  }, [sentTo]);

  const request = async (body: Output<typeof MyBookingsLinkInput>) => {
    setSentTo(null);
    const answer = await send(body);
    if (!('error' in answer)) setSentTo(body.email);
  };

  return (
    <Page title={t('my.title')}>
      <p>{t('my.intro')}</p>
      <EmailRequestForm
        id="my-bookings-email"
        className="my-bookings__form"
        check={checkRequest}
        label={t('my.email')}
        submitLabel={t(isLoading ? 'my.sending' : 'my.send')}
        busy={isLoading}
        error={error}
        onSubmit={(body) => void request(body)}
      />
      {sentTo ? (
        <p className="notice notice--success" role="status" tabIndex={-1} ref={sent}>
          {t('my.sent', { email: sentTo })}
        </p>
      ) : null}
    </Page>
  );
}

/** The booked tickets of one booking (one owner id), in date order. */
interface BookingGroup {
  ownerId: string;
  bookingNumber: string;
  tickets: Ticket[];
}

function byBooking(tickets: readonly Ticket[]): BookingGroup[] {
  const groups = new Map<string, BookingGroup>();
  for (const ticket of tickets) {
    const ownerId = ticket.ownerId ?? '';
    const group = groups.get(ownerId) ?? {
      ownerId,
      bookingNumber: ticket.bookingNumber ?? '',
      tickets: [],
    };
    group.tickets.push(ticket);
    groups.set(ownerId, group);
  }
  return [...groups.values()];
}

/**
 * A visitor's bookings from today on, across rooms, with their numbers and calendar feeds; each
 * ticket, or a whole booking, can be cancelled (by the link's token or the booking's owner id).
 */
function VisitorBookings({
  tickets,
  cancel,
  busy,
}: {
  tickets: Ticket[];
  cancel: (ids: string[]) => Promise<unknown>;
  busy: boolean;
}) {
  const { t } = useTranslation('booking');
  const { baseApiUrl } = useConfig();
  const actions = useTicketActions(cancel, busy);
  return (
    <>
      <TicketNotices actions={actions} />
      {tickets.length === 0 ? <EmptyState>{t('my.none')}</EmptyState> : null}
      {byBooking(tickets).map((group) => {
        const cancelable = group.tickets.filter((ticket) => ticket.cancelable);
        return (
          <section key={group.ownerId} className="my-bookings__booking">
            <h2>{t('my.booking', { number: group.bookingNumber })}</h2>
            <TicketList
              tickets={group.tickets}
              renderExtra={(ticket) => (
                <>
                  <TicketButtons ticket={ticket} actions={actions} />
                  <TicketWallets ticket={ticket} />
                </>
              )}
            />
            {cancelable.length > 1 ? (
              <button
                type="button"
                className="button button--secondary"
                onClick={() => actions.start({ tickets: cancelable })}
              >
                {t('my.cancel-booking')}
                <span className="visually-hidden"> {group.bookingNumber}</span>
              </button>
            ) : null}
            <p>
              <a href={resolveApiUrl(baseApiUrl, `owners/${group.ownerId}/tickets.ics`)}>
                {t('my.calendar-feed')}
                <span className="visually-hidden"> {group.bookingNumber}</span>
              </a>
            </p>
            <PushSwitch ownerId={group.ownerId} bookingNumber={group.bookingNumber} />
          </section>
        );
      })}
      <TicketDialogs
        actions={actions}
        ownerId={(ticket) => ticket.ownerId ?? ''}
        title={({ tickets: chosen }) =>
          t(chosen.length === 1 ? 'confirmation.confirm' : 'my.confirm-booking')
        }
      />
    </>
  );
}

/**
 * Route `/my-bookings/:token` (the link of the my-bookings mail): every booking of the address
 * from today on. An expired or altered link offers a new one.
 */
export function MyBookingsPage() {
  const { t } = useTranslation('booking');
  const { token = '' } = useParams();
  const { data, error } = useGetMyBookingsQuery(token);
  const [cancel, { isLoading }] = useCancelMyBookingsTicketsMutation();

  const status = (error as { status?: unknown } | undefined)?.status;
  const body = () => {
    if (status === 404) {
      return (
        <div className="error-box" role="alert">
          <p className="error-box__message">{t('my.invalid')}</p>
          <p>
            <Link to="/my-bookings">{t('my.new-link')}</Link>
          </p>
        </div>
      );
    }
    if (error) return <ErrorBox error={error} />;
    if (!data) {
      return <Loading />;
    }
    return (
      <>
        <p>{t('my.valid-until', { time: formatDateTime(new Date(data.expiresAt)) })}</p>
        <VisitorBookings
          tickets={data.tickets}
          cancel={(ids) => cancel({ token, ids }).unwrap()}
          busy={isLoading}
        />
      </>
    );
  };

  return <Page title={t('my.list-title')}>{body()}</Page>;
}
