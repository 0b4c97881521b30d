import type { Language } from '@rr/contracts';
import { weekText, type SiteHours } from '@rr/contracts/site-hours';
import { entryRevision, writeCalendar, type EntryHistory } from '@rr/platform';

export interface MailTicket {
  ticketId: string;
  roomName: string;
  date: string;
  startTime: string;
  endTime: string;
  /** The seat of the room's plan the ticket holds (docs/product.md#seat-plans); absent: none. */
  seatLabel?: string | null;
  /**
   * The ticket's check-in reference when its room uses check-in; the mail then shows
   * its QR code, an inline image the sender attaches under checkInImageCid(ticketId).
   */
  checkInCode?: string | null;
  /**
   * The ticket's entry in the reader's calendar (calendar-entries.ts): a moved ticket's is the
   * entry of the ticket it replaced, with what the entry went through since (its revision).
   * Absent: the ticket's own, revision 0.
   */
  calendarEntry?: { id: string } & EntryHistory;
}

/**
 * 'reminder' before the slot (see reminders.ts), 'release' after a no-show release, 'unconfirmed'
 * after the release of tickets not confirmed in time (docs/product.md#confirmed-addresses),
 * 'seat-change' after the visitor changed a booked ticket's seat, 'seat-moved' after the library
 * did (docs/product.md#seat-plans).
 */
export type MailKind =
  | 'confirmation'
  | 'cancellation'
  | 'reminder'
  | 'release'
  | 'move'
  | 'unconfirmed'
  | 'seat-change'
  | 'seat-moved';

export interface MailInput {
  kind: MailKind;
  language: Language;
  bookingNumber: string;
  ownerId: string;
  salutation: string;
  title: string | null;
  firstName: string;
  lastName: string;
  tickets: MailTicket[];
  confirmationUrl: string;
  /** The booking's calendar feed (GET /api/owners/{ownerId}/tickets.ics), named by confirmations. */
  calendarFeedUrl?: string;
  timeZone: string;
  /** When the mail is written (the sender's clock): the calendar entries' DTSTAMP. */
  writtenAt: Date;
  /** Who signs the mail (LIBRARY_NAME, LIBRARY_CONTACT_EMAIL); absent: the plain closing. */
  library?: MailLibrary | undefined;
  /** Staff's reason of a cancellation (e.g. a closure's) or a seat move, which the mail states. */
  reason?: string | null | undefined;
  /**
   * A confirmation of tickets awaiting the confirmation of the address: the earliest deadline, in
   * the library's time zone, and the link that confirms (the owner page with this mail's token,
   * the secret only the mail carries); the mail asks to confirm by then through that link.
   */
  confirmBy?: { date: string; time: string; url: string } | null | undefined;
}

/**
 * The library a mail comes from (or the site of its rooms, docs/product.md#sites): its name, the
 * address readers may write to, and a site's postal address, phone and own closing.
 */
export interface MailLibrary {
  name?: string | undefined;
  contactEmail?: string | undefined;
  address?: string | undefined;
  phone?: string | undefined;
  /** The site's own closing (lines): it takes the place of the regards and the name. */
  signature?: string | undefined;
  /** A site's opening hours: the closing names its week. */
  hours?: SiteHours | undefined;
  /** A site's mail: its subject names the site ("Ihre Buchung R-7K3QX2 – Fachbibliothek Jura"). */
  site?: boolean | undefined;
}

/** A subject, with the site's name when the mail is a site's. */
export const subjectOf = (subject: string, library: MailLibrary | undefined): string =>
  library?.site && library.name ? `${subject} – ${library.name}` : subject;

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
  ics: string;
}

