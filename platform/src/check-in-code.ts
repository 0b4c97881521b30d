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

export function checkInCodes(secret: string): CheckInCodes {
  // A key of its own: a MAC here is never an e-mail key, nor the other way round.
  const key = createHmac('sha256', secret).update('check-in reference').digest();
  const macOf = (ticketId: string) =>
    createHmac('sha256', key).update(ticketId).digest('base64url').slice(0, MAC_LENGTH);
  return {
    codeOf: (ticketId) => `${ticketId}.${macOf(ticketId.toLowerCase())}`,
    ticketOf: (code) => {
      const [ticketId = '', mac = '', ...rest] = code.trim().split('.');
      const id = ticketId.toLowerCase();
      if (rest.length || !UUID.test(id) || mac.length !== MAC_LENGTH) return null;
      const expected = Buffer.from(macOf(id));
      const given = Buffer.from(mac);
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
    },
  };
}

/** A QR code of a text as a PNG image (for mails: an inline attachment any mail app shows). */
export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
}

/** A QR code of a text as SVG markup (for pages: sharp at any size). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
