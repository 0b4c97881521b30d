import { mailLibraryOf, visitorBaseOf } from './site-of-mail.ts';
import type { Language } from '@rr/contracts';
import {
  handlersFor,
  ignore,
  transactionStream,
  type CartTicket,
  type EventStore,
} from '@rr/events';
import {
  issueConfirmationToken,
  localDateTime,
  qrPng,
  type CheckInCodes,
  type Clock,
  type Pool,
  type ClaimedMail,
} from '@rr/platform';
import {
  checkInImageCid,
  composeMail,
  type MailInput,
  type MailKind,
  type MailLibrary,
} from './compose.ts';
import { calendarEntries } from './calendar-entries.ts';
import { ticketsStillToRemind } from './reminders.ts';
import { ticketStates, withSeatsNow } from './ticket-states.ts';
import { bookingLink, confirmationLink } from './visitor-links.ts';

/*
 * The mails of a booking (confirmation, move, seat change, cancellation, release, unconfirmed,
 * reminder): their data loaded at send time from the write side, the sender's (sender.ts) other
 * half.
 */

/** A mail to send: its texts (the calendar file where it has one) and what its errors must not quote. */
interface Composed {
  subject: string;
  text: string;
  html: string;
  ics?: string;
}
/** An inline image of a mail: a check-in QR code the HTML part shows by its cid. */
interface InlineImage {
  filename: string;
  content: Buffer;
  contentType: string;
  cid: string;
  contentDisposition: 'inline';
}
export interface Loaded {
  to: string;
  composed: Composed;
  names: (string | null)[];
  /** The QR codes of check-in (none for mails without them). */
  images?: InlineImage[];
}

export type OutboxRow = ClaimedMail<
  MailKind | 'waitlist-offer' | 'waitlist-joined' | 'waitlist-closed' | 'my-bookings-link'
>;

/** What a booking's mail is loaded from. */
export interface BookingMailDeps {
  pool: Pool;
  store: EventStore;
  clock: Clock;
  timeZone: string;
  /** The check-in references of tickets, for the QR codes in mails. */
  checkInCodes: CheckInCodes;
  /** Who signs the mails (LIBRARY_NAME, LIBRARY_CONTACT_EMAIL). */
  library?: MailLibrary;
}

/** The tickets a cart's stream added: what a booking's mail names. */
const cartTickets = handlersFor(transactionStream).with<Map<string, CartTicket>>({
  TransactionStarted: ignore,
  TicketAddedToTransaction: (e, tickets) => void tickets.set(e.data.ticketId, e.data),
  TicketRemovedFromTransaction: ignore,
  TransactionTouched: ignore,
  TransactionBooked: ignore,
  TransactionRemoved: ignore,
  TransactionExpired: ignore,
  PersonalDataErased: ignore,
  OwnerDataChanged: ignore,
});

/** The tickets of a cart's stream by id. */
export function cartTicketsOf(
  events: Parameters<typeof cartTickets.handle>[0][],
): Map<string, CartTicket> {
  const tickets = new Map<string, CartTicket>();
  for (const e of events) cartTickets.handle(e, tickets);
  return tickets;
}

