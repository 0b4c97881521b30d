import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { checkInImageCid, composeMail, type MailInput } from './compose.ts';

/** The reminder mail, composed by the same helpers as the confirmation. */
const ticketId = '00000000-0000-4000-8000-000000000001';
const input: MailInput = {
  kind: 'reminder',
  language: 'de',
  bookingNumber: 'R-ABCDEF',
  ownerId: 'a'.repeat(32),
  salutation: 'MS',
  title: 'Dr.',
  firstName: 'Maria',
  lastName: 'Musterfrau',
  tickets: [
    {
      ticketId,
      roomName: 'Großer Lesesaal',
      date: '2026-12-01',
      startTime: '09:00',
      endTime: '10:00',
    },
  ],
  confirmationUrl: 'https://library.example/reservation-confirmation/aaaa',
  timeZone: 'Europe/Vienna',
  writtenAt: new Date('2026-11-30T08:00:00Z'),
};
const withCheckIn: MailInput = {
  ...input,
  tickets: [{ ...input.tickets[0]!, checkInCode: `${ticketId}.abc` }],
};

describe('the reminder mail', () => {
  it('reminds in German with the greeting, the details, the number and the cancel link', () => {
    const mail = composeMail(input);
    expect(mail.subject).toBe('Erinnerung an Ihre Buchung R-ABCDEF');
    const lines = mail.text.split('\n');
    expect(lines[0]).toBe('Guten Tag Frau Dr. Maria Musterfrau,');
    expect(mail.text).toContain('wir erinnern Sie an Ihre reservierten Termine:');
    expect(mail.text).toContain('- Großer Lesesaal, 01.12.2026, 09:00–10:00 Uhr');
    expect(mail.text).toContain('Buchungsnummer: R-ABCDEF');
    expect(mail.text).toContain(
      'Sie können nicht kommen? Bitte stornieren Sie, damit andere den Platz nutzen können:\nhttps://library.example/reservation-confirmation/aaaa',
    );
    expect(mail.html).toContain('href="https://library.example/reservation-confirmation/aaaa"');
    expect(mail.html).toContain('<html lang="de">');
  });

  it('reminds in English', () => {
    const mail = composeMail({ ...input, language: 'en', title: null });
    expect(mail.subject).toBe('Reminder of your booking R-ABCDEF');
    expect(mail.text.split('\n')[0]).toBe('Dear Ms Maria Musterfrau,');
    expect(mail.text).toContain('this is a reminder of your reserved appointments:');
    expect(mail.text).toContain('- Großer Lesesaal, 01.12.2026, 09:00–10:00');
    expect(mail.text).toContain('Booking number: R-ABCDEF');
    expect(mail.text).toContain('Cannot come? Please cancel, so that others can use the seat:');
  });

  it('shows a QR code image per ticket only where the room uses check-in', () => {
    const plain = composeMail(input);
    expect(plain.html).not.toContain('cid:');
    expect(plain.text).not.toContain('QR');
    const mail = composeMail(withCheckIn);
    expect(mail.html).toContain(`<img src="cid:${checkInImageCid(ticketId)}"`);
    expect(mail.html).toContain('alt="QR-Code für den Check-in"');
    expect(mail.text).toContain('Zum Check-in zeigen Sie bitte den QR-Code Ihres Termins vor');
    expect(composeMail({ ...withCheckIn, language: 'en' }).text).toContain(
      'To check in, please show the QR code of your appointment',
    );
  });

  it('publishes the calendar entries again, unchanged (same UID, confirmed)', () => {
    const cal = new ICAL.Component(ICAL.parse(composeMail(input).ics) as unknown[]);
    expect(cal.getFirstPropertyValue('method')).toBe('PUBLISH');
    const ev = cal.getFirstSubcomponent('vevent')!;
    expect(ev.getFirstPropertyValue('uid')).toBe(`${ticketId}@reading-rooms`);
    expect(ev.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(ev.getFirstPropertyValue('sequence')).toBe(0);
  });

  it('leaves the confirmation and the cancellation as they were', () => {
    const confirmation = composeMail({ ...input, kind: 'confirmation' });
    expect(confirmation.subject).toBe('Ihre Buchung R-ABCDEF');
    expect(confirmation.text).toContain('Ihre Buchung ansehen oder stornieren:');
    expect(confirmation.text).not.toContain('erinnern');
    const cancellation = composeMail({ ...input, kind: 'cancellation' });
    expect(cancellation.subject).toBe('Stornierung in Ihrer Buchung R-ABCDEF');
    const cal = new ICAL.Component(ICAL.parse(cancellation.ics) as unknown[]);
    expect(cal.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(cal.getFirstSubcomponent('vevent')!.getFirstPropertyValue('status')).toBe('CANCELLED');
  });
});
