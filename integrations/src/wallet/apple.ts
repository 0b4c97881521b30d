import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PKPass } from 'passkit-generator';
import { instantOf, type WalletConfig } from '@rr/platform';
import { passIcons } from './icon.ts';
import { walletTexts, type WalletTicket } from './ticket.ts';

/** What signs Apple Wallet passes: the pass type, the team and the certificates' contents. */
export interface ApplePassSigner {
  passTypeId: string;
  teamId: string;
  certificates: {
    wwdr: Buffer;
    signerCert: Buffer;
    signerKey: Buffer;
    signerKeyPassphrase?: string;
  };
}

/**
 * The signer of the configuration, its files read once (at start-up); null without the settings.
 * A file that cannot be read stops start-up, as a bad setting does.
 */
export function applePassSignerOf(config: WalletConfig): ApplePassSigner | null {
  const {
    WALLET_PASS_TYPE_ID: passTypeId,
    WALLET_TEAM_ID: teamId,
    WALLET_SIGNER_CERT_FILE: certFile,
    WALLET_SIGNER_KEY_FILE: keyFile,
    WALLET_WWDR_CERT_FILE: wwdrFile,
    WALLET_SIGNER_KEY_PASSPHRASE: passphrase,
  } = config;
  if (!passTypeId || !teamId || !certFile || !keyFile || !wwdrFile) return null;
  const signerKey = readFileSync(keyFile);
  // A key its passphrase does not open stops start-up here rather than failing every pass.
  createPrivateKey(passphrase ? { key: signerKey, passphrase } : signerKey);
  return {
    passTypeId,
    teamId,
    certificates: {
      wwdr: readFileSync(wwdrFile),
      signerCert: readFileSync(certFile),
      signerKey,
      ...(passphrase ? { signerKeyPassphrase: passphrase } : {}),
    },
  };
}

export interface ApplePassContext {
  signer: ApplePassSigner;
  timeZone: string;
  libraryName: string;
  /** The barcode's text: the check-in reference, or the booking number without check-in. */
  barcode: string;
  /**
   * Where a wallet registers the pass for updates (the web service, web-service.ts) and the
   * pass's token there; absent (no PUBLIC_BASE_URL): the pass is not updated, only fetched anew.
   */
  webService?: { url: string; authenticationToken: string } | undefined;
}

/**
 * A ticket's Apple Wallet pass (an event ticket, `.pkpass`): signed, its serial number the first
 * ticket of the move chain, so a moved ticket's pass replaces the old one with the new slot; a
 * ticket no longer booked gives a voided pass, which a wallet refreshing it shows as such.
 */
export function applePass(ticket: WalletTicket, context: ApplePassContext): Buffer {
  const { signer, timeZone, libraryName, barcode, webService } = context;
  const t = walletTexts[ticket.language];
  const pass = new PKPass(passIcons(), signer.certificates, {
    formatVersion: 1,
    serialNumber: ticket.serial,
    passTypeIdentifier: signer.passTypeId,
    teamIdentifier: signer.teamId,
    organizationName: libraryName,
    description: `${t.reservation}: ${ticket.roomName}`,
    logoText: libraryName,
    backgroundColor: 'rgb(31, 78, 121)',
    foregroundColor: 'rgb(255, 255, 255)',
    labelColor: 'rgb(220, 230, 240)',
    ...(ticket.booked ? {} : { voided: true }),
    ...(webService
      ? { webServiceURL: webService.url, authenticationToken: webService.authenticationToken }
      : {}),
  });
  pass.type = 'eventTicket';
  pass.primaryFields.push({ key: 'room', label: t.room, value: ticket.roomName });
  pass.secondaryFields.push(
    { key: 'date', label: t.date, value: t.dateText(ticket.date), changeMessage: t.moved },
    {
      key: 'time',
      label: t.time,
      value: t.timeText(ticket.startTime, ticket.endTime),
      changeMessage: t.moved,
    },
  );
  if (ticket.seatLabel)
    pass.auxiliaryFields.push({
      key: 'seat',
      label: t.seat,
      value: ticket.seatLabel,
      changeMessage: t.moved,
    });
  pass.auxiliaryFields.push({ key: 'number', label: t.number, value: ticket.bookingNumber });
  pass.backFields.push({ key: 'library', label: t.library, value: libraryName });
  pass.setBarcodes({
    format: 'PKBarcodeFormatQR',
    message: barcode,
    messageEncoding: 'iso-8859-1',
  });
  const start = instantOf(ticket.date, ticket.startTime, timeZone);
  const end = instantOf(ticket.date, ticket.endTime, timeZone);
  pass.setRelevantDates([{ startDate: start, endDate: end }]);
  return pass.getAsBuffer();
}
