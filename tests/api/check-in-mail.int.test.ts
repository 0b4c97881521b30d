import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { releaseNoShows } from '@rr/command-service';
import { addDays } from '@rr/domain';
import { checkInCodes, ManualClock } from '@rr/platform';
import { TEST_KEY_SECRET } from '../support/app.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  type MailSuite,
  sendPendingMails,
} from '../support/fixtures.ts';

/**
 * The mails of the reading-room services through a real SMTP server: the confirmation of a check-in room carries each
 * ticket's QR code as an inline PNG that a decoder reads back as the ticket's check-in
 * reference; a room without check-in's confirmation has none; the no-show release mail is in
 * the booking's language.
 */
const BASE = new Date('2026-11-23T08:00:00Z');
const clock = new ManualClock(BASE);
const DAY = addDays(BASE.toISOString().slice(0, 10), 3);
const local = (date: string, time: string) => new Date(`${date}T${time}:00+01:00`);
const codes = checkInCodes(TEST_KEY_SECRET);

let suite: MailSuite;
let checkInSlot: string;
let plainSlot: string;

/** Books a ticket as a new visitor, Mr Max Leser (his mails greet him by name). */
const book = (timeSlotId: string, language: 'de' | 'en') =>
  bookAsNewVisitor(suite.app.baseUrl, [timeSlotId], language, {
    salutation: 'MR',
    firstName: 'Max',
    lastName: 'Leser',
  });

const sendAll = (kinds: number) => sendPendingMails(suite, kinds);

beforeAll(async () => {
  suite = await openMailSuite(clock);
  const room = await createRoom(suite.admin, 'Großer Lesesaal', OPEN_FROM_TODAY);
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
    json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 },
  });
  expect(res.status).toBe(200);
  const plain = await createRoom(suite.admin, 'Zeitschriftenraum', OPEN_FROM_TODAY);
  checkInSlot = await createSlot(suite.admin, room, DAY, '10:00', '12:00', 10);
  plainSlot = await createSlot(suite.admin, plain, DAY, '10:00', '12:00', 10);
});
afterAll(() => suite.close());

describe('check-in mails', () => {
  it('the confirmation of a check-in room has the QR code inline, read back as the reference', async () => {
    const b = await book(checkInSlot, 'de');
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Ihre Buchung ${b.bookingNumber}`);
    const code = codes.codeOf(b.ticketId);
    expect(mail!.text).toContain('Zum Check-in zeigen Sie bitte den QR-Code Ihres Termins vor');
    // The HTML part shows the inline image (mailparser has put its data in place of the cid).
    expect(mail!.html).toContain('alt="QR-Code für den Check-in"');
    const pngs = mail!.attachments.filter((a) => a.contentType === 'image/png');
    expect(pngs).toHaveLength(1);
    expect(pngs[0]!.cid).toBe(`check-in-${b.ticketId}@reading-rooms`);
    expect(pngs[0]!.contentDisposition).toBe('inline');
    const png = PNG.sync.read(pngs[0]!.content);
    const read = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(read?.data).toBe(code);
    expect(codes.ticketOf(read!.data)).toBe(b.ticketId);
  });

  it('the confirmation of a room without check-in has no QR code', async () => {
    await book(plainSlot, 'en');
    const [mail] = await sendAll(1);
    expect(mail!.attachments.filter((a) => a.contentType === 'image/png')).toEqual([]);
    expect(mail!.text).not.toContain('check in');
  });

  it('a no-show release sends a short mail in the booking language (German and English)', async () => {
    const de = await book(checkInSlot, 'de');
    const en = await book(checkInSlot, 'en');
    await sendAll(2);
    clock.set(local(DAY, '10:20'));
    expect(await releaseNoShows(suite.app.deps)).toBeGreaterThanOrEqual(2);
    const mails = await sendAll(3); // and the first test's ticket
    const deMail = mails.find((m) => m.subject?.includes(de.bookingNumber))!;
    const enMail = mails.find((m) => m.subject?.includes(en.bookingNumber))!;
    expect(deMail.subject).toBe(`Ihr Platz wurde freigegeben (Buchung ${de.bookingNumber})`);
    expect(deMail.text).toContain('Guten Tag Herr Max Leser,');
    expect(deMail.text).toContain('Sie wurden bis zur Freigabezeit nicht eingecheckt');
    expect(deMail.text).toContain('Großer Lesesaal');
    expect(enMail.subject).toBe(`Your seat was released (booking ${en.bookingNumber})`);
    expect(enMail.text).toContain('Dear Mr Max Leser,');
    expect(enMail.text).toContain('You were not checked in by the release time');
    for (const m of [deMail, enMail])
      expect(m.attachments.filter((a) => a.contentType === 'image/png')).toEqual([]);
    const kinds = await suite.db.pool.query<{ kind: string }>(
      `SELECT DISTINCT kind FROM mail_outbox ORDER BY kind`,
    );
    expect(kinds.rows.map((r) => r.kind)).toEqual(['confirmation', 'release']);
    clock.set(BASE);
  });
});
