import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { composeMail, type MailInput } from './compose.ts';

const input: MailInput = {
  kind: 'confirmation',
  language: 'de',
  bookingNumber: 'R-ABCDEF',
  ownerId: 'a'.repeat(32),
  salutation: 'MS',
  title: null,
  firstName: '<img src=x onerror=alert(1)>',
  lastName: 'O"Brien & Co',
  tickets: [
    {
      ticketId: '00000000-0000-4000-8000-000000000001',
      roomName: '<b>Saal</b>',
      date: '2026-12-01',
      startTime: '09:00',
      endTime: '10:00',
    },
  ],
  confirmationUrl: 'https://library.example/reservation-confirmation/aaaa',
  timeZone: 'Europe/Vienna',
  writtenAt: new Date('2027-03-04T05:06:07Z'),
};

describe('mail composition', () => {
  it('renders user text inert in the HTML part', () => {
    const mail = composeMail(input);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>Saal');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('O&quot;Brien &amp; Co');
    expect(mail.text).toContain('<b>Saal</b>, 01.12.2026, 09:00–10:00 Uhr');
  });

  it('folds long lines of the calendar file and uses CRLF', () => {
    const ics = composeMail({
      ...input,
      tickets: [{ ...input.tickets[0]!, roomName: 'Lesesaal '.repeat(20) }],
    }).ics;
    expect(ics).toContain('\r\n');
    expect(ics.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(ics).toContain('UID:00000000-0000-4000-8000-000000000001@reading-rooms');
    // The stamp is the sender's clock, not the machine's.
    expect(ics).toContain('DTSTAMP:20270304T050607Z\r\n');
  });
});

describe('a ticket with a seat', () => {
  it('names the seat in the mail and in the calendar entry, in the mail’s language', () => {
    const seated = { ...input.tickets[0]!, seatLabel: 'A12' };
    const de = composeMail({ ...input, tickets: [seated] });
    expect(de.text).toContain('<b>Saal</b>, 01.12.2026, 09:00–10:00 Uhr, Platz A12');
    const en = composeMail({ ...input, language: 'en', tickets: [seated] });
    expect(en.text).toContain('Seat A12');
    const entry = new ICAL.Component(ICAL.parse(en.ics) as unknown[]).getFirstSubcomponent(
      'vevent',
    );
    expect(entry?.getFirstPropertyValue('location')).toBe('<b>Saal</b>, Seat A12');
  });
});

describe("the calendar file's texts", () => {
  it('keeps a room name stored with line breaks one text of one event', () => {
    const roomName = 'Red\r\nEND:VEVENT\r\nBEGIN:VEVENT\rX-INJECTED:yes\u0007';
    const ics = composeMail({ ...input, tickets: [{ ...input.tickets[0]!, roomName }] }).ics;
    expect(ics).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    const lines = ics.split('\r\n');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('X-INJECTED'))).toBe(false);
    const cal = new ICAL.Component(ICAL.parse(ics) as unknown[]);
    const ev = cal.getFirstSubcomponent('vevent')!;
    expect(ev.getFirstPropertyValue('summary')).toBe(
      'Red\nEND:VEVENT\nBEGIN:VEVENT\nX-INJECTED:yes',
    );
    expect(ev.getFirstPropertyValue('location')).toBe(ev.getFirstPropertyValue('summary'));
  });
});

describe('the greeting and the number', () => {
  const person = { ...input, firstName: 'Maria', lastName: 'Musterfrau' };
  it('greets with the salutation and the title, in the way of each language', () => {
    const greet = (over: Partial<MailInput>) =>
      composeMail({ ...person, ...over }).text.split('\n')[0];
    expect(greet({ title: 'Dr.' })).toBe('Guten Tag Frau Dr. Maria Musterfrau,');
    expect(greet({ salutation: 'MR', firstName: 'Max' })).toBe('Guten Tag Herr Max Musterfrau,');
    expect(greet({ salutation: 'NONE' })).toBe('Guten Tag Maria Musterfrau,');
    expect(greet({ language: 'en' })).toBe('Dear Ms Maria Musterfrau,');
    expect(greet({ language: 'en', title: 'Dr' })).toBe('Dear Dr Maria Musterfrau,');
  });

  it('names the booking number as the visitor pages do', () => {
    expect(composeMail(person).text).toContain('Buchungsnummer: R-ABCDEF');
    expect(composeMail({ ...person, language: 'en' }).text).toContain('Booking number: R-ABCDEF');
  });
});

