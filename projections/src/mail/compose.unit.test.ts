import { describe, expect, it } from 'vitest';
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