/** The mails' texts per language (the waitlist offer's mail takes its closing and times from here). */
export const texts = {
  de: {
    confirmationSubject: (n: string) => `Ihre Buchung ${n}`,
    cancellationSubject: (n: string) => `Stornierung in Ihrer Buchung ${n}`,
    reminderSubject: (n: string) => `Erinnerung an Ihre Buchung ${n}`,
    releaseSubject: (n: string) => `Ihr Platz wurde freigegeben (Buchung ${n})`,
    moveSubject: (n: string) => `Änderung Ihrer Buchung ${n}`,
    unconfirmedSubject: (n: string) => `Ihre Buchung ${n} wurde nicht bestätigt`,
    unconfirmed:
      'Sie haben Ihre Buchung nicht rechtzeitig bestätigt. Ihre Plätze für folgende Termine wurden daher für andere freigegeben:',
    confirmBy: (at: string) =>
      `Bitte bestätigen Sie Ihre Buchung bis ${at}: Öffnen Sie den folgenden Link und wählen Sie „Buchung bestätigen“. Ohne Bestätigung werden Ihre Plätze dann wieder freigegeben.`,
    at: (d: string, t: string) => `${germanDate(d)}, ${t} Uhr`,
    moved: 'Ihr Termin wurde wie gewünscht verlegt. Ihr neuer Termin:',
    seatSubject: (n: string) => `Neuer Platz in Ihrer Buchung ${n}`,
    seatChanged: 'Ihr Platz wurde wie gewünscht geändert. Ihr Termin mit dem neuen Platz:',
    seatMoved: 'Die Bibliothek hat Ihnen einen neuen Platz gegeben.',
    seatMovedByLibrary: (reason: string) =>
      `Die Bibliothek hat Ihnen einen neuen Platz gegeben: ${reason}`,
    released:
      'Sie wurden bis zur Freigabezeit nicht eingecheckt. Ihr Platz für folgenden Termin wurde daher für andere freigegeben:',
    greeting: (name: string) => `Guten Tag ${name},`,
    salutations: { MR: 'Herr', MS: 'Frau', NONE: '' } as Record<string, string>,
    confirmed: 'vielen Dank für Ihre Buchung. Sie haben folgende Termine gebucht:',
    cancelled: 'folgende Termine Ihrer Buchung wurden storniert:',
    cancelledByLibrary: (reason: string) => `Die Bibliothek hat Ihre Buchung storniert: ${reason}`,
    concerned: 'Betroffen sind folgende Termine:',
    reminded: 'wir erinnern Sie an Ihre reservierten Termine:',
    checkIn:
      'Zum Check-in zeigen Sie bitte den QR-Code Ihres Termins vor (in dieser Mail) oder nennen Ihre Buchungsnummer.',
    qrAlt: 'QR-Code für den Check-in',
    cancelLink:
      'Sie können nicht kommen? Bitte stornieren Sie, damit andere den Platz nutzen können:',
    // The visitor's pages say "Buchungsnummer" too: one word for one number.
    number: 'Buchungsnummer',
    seat: (label: string) => `Platz ${label}`,
    link: 'Ihre Buchung ansehen oder stornieren:',
    feed: 'Ihre Termine als Kalender-Feed zum Abonnieren:',
    regards: 'Mit freundlichen Grüßen',
    library: 'Ihre Bibliothek',
    contact: (email: string) => `Kontakt: ${email}`,
    phone: (phone: string) => `Telefon: ${phone}`,
    hours: (week: string) => `Öffnungszeiten: ${week}`,
    days: { mon: 'Mo', tue: 'Di', wed: 'Mi', thu: 'Do', fri: 'Fr', sat: 'Sa', sun: 'So' },
    time: (s: string, e: string) => `${s}–${e} Uhr`,
  },
  en: {
    confirmationSubject: (n: string) => `Your booking ${n}`,
    cancellationSubject: (n: string) => `Cancellation in your booking ${n}`,
    reminderSubject: (n: string) => `Reminder of your booking ${n}`,
    releaseSubject: (n: string) => `Your seat was released (booking ${n})`,
    moveSubject: (n: string) => `Change of your booking ${n}`,
    unconfirmedSubject: (n: string) => `Your booking ${n} was not confirmed`,
    unconfirmed:
      'You did not confirm your booking in time, so your seats for the following appointments were released for others:',
    confirmBy: (at: string) =>
      `Please confirm your booking by ${at}: open the following link and choose "Confirm booking". Without confirmation, your seats will be released then.`,
    at: (d: string, t: string) => `${germanDate(d)}, ${t}`,
    moved: 'Your appointment was moved as you asked. Your new appointment:',
    seatSubject: (n: string) => `New seat in your booking ${n}`,
    seatChanged: 'Your seat was changed as you asked. Your appointment with the new seat:',
    seatMoved: 'The library has given you a new seat.',
    seatMovedByLibrary: (reason: string) => `The library has given you a new seat: ${reason}`,
    released:
      'You were not checked in by the release time, so your seat for the following appointment was released for others:',
    greeting: (name: string) => `Dear ${name},`,
    salutations: { MR: 'Mr', MS: 'Ms', NONE: '' } as Record<string, string>,
    confirmed: 'thank you for your booking. You have booked:',
    cancelled: 'the following appointments of your booking were cancelled:',
    cancelledByLibrary: (reason: string) => `The library has cancelled your booking: ${reason}`,
    concerned: 'The following appointments are concerned:',
    reminded: 'this is a reminder of your reserved appointments:',
    checkIn:
      'To check in, please show the QR code of your appointment (in this mail) or give your booking number.',
    qrAlt: 'QR code for check-in',
    cancelLink: 'Cannot come? Please cancel, so that others can use the seat:',
    number: 'Booking number',
    seat: (label: string) => `Seat ${label}`,
    link: 'View or cancel your booking:',
    feed: 'Your appointments as a calendar feed to subscribe to:',
    regards: 'Kind regards',
    library: 'Your library',
    contact: (email: string) => `Contact: ${email}`,
    phone: (phone: string) => `Phone: ${phone}`,
    hours: (week: string) => `Opening hours: ${week}`,
    days: { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' },
    time: (s: string, e: string) => `${s}–${e}`,
  },
};

/**
 * A mail's signature: the regards, the library's name (LIBRARY_NAME; without it "Ihre
 * Bibliothek") and, when configured, the address to write to (LIBRARY_CONTACT_EMAIL). A site's
 * mail closes with its own closing when staff wrote one, then its postal address, its week's
 * opening hours, phone and contact address.
 */
export function closingLines(
  language: keyof typeof texts,
  library: MailLibrary | undefined,
): string[] {
  const t = texts[language];
  const closing = library?.signature
    ? library.signature.split('\n')
    : [t.regards, library?.name || t.library];
  const address = library?.address ? library.address.split('\n') : [];
  const week = library?.hours ? weekText(library.hours.weekly, t.days) : '';
  const hours = week ? [t.hours(week)] : [];
  const phone = library?.phone ? [t.phone(library.phone)] : [];
  const contact = library?.contactEmail ? [t.contact(library.contactEmail)] : [];
  return [...closing, ...address, ...hours, ...phone, ...contact];
}

/** The signature as an HTML paragraph. */
export function closingHtml(language: keyof typeof texts, library: MailLibrary | undefined) {
  return `<p>${closingLines(language, library).map(escapeHtml).join('<br>')}</p>`;
}

export const germanDate = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;

/** How every mail names a slot: room, date and times (and the seat), in the mail's language. */
export function slotLine(
  language: keyof typeof texts,
  x: {
    roomName: string;
    date: string;
    startTime: string;
    endTime: string;
    seatLabel?: string | null;
  },
): string {
  const seat = x.seatLabel ? `, ${texts[language].seat(x.seatLabel)}` : '';
  return `${x.roomName}, ${germanDate(x.date)}, ${texts[language].time(x.startTime, x.endTime)}${seat}`;
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * The name a mail greets: "Frau Dr. Maria Muster", "Herr Max Muster", "Ms Maria Muster" — in
 * English a title takes the place of Mr or Ms ("Dr Maria Muster" reads as "Dr. …" is written).
 */
export function greetedName(
  input: Pick<MailInput, 'language' | 'salutation' | 'title' | 'firstName' | 'lastName'>,
): string {
  const salutation = texts[input.language].salutations[input.salutation] ?? '';
  const form = input.language === 'en' && input.title ? '' : salutation;
  return [form, input.title, input.firstName, input.lastName].filter(Boolean).join(' ');
}

/** The content id of a ticket's inline QR code image (the HTML part shows it as cid:…). */
export function checkInImageCid(ticketId: string): string {
  return `check-in-${ticketId}@reading-rooms`;
}

/**
 * The .ics attachment: one event per ticket with a stable UID (the ticket id; a moved ticket's is
 * the one of the ticket it replaced, with a higher SEQUENCE), so calendars update the same entry;
 * a cancellation sends METHOD:CANCEL for the same UIDs (a reminder publishes the entries again,
 * unchanged). Written as every calendar file is (writeCalendar).
 */
export function calendarFile(input: MailInput): string {
  const cancelled = input.kind === 'cancellation';
  return (
    writeCalendar({
      timeZone: input.timeZone,
      stamp: input.writtenAt,
      method: cancelled ? 'CANCEL' : 'PUBLISH',
      entries: input.tickets.map((t) => ({
        id: t.calendarEntry?.id ?? t.ticketId,
        date: t.date,
        startTime: t.startTime,
        endTime: t.endTime,
        summary: t.roomName,
        location: t.seatLabel
          ? `${t.roomName}, ${texts[input.language].seat(t.seatLabel)}`
          : t.roomName,
        description: `${texts[input.language].number}: ${input.bookingNumber}`,
        status: cancelled ? 'CANCELLED' : 'CONFIRMED',
        sequence: entryRevision({
          moves: t.calendarEntry?.moves ?? 0,
          seatChanges: t.calendarEntry?.seatChanges ?? 0,
          cancelled,
        }),
      })),
    }) + '\r\n'
  );
}

/** What each kind of mail says before the tickets, and before the link. */
function wording(input: MailInput) {
  const t = texts[input.language];
  const n = input.bookingNumber;
  switch (input.kind) {
    case 'confirmation':
      return { subject: t.confirmationSubject(n), intro: t.confirmed, link: t.link };
    case 'cancellation':
      // Staff's cancellation with a reason (a closure's) says who cancelled and why.
      return input.reason
        ? {
            subject: t.cancellationSubject(n),
            intro: `${t.cancelledByLibrary(input.reason)}\n${t.concerned}`,
            link: t.link,
          }
        : { subject: t.cancellationSubject(n), intro: t.cancelled, link: t.link };
    case 'reminder':
      return { subject: t.reminderSubject(n), intro: t.reminded, link: t.cancelLink };
    case 'release':
      return { subject: t.releaseSubject(n), intro: t.released, link: t.link };
    case 'move':
      return { subject: t.moveSubject(n), intro: t.moved, link: t.link };
    case 'unconfirmed':
      return { subject: t.unconfirmedSubject(n), intro: t.unconfirmed, link: t.link };
    case 'seat-change':
      return { subject: t.seatSubject(n), intro: t.seatChanged, link: t.link };
    case 'seat-moved':
      return {
        subject: t.seatSubject(n),
        intro: `${input.reason ? t.seatMovedByLibrary(input.reason) : t.seatMoved}\n${t.concerned}`,
        link: t.link,
      };
  }
}

/** A ticket's QR code image in the HTML part, when it has a check-in reference. */
function qrImage(x: MailTicket, alt: string): string {
  return x.checkInCode
    ? `<br><img src="cid:${escapeHtml(checkInImageCid(x.ticketId))}" alt="${escapeHtml(alt)}" width="180" height="180">`
    : '';
}

/**
 * The confirmation, cancellation, reminder, no-show release, unconfirmed release or seat change
 * mail, in the booking's language.
 */
export function composeMail(input: MailInput): ComposedMail {
  const t = texts[input.language];
  const name = greetedName(input);
  const lines = input.tickets.map((x) => `- ${slotLine(input.language, x)}`);
  const { intro, link, ...worded } = wording(input);
  const subject = subjectOf(worded.subject, input.library);
  const checkIn = input.tickets.some((x) => x.checkInCode) ? [t.checkIn, ''] : [];
  const feed = input.kind === 'confirmation' ? input.calendarFeedUrl : undefined;
  const confirm =
    input.kind === 'confirmation' && input.confirmBy
      ? {
          text: t.confirmBy(t.at(input.confirmBy.date, input.confirmBy.time)),
          url: input.confirmBy.url,
        }
      : null;
  const text = [
    t.greeting(name),
    '',
    intro,
    ...lines,
    '',
    `${t.number}: ${input.bookingNumber}`,
    '',
    ...(confirm ? [confirm.text, confirm.url, ''] : []),
    ...checkIn,
    link,
    input.confirmationUrl,
    '',
    ...(feed ? [t.feed, feed, ''] : []),
    ...closingLines(input.language, input.library),
    '',
  ].join('\n');
  const html = `<!doctype html><html lang="${input.language}"><body>
<p>${escapeHtml(t.greeting(name))}</p>
<p>${escapeHtml(intro).replace('\n', '<br>')}</p>
<ul>${input.tickets.map((x) => `<li>${escapeHtml(slotLine(input.language, x))}${qrImage(x, t.qrAlt)}</li>`).join('')}</ul>
<p>${escapeHtml(t.number)}: <strong>${escapeHtml(input.bookingNumber)}</strong></p>
${confirm ? `<p><strong>${escapeHtml(confirm.text)}</strong> <a href="${escapeHtml(confirm.url)}">${escapeHtml(confirm.url)}</a></p>\n` : ''}${checkIn.length ? `<p>${escapeHtml(t.checkIn)}</p>\n` : ''}<p>${escapeHtml(link)} <a href="${escapeHtml(input.confirmationUrl)}">${escapeHtml(input.confirmationUrl)}</a></p>
${feed ? `<p>${escapeHtml(t.feed)} <a href="${escapeHtml(feed)}">${escapeHtml(feed)}</a></p>\n` : ''}${closingHtml(input.language, input.library)}
</body></html>`;
  return { subject, text, html, ics: calendarFile(input) };
}