describe('the calendar file', () => {
  it('carries the VTIMEZONE of the library, so every calendar app places the entry right', () => {
    for (const [date, utcHour] of [
      ['2026-12-01', 8], // CET: 09:00 is 08:00 UTC
      ['2027-07-01', 7], // CEST: 09:00 is 07:00 UTC
    ] as const) {
      const ics = composeMail({ ...input, tickets: [{ ...input.tickets[0]!, date }] }).ics;
      const cal = new ICAL.Component(ICAL.parse(ics) as unknown[]);
      const zone = cal.getFirstSubcomponent('vtimezone');
      expect(zone?.getFirstPropertyValue('tzid')).toBe('Europe/Vienna');
      // Read as a calendar app without the zone's name would: only with the file's own rules.
      const timezone = new ICAL.Timezone(zone!);
      const start = cal.getFirstSubcomponent('vevent')!.getFirstProperty('dtstart')!;
      expect(start.getParameter('tzid')).toBe('Europe/Vienna');
      const local = start.getFirstValue() as ICAL.Time;
      local.zone = timezone;
      expect(local.toJSDate().toISOString()).toBe(`${date}T0${utcHour}:00:00.000Z`);
    }
  });
});

describe("a moved ticket's calendar entry", () => {
  const event = (kind: MailInput['kind']) => {
    const moved = {
      ...input.tickets[0]!,
      ticketId: '00000000-0000-4000-8000-000000000003',
      // Moved once, and its seat changed once on the way: two revisions.
      calendarEntry: { id: '00000000-0000-4000-8000-000000000001', moves: 1, seatChanges: 1 },
    };
    const ics = composeMail({ ...input, kind, tickets: [moved] }).ics;
    const vevent = new ICAL.Component(ICAL.parse(ics) as unknown[]).getAllSubcomponents('vevent');
    expect(vevent).toHaveLength(1);
    return {
      uid: vevent[0]!.getFirstPropertyValue('uid'),
      sequence: vevent[0]!.getFirstPropertyValue('sequence'),
    };
  };

  it("updates the entry of the ticket it replaced: that UID, the move's revision", () => {
    const uid = '00000000-0000-4000-8000-000000000001@reading-rooms';
    expect(event('move')).toEqual({ uid, sequence: 2 });
    expect(event('reminder')).toEqual({ uid, sequence: 2 });
    // Its cancellation is the next revision of the same entry.
    expect(event('cancellation')).toEqual({ uid, sequence: 3 });
  });
});

describe('the calendar feed', () => {
  const feed = 'https://library.example/api/owners/aaaa/tickets.ics';
  it('is named by the confirmation, in both parts, and by no other mail', () => {
    const mail = composeMail({ ...input, calendarFeedUrl: feed });
    expect(mail.text).toContain(`Ihre Termine als Kalender-Feed zum Abonnieren:\n${feed}\n`);
    expect(mail.html).toContain(`<a href="${feed}">${feed}</a>`);
    const english = composeMail({ ...input, language: 'en', calendarFeedUrl: feed });
    expect(english.text).toContain(
      `Your appointments as a calendar feed to subscribe to:\n${feed}`,
    );
    for (const kind of ['cancellation', 'reminder', 'release'] as const)
      expect(composeMail({ ...input, kind, calendarFeedUrl: feed }).text).not.toContain(feed);
  });
});

describe('the cancellation with a reason and the library that signs', () => {
  const cancellation: MailInput = { ...input, kind: 'cancellation', reason: 'Wasserschaden' };

  it("states staff's reason in the booking's language", () => {
    expect(composeMail(cancellation).text).toContain(
      'Die Bibliothek hat Ihre Buchung storniert: Wasserschaden',
    );
    expect(composeMail({ ...cancellation, language: 'en' }).text).toContain(
      'The library has cancelled your booking: Wasserschaden',
    );
    expect(composeMail({ ...cancellation, reason: '<b>x</b>' }).html).toContain('&lt;b&gt;x');
  });

  it('says nothing of a reason when the visitor cancelled', () => {
    const text = composeMail({ ...input, kind: 'cancellation' }).text;
    expect(text).not.toContain('Die Bibliothek hat');
    expect(text).toContain('folgende Termine Ihrer Buchung wurden storniert:');
  });

  it("signs with the library's name and contact address, or the plain closing without them", () => {
    const library = { name: 'Stadtbibliothek Graz', contactEmail: 'lesesaal@stadtbib.example' };
    const signed = composeMail({ ...input, library });
    expect(signed.text).toContain(
      'Mit freundlichen Grüßen\nStadtbibliothek Graz\nKontakt: lesesaal@stadtbib.example',
    );
    expect(signed.text).not.toContain('Ihre Bibliothek');
    expect(signed.html).toContain('Stadtbibliothek Graz<br>Kontakt: lesesaal@stadtbib.example');
    expect(composeMail({ ...input, language: 'en', library }).text).toContain(
      'Kind regards\nStadtbibliothek Graz\nContact: lesesaal@stadtbib.example',
    );
    expect(composeMail(input).text).toContain('Mit freundlichen Grüßen\nIhre Bibliothek');
  });

  it("names a site's week of opening hours after its postal address, in the mail's language", () => {
    const day = [{ start: '08:00', end: '20:00' }];
    const library = {
      site: true,
      name: 'Fachbibliothek Jura',
      address: 'Universitätsstraße 7',
      contactEmail: 'jura@library.example',
      hours: {
        weekly: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] },
        exceptions: [],
      },
    };
    const de = composeMail({ ...input, library });
    expect(de.text).toContain(
      'Universitätsstraße 7\nÖffnungszeiten: Mo–Fr 08:00–20:00\nKontakt: jura@library.example',
    );
    expect(de.html).toContain('Öffnungszeiten: Mo–Fr 08:00–20:00<br>');
    expect(composeMail({ ...input, language: 'en', library }).text).toContain(
      'Opening hours: Mon–Fri 08:00–20:00',
    );
    // No hours set: no line.
    const none = {
      ...library,
      hours: {
        ...library.hours,
        weekly: { ...library.hours.weekly, mon: [], tue: [], wed: [], thu: [], fri: [] },
      },
    };
    expect(composeMail({ ...input, library: none }).text).not.toContain('Öffnungszeiten');
  });
});