/** The mail's data from the write side (bookings, personal data, the cart stream): never stale. */
export async function loadBookingMail(
  o: BookingMailDeps,
  row: OutboxRow,
  baseUrl: string,
): Promise<Loaded | null> {
  if (
    row.kind === 'waitlist-offer' ||
    row.kind === 'waitlist-joined' ||
    row.kind === 'waitlist-closed' ||
    row.kind === 'my-bookings-link'
  )
    return null;
  const b = await o.pool.query<{
    transaction_id: string;
    booking_number: string;
    language: Language;
    salutation: string;
    title: string | null;
    first_name: string;
    last_name: string;
    email: string;
  }>(
    `SELECT b.transaction_id, b.booking_number, b.language, p.salutation, p.title, p.first_name, p.last_name, p.email
       FROM bookings b JOIN personal_data p ON p.owner_id = b.owner_id WHERE b.owner_id = $1 AND p.email IS NOT NULL`,
    [row.owner_id],
  );
  const booking = b.rows[0];
  if (!booking) return null; // personal data erased meanwhile: nobody to write to
  const { events } = await o.store.readStream(`transaction-${booking.transaction_id}`);
  const tickets = cartTicketsOf(events);
  // The tickets' states beside the log, read once: their seats now, seat changes and deadlines.
  const states = await ticketStates(o.pool, [...tickets.keys()]);
  const entryOf = await calendarEntries(o.pool, events, (id) => states.get(id)?.seatChanges ?? 0);
  let chosen = row.ticket_ids.map((id) => tickets.get(id)).filter((t): t is CartTicket => !!t);
  // A reminder names only what is still booked, decided now on the write side.
  const checkIns = new Set<string>();
  if (row.kind === 'reminder') {
    const still = await ticketsStillToRemind(o, chosen);
    if (!still.length) return null; // nothing left to remind of: skipped
    chosen = still.map((x) => x.ticket);
    for (const x of still) if (x.checkIn) checkIns.add(x.ticket.ticketId);
  }
  // Each ticket's seat as it is now: staff or its visitor may have moved it since the cart took it.
  chosen = withSeatsNow(chosen, states);
  // The rooms' names in the booking's language (docs/product.md#translations).
  const rooms = await o.pool.query<{ id: string; name: string; check_in: boolean }>(
    `SELECT id, CASE WHEN $2 = 'en' THEN coalesce(name_en, name) ELSE name END AS name,
            services->>'checkInMinutesBefore' IS NOT NULL AS check_in
       FROM rm_rooms WHERE id = ANY($1::uuid[])`,
    [chosen.map((t) => t.roomId), booking.language],
  );
  const names = new Map(rooms.rows.map((x) => [x.id, x.name]));
  // A confirmation shows the QR code of each ticket of a room with check-in, and so does every
  // mail that names a ticket's new slot or seat.
  if (
    row.kind === 'confirmation' ||
    row.kind === 'move' ||
    row.kind === 'seat-change' ||
    row.kind === 'seat-moved'
  ) {
    const checkInRooms = new Set(rooms.rows.filter((x) => x.check_in).map((x) => x.id));
    for (const t of chosen) if (checkInRooms.has(t.roomId)) checkIns.add(t.ticketId);
  }
  // The links lead below the site's own address when the booking's rooms are all of one site.
  const links = await visitorBaseOf(
    o.pool,
    [...tickets.values(), ...chosen].map((t) => t.roomId),
    baseUrl,
  );
  // Confirmed addresses: the earliest deadline of the tickets still awaiting confirmation
  // (written with the booking beside the log, read with the states above; gone once confirmed
  // or released), and the link that confirms: a token of this mail's own, the secret only the
  // mail carries (its hash is stored before the send, so the link works once the mail is read;
  // a mail sent again gets another, and both work).
  let confirmBy: MailInput['confirmBy'] = null;
  if (row.kind === 'confirmation') {
    const at = chosen
      .map((t) => states.get(t.ticketId)?.confirmBy ?? null)
      .reduce<Date | null>((min, d) => (d && (!min || d < min) ? d : min), null);
    if (at) {
      const token = await issueConfirmationToken(o.pool, row.owner_id, o.clock.now());
      confirmBy = {
        ...localDateTime(at, o.timeZone),
        url: confirmationLink(links, row.owner_id, token, booking.language),
      };
    }
  }
  const mail: MailInput = {
    kind: row.kind,
    language: booking.language,
    bookingNumber: booking.booking_number,
    ownerId: row.owner_id,
    salutation: booking.salutation,
    title: booking.title,
    firstName: booking.first_name,
    lastName: booking.last_name,
    tickets: chosen
      .sort((x, y) => (x.date + x.startTime < y.date + y.startTime ? -1 : 1))
      .map((t) => ({
        ticketId: t.ticketId,
        roomName: names.get(t.roomId) ?? '',
        date: t.date,
        startTime: t.startTime,
        endTime: t.endTime,
        seatLabel: t.seat?.label ?? null,
        checkInCode: checkIns.has(t.ticketId) ? o.checkInCodes.codeOf(t.ticketId) : null,
        calendarEntry: entryOf(t.ticketId),
      })),
    confirmationUrl: bookingLink(links, row.owner_id, booking.language),
    calendarFeedUrl: `${baseUrl}api/owners/${row.owner_id}/tickets.ics`,
    timeZone: o.timeZone,
    writtenAt: o.clock.now(),
    library: await mailLibraryOf(
      o.pool,
      chosen.map((t) => t.roomId),
      booking.language,
      o.library,
    ),
    reason:
      row.kind !== 'cancellation' && row.kind !== 'seat-moved'
        ? null
        : booking.language === 'en'
          ? (row.reason_en ?? row.reason)
          : row.reason,
    confirmBy,
  };
  // The QR codes of check-in, inline images the HTML part shows by their cid.
  const images = await Promise.all(
    mail.tickets.flatMap((t, i) =>
      t.checkInCode
        ? [
            qrPng(t.checkInCode).then((content) => ({
              filename: `check-in-${i + 1}.png`,
              content,
              contentType: 'image/png',
              cid: checkInImageCid(t.ticketId),
              contentDisposition: 'inline' as const,
            })),
          ]
        : [],
    ),
  );
  return {
    to: booking.email,
    composed: composeMail(mail),
    names: [mail.firstName, mail.lastName, mail.title],
    images,
  };
}
