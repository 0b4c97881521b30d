import ICAL from 'ical.js';
import { tzlib_get_ical_block } from 'timezones-ical-library';

// RFC 5545: lines of at most 75 octets; ical.js counts the continuation's leading space on top.
ICAL.foldLength = 74;

export interface MailTicket {
  ticketId: string;
  roomName: string;
  date: string;
  startTime: string;
  endTime: string;
}

export interface MailInput {
  kind: 'confirmation' | 'cancellation';
  language: 'de' | 'en';
  bookingNumber: string;
  ownerId: string;
  salutation: string;
  title: string | null;
  firstName: string;
  lastName: string;
  tickets: MailTicket[];
  confirmationUrl: string;
  timeZone: string;
  /** When the mail is written (the sender's clock): the calendar entries' DTSTAMP. */
  writtenAt: Date;
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
  ics: string;
}

const texts = {
  de: {
    confirmationSubject: (n: string) => `Ihre Reservierung ${n}`,
    cancellationSubject: (n: string) => `Stornierung Ihrer Reservierung ${n}`,
    greeting: (name: string) => `Guten Tag ${name},`,
    salutations: { MR: 'Herr', MS: 'Frau', NONE: '' } as Record<string, string>,
    confirmed: 'vielen Dank für Ihre Reservierung. Sie haben folgende Termine gebucht:',
    cancelled: 'folgende Termine Ihrer Reservierung wurden storniert:',
    // The visitor's pages say "Buchungsnummer" too: one word for one number.
    number: 'Buchungsnummer',
    link: 'Ihre Reservierung ansehen oder stornieren:',
    closing: 'Mit freundlichen Grüßen\nIhre Bibliothek',
    time: (s: string, e: string) => `${s}–${e} Uhr`,
  },
  en: {
    confirmationSubject: (n: string) => `Your reservation ${n}`,
    cancellationSubject: (n: string) => `Cancellation of your reservation ${n}`,
    greeting: (name: string) => `Dear ${name},`,
    salutations: { MR: 'Mr', MS: 'Ms', NONE: '' } as Record<string, string>,
    confirmed: 'thank you for your reservation. You have booked:',
    cancelled: 'the following appointments of your reservation were cancelled:',
    number: 'Booking number',
    link: 'View or cancel your reservation:',
    closing: 'Kind regards\nYour library',
    time: (s: string, e: string) => `${s}–${e}`,
  },
};

const germanDate = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;

function escapeHtml(s: string): string {
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

/**
 * The VTIMEZONE of the library's zone (from the IANA data of timezones-ical-library): calendar
 * apps that do not know the zone by its name need its rules to place the entries.
 */
function vtimezone(timeZone: string): ICAL.Component | null {
  const block = tzlib_get_ical_block(timeZone);
  const text = Array.isArray(block) ? block[0] : undefined;
  if (!text || !text.startsWith('BEGIN:VTIMEZONE')) return null;
  return new ICAL.Component(ICAL.parse(text) as unknown[]);
}

/**
 * The .ics attachment: one event per ticket with a stable UID (the ticket id), so calendars
 * update the same entry; a cancellation sends METHOD:CANCEL for the same UIDs.
 */
export function calendarFile(input: MailInput): string {
  const cal = new ICAL.Component(['vcalendar', [], []]);
  cal.updatePropertyWithValue('prodid', '-//Reading rooms//Reservations//EN');
  cal.updatePropertyWithValue('version', '2.0');
  cal.updatePropertyWithValue('method', input.kind === 'confirmation' ? 'PUBLISH' : 'CANCEL');
  const zone = vtimezone(input.timeZone);
  if (zone) cal.addSubcomponent(zone);
  for (const t of input.tickets) {
    const ev = new ICAL.Component('vevent');
    ev.updatePropertyWithValue('uid', `${t.ticketId}@reading-rooms`);
    ev.updatePropertyWithValue('dtstamp', ICAL.Time.fromJSDate(input.writtenAt, true));
    for (const [name, time] of [
      ['dtstart', t.startTime],
      ['dtend', t.endTime],
    ] as const) {
      const value = ICAL.Time.fromData({
        year: Number(t.date.slice(0, 4)),
        month: Number(t.date.slice(5, 7)),
        day: Number(t.date.slice(8, 10)),
        hour: Number(time.slice(0, 2)),
        minute: Number(time.slice(3, 5)),
        second: 0,
        isDate: false,
      });
      const prop = new ICAL.Property(name);
      prop.setValue(value);
      prop.setParameter('tzid', input.timeZone);
      ev.addProperty(prop);
    }
    ev.updatePropertyWithValue('summary', t.roomName);
    ev.updatePropertyWithValue('location', t.roomName);
    ev.updatePropertyWithValue(
      'description',
      `${texts[input.language].number}: ${input.bookingNumber}`,
    );
    ev.updatePropertyWithValue('status', input.kind === 'confirmation' ? 'CONFIRMED' : 'CANCELLED');
    ev.updatePropertyWithValue('sequence', input.kind === 'confirmation' ? 0 : 1);
    cal.addSubcomponent(ev);
  }
  return cal.toString().replace(/\r?\n/g, '\r\n') + '\r\n';
}

/** The confirmation or cancellation mail, in the booking's language. */
export function composeMail(input: MailInput): ComposedMail {
  const t = texts[input.language];
  const name = greetedName(input);
  const lines = input.tickets.map(
    (x) => `- ${x.roomName}, ${germanDate(x.date)}, ${t.time(x.startTime, x.endTime)}`,
  );
  const subject =
    input.kind === 'confirmation'
      ? t.confirmationSubject(input.bookingNumber)
      : t.cancellationSubject(input.bookingNumber);
  const intro = input.kind === 'confirmation' ? t.confirmed : t.cancelled;
  const text = [
    t.greeting(name),
    '',
    intro,
    ...lines,
    '',
    `${t.number}: ${input.bookingNumber}`,
    '',
    t.link,
    input.confirmationUrl,
    '',
    t.closing,
    '',
  ].join('\n');
  const html = `<!doctype html><html lang="${input.language}"><body>
<p>${escapeHtml(t.greeting(name))}</p>
<p>${escapeHtml(intro)}</p>
<ul>${input.tickets.map((x) => `<li>${escapeHtml(x.roomName)}, ${germanDate(x.date)}, ${escapeHtml(t.time(x.startTime, x.endTime))}</li>`).join('')}</ul>
<p>${escapeHtml(t.number)}: <strong>${escapeHtml(input.bookingNumber)}</strong></p>
<p>${escapeHtml(t.link)} <a href="${escapeHtml(input.confirmationUrl)}">${escapeHtml(input.confirmationUrl)}</a></p>
<p>${escapeHtml(t.closing).replace('\n', '<br>')}</p>
</body></html>`;
  return { subject, text, html, ics: calendarFile(input) };
}