describe('dates in the mails', () => {
  // The screens' rule (docs/product.md, "Dates shown"): dd.MM.yyyy in both languages, the day
  // before the month; English mails never take the US order.
  it('show a day as dd.MM.yyyy in English as in German, in the text and the HTML', () => {
    const tickets = [{ ...input.tickets[0]!, roomName: 'Saal', date: '2026-12-03' }];
    const english = composeMail({ ...input, language: 'en', tickets });
    const german = composeMail({ ...input, tickets });
    expect(english.text).toContain('Saal, 03.12.2026, 09:00–10:00');
    expect(english.html).toContain('03.12.2026');
    expect(german.text).toContain('Saal, 03.12.2026, 09:00–10:00 Uhr');
    for (const mail of [english, german]) {
      expect(mail.text).not.toMatch(/12\/0?3\/2026|December 3|Dec 3/);
    }
  });
});

describe('confirmed addresses (docs/product.md#confirmed-addresses)', () => {
  const url = 'https://library.example/reservation-confirmation/aaaa#confirm=secret';
  const confirmBy = { date: '2026-11-23', time: '09:30', url };
  it('asks a confirmation awaiting its confirmation to confirm by the deadline, through the link with its token', () => {
    const de = composeMail({ ...input, confirmBy });
    expect(de.text).toContain(
      'Bitte bestätigen Sie Ihre Buchung bis 23.11.2026, 09:30 Uhr: Öffnen Sie den folgenden Link',
    );
    expect(de.text).toMatch(
      /Öffnen Sie den folgenden Link[^\n]*\nhttps:\/\/library\.example\/reservation-confirmation\/aaaa#confirm=secret\n/,
    );
    expect(de.html).toContain('Bitte bestätigen Sie Ihre Buchung bis 23.11.2026, 09:30 Uhr');
    expect(de.html).toContain(`href="${url}"`);
    // The link to view or cancel stays the owner page's, without the token.
    expect(de.text.split(url)).toHaveLength(2);
    const en = composeMail({ ...input, language: 'en', confirmBy });
    expect(en.text).toContain('Please confirm your booking by 23.11.2026, 09:30: open');
  });

  it('asks nothing without a deadline, nor in another kind of mail', () => {
    expect(composeMail(input).text).not.toContain('bestätigen Sie');
    expect(composeMail({ ...input, kind: 'reminder', confirmBy }).text).not.toContain(
      'bestätigen Sie',
    );
  });

  it('tells of a release unconfirmed in a short mail in the booking language', () => {
    const de = composeMail({ ...input, kind: 'unconfirmed' });
    expect(de.subject).toBe('Ihre Buchung R-ABCDEF wurde nicht bestätigt');
    expect(de.text).toContain('Sie haben Ihre Buchung nicht rechtzeitig bestätigt.');
    const en = composeMail({ ...input, language: 'en', kind: 'unconfirmed' });
    expect(en.subject).toBe('Your booking R-ABCDEF was not confirmed');
    expect(en.text).toContain('You did not confirm your booking in time');
  });
});

describe('the mail of a seat change', () => {
  it("renders staff's reason inert in the HTML part, and publishes the entry rather than cancelling it", () => {
    const mail = composeMail({ ...input, kind: 'seat-moved', reason: '<script>x</script>' });
    expect(mail.subject).toBe('Neuer Platz in Ihrer Buchung R-ABCDEF');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('gegeben: &lt;script&gt;x&lt;/script&gt;<br>');
    expect(mail.ics).toContain('METHOD:PUBLISH');
    expect(mail.ics).toContain('STATUS:CONFIRMED');
  });

  it("says the visitor's own change was made as asked, with no reason", () => {
    const en = composeMail({ ...input, language: 'en', kind: 'seat-change', reason: 'ignored' });
    expect(en.subject).toBe('New seat in your booking R-ABCDEF');
    expect(en.text).toContain('Your seat was changed as you asked.');
    expect(en.text).not.toContain('ignored');
  });
});
