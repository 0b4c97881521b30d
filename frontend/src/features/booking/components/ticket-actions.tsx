import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useTranslation } from '../../../i18n/i18n-context';
import type { Ticket } from '../api/booking-api';
import { MoveButton, MoveTicket } from './move-ticket';
import { TicketList, useTicketText } from './ticket-list';

/**
 * What a booked ticket offers on the pages of the mails' links (a booking's tickets, my
 * bookings): cancelling (after a confirmation) and moving. One home for both pages, which differ
 * only in the request that cancels and in the dialog's title.
 */

export interface Cancelling {
  tickets: Ticket[];
  /** The other tickets of the order, offered after a cancellation. */
  others?: boolean;
}

/**
 * Cancelling and moving tickets: the ones asked about (the confirmation dialog), the failure of
 * the last try, the count of the last cancellation, whose message takes the focus, and the
 * ticket being moved.
 */
export function useTicketActions(cancel: (ids: string[]) => Promise<unknown>, busy: boolean) {
  const [cancelling, setCancelling] = useState<Cancelling | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState<{ count: number; key: number } | null>(null);
  const [moving, setMoving] = useState<Ticket | null>(null);
  const [moved, setMoved] = useState(false);
  return {
    cancelling,
    failure,
    done,
    busy,
    moving,
    moved,
    start: setCancelling,
    move: setMoving,
    confirm: async (selected: Cancelling) => {
      setFailure(null);
      try {
        await cancel(selected.tickets.map((ticket) => ticket.id));
        setCancelling(null);
        setDone({ count: selected.tickets.length, key: Date.now() });
      } catch (cancelError) {
        setFailure(cancelError);
      }
    },
    dismiss: () => {
      setCancelling(null);
      setFailure(null);
    },
    stopMoving: () => setMoving(null),
    movedAway: () => {
      setMoving(null);
      setDone(null);
      setMoved(true);
    },
  };
}

export type TicketActions = ReturnType<typeof useTicketActions>;

/** A booked ticket's buttons: cancel and move while it can be cancelled, else why not. */
export function TicketButtons({ ticket, actions }: { ticket: Ticket; actions: TicketActions }) {
  const { t } = useTranslation('booking');
  const ticketText = useTicketText();
  return ticket.cancelable ? (
    <>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => actions.start({ tickets: [ticket] })}
      >
        {t('confirmation.cancel')}
        <span className="visually-hidden"> {ticketText(ticket)}</span>
      </button>{' '}
      <MoveButton ticket={ticket} onClick={() => actions.move(ticket)} />
    </>
  ) : (
    <p>{t('confirmation.not-cancelable')}</p>
  );
}

/** The outcome of the last move or cancellation; the cancellation's message takes the focus. */
export function TicketNotices({ actions }: { actions: TicketActions }) {
  const { t } = useTranslation('booking');
  const { moved, done } = actions;
  const doneMessage = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (done) doneMessage.current?.focus();
  }, [done]);

  return (
    <>
      {moved ? (
        <p className="notice notice--success" role="status">
          {t('move.done')}
        </p>
      ) : null}
      {done ? (
        <p className="notice notice--success" ref={doneMessage} tabIndex={-1}>
          {t('confirmation.cancelled-message', { count: done.count })}
        </p>
      ) : null}
    </>
  );
}

/** The move dialog and the cancellation's confirmation, while one is open. */
export function TicketDialogs({
  actions,
  ownerId,
  title,
}: {
  actions: TicketActions;
  ownerId: (ticket: Ticket) => string;
  title: (cancelling: Cancelling) => string;
}) {
  const { t } = useTranslation('booking');
  const { moving, cancelling } = actions;
  return (
    <>
      {moving ? (
        <MoveTicket
          ownerId={ownerId(moving)}
          ticket={moving}
          onCancel={actions.stopMoving}
          onMoved={actions.movedAway}
        />
      ) : null}
      {cancelling ? (
        <ConfirmDialog
          title={title(cancelling)}
          confirmLabel={t('confirmation.confirm-yes', { count: cancelling.tickets.length })}
          cancelLabel={t('confirmation.confirm-no')}
          busy={actions.busy}
          error={actions.failure}
          onCancel={actions.dismiss}
          onConfirm={() => actions.confirm(cancelling)}
        >
          <TicketList tickets={cancelling.tickets} />
        </ConfirmDialog>
      ) : null}
    </>
  );
}
