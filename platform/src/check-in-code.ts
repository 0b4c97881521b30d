import { createHmac, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';

/**
 * Check-in: the reference a ticket's QR code carries. It names the ticket and proves
 * it was issued here: `<ticketId>.<MAC>`, the MAC an HMAC of the ticket id with a key derived
 * from the server's secret (128 bits, base64url), so a reference cannot be guessed from a
 * ticket id, an owner id or a booking number, and nothing is stored to look one up.
 */
export interface CheckInCodes {
  /** The check-in reference of a ticket. */
  codeOf(ticketId: string): string;
  /** The ticket a reference names, or null for anything not issued here. */
  ticketOf(code: string): string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAC_LENGTH = 22;

/**
 * `<id>.<MAC>` references of one purpose: a key of its own per purpose (derived from the
 * server's secret), so a reference of one kind is never one of another, nor an e-mail key.
 */
function signedReferences(secret: string, purpose: string) {
  const key = createHmac('sha256', secret).update(purpose).digest();
  const macOf = (id: string) =>
    createHmac('sha256', key).update(id).digest('base64url').slice(0, MAC_LENGTH);
  return {
    codeOf: (id: string) => `${id}.${macOf(id.toLowerCase())}`,
    idOf: (code: string): string | null => {
      const [given = '', mac = '', ...rest] = code.trim().split('.');
      const id = given.toLowerCase();
      if (rest.length || !UUID.test(id) || mac.length !== MAC_LENGTH) return null;
      const expected = Buffer.from(macOf(id));
      const actual = Buffer.from(mac);
      return actual.length === expected.length && timingSafeEqual(actual, expected) ? id : null;
    },
  };
}

export function checkInCodes(secret: string): CheckInCodes {
  const refs = signedReferences(secret, 'check-in reference');
  return { codeOf: refs.codeOf, ticketOf: refs.idOf };
}

/**
 * A waitlist entry's reference: the secret of its mail's leave link and of the page that
 * remembers the visitor's place. Derived like a check-in reference, so nothing is stored to look
 * one up and it cannot be guessed from the entry's id (which staff and the events see).
 */
export interface WaitlistReferences {
  codeOf(entryId: string): string;
  /** The entry a reference names, or null for anything not issued here. */
  entryOf(code: string): string | null;
}

export function waitlistReferences(secret: string): WaitlistReferences {
  const refs = signedReferences(secret, 'waitlist reference');
  return { codeOf: refs.codeOf, entryOf: refs.idOf };
}

/**
 * The link of a "my bookings" mail: names the request row (a random id) with a MAC, never the
 * address, so an altered or invented link is refused before the database is asked.
 */
export interface MyBookingsLinks {
  codeOf(requestId: string): string;
  /** The request a link's token names, or null for anything not issued here. */
  requestOf(code: string): string | null;
}

export function myBookingsLinks(secret: string): MyBookingsLinks {
  const refs = signedReferences(secret, 'my-bookings link');
  return { codeOf: refs.codeOf, requestOf: refs.idOf };
}

/** A QR code of a text as a PNG image (for mails: an inline attachment any mail app shows). */
export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
}

/** A QR code of a text as SVG markup (for pages: sharp at any size). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
