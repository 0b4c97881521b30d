import { readFileSync } from 'node:fs';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { instantOf, type Clock, type WalletConfig } from '@rr/platform';
import { walletTexts, type WalletTicket } from './ticket.ts';

/** Where a Google Wallet save link leads: the JWT follows the last slash. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/** The issuer and the service account that sign Google Wallet save links. */
export interface GoogleWalletSigner {
  issuerId: string;
  serviceAccountEmail: string;
  key: KeyObject;
}

/** The signer of the configuration, its key file read once (at start-up); null without it. */
export function googleWalletSignerOf(config: WalletConfig): GoogleWalletSigner | null {
  const {
    GOOGLE_WALLET_ISSUER_ID: issuerId,
    GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: serviceAccountEmail,
    GOOGLE_WALLET_PRIVATE_KEY_FILE: keyFile,
  } = config;
  if (!issuerId || !serviceAccountEmail || !keyFile) return null;
  // The service account's key as Google's JSON key file names it (`private_key`, PKCS #8 PEM).
  return { issuerId, serviceAccountEmail, key: createPrivateKey(readFileSync(keyFile)) };
}

export interface GoogleWalletContext {
  signer: GoogleWalletSigner;
  clock: Clock;
  timeZone: string;
  libraryName: string;
  /** The barcode's text: the check-in reference, or the booking number without check-in. */
  barcode: string;
}

/** Google's ids: the issuer's number, a dot, then letters, digits, '.', '_' or '-'. */
const googleId = (issuerId: string, name: string) => `${issuerId}.${name.replace(/[^\w.-]/g, '_')}`;

const localized = (language: 'de' | 'en', value: string) => ({
  defaultValue: { language, value },
});

/** The event ticket class every object belongs to: the library's reservations. */
export const googleClassId = (signer: GoogleWalletSigner) =>
  googleId(signer.issuerId, 'reading-room-reservation');

/** A ticket's Google Wallet object id: the issuer's, then the first ticket of the move chain. */
export const googleObjectId = (signer: GoogleWalletSigner, serial: string) =>
  googleId(signer.issuerId, serial);

/**
 * A ticket's Google Wallet event ticket object, as the save link carries it and an update sends
 * it: the object's id is the first ticket of the move chain, so a saved ticket stays one object;
 * a ticket no longer booked is INACTIVE.
 */
export function googleEventTicketObject(
  ticket: WalletTicket,
  context: Omit<GoogleWalletContext, 'clock' | 'libraryName'>,
) {
  const { signer, timeZone, barcode } = context;
  const t = walletTexts[ticket.language];
  const start = instantOf(ticket.date, ticket.startTime, timeZone);
  const end = instantOf(ticket.date, ticket.endTime, timeZone);
  return {
    id: googleObjectId(signer, ticket.serial),
    classId: googleClassId(signer),
    state: ticket.booked ? 'ACTIVE' : 'INACTIVE',
    ticketNumber: ticket.bookingNumber,
    ...(ticket.seatLabel
      ? { seatInfo: { seat: localized(ticket.language, ticket.seatLabel) } }
      : {}),
    barcode: { type: 'QR_CODE', value: barcode },
    validTimeInterval: { start: { date: start.toISOString() }, end: { date: end.toISOString() } },
    textModulesData: [
      { id: 'room', header: t.room, body: ticket.roomName },
      { id: 'date', header: t.date, body: t.dateText(ticket.date) },
      { id: 'time', header: t.time, body: t.timeText(ticket.startTime, ticket.endTime) },
    ],
  };
}

/**
 * A ticket's Google Wallet save link: a JWT (RS256, the service account's key) carrying the event
 * ticket's class (the library's reservations) and object (googleEventTicketObject).
 */
export async function googleWalletSaveUrl(
  ticket: WalletTicket,
  context: GoogleWalletContext,
): Promise<string> {
  const { signer, clock, libraryName } = context;
  const t = walletTexts[ticket.language];
  const classId = googleClassId(signer);
  const object = googleEventTicketObject(ticket, context);
  const jwt = await new SignJWT({
    typ: 'savetowallet',
    origins: [],
    payload: {
      eventTicketClasses: [
        {
          id: classId,
          issuerName: libraryName,
          eventName: localized(ticket.language, t.reservation),
          reviewStatus: 'UNDER_REVIEW',
        },
      ],
      eventTicketObjects: [object],
    },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(signer.serviceAccountEmail)
    .setAudience('google')
    .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
    .sign(signer.key);
  return GOOGLE_SAVE_URL + jwt;
}
