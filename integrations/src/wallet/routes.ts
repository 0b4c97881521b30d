import {
  defineRoute,
  ownerIdParam,
  z,
  type CheckInCodes,
  type Clock,
  type Pool,
  type RouteDef,
  type WalletConfig,
} from '@rr/platform';
import { applePassSignerOf } from './apple.ts';
import { googleWalletSaveUrl, googleWalletSignerOf } from './google.ts';
import { walletBarcodeOf, walletTexts, walletTicketOf, type WalletTicket } from './ticket.ts';
import { applePassOf } from './web-service.ts';
import { walletNotConfigured } from './not-configured.ts';

export const APPLE_PASS_CONTENT_TYPE = 'application/vnd.apple.pkpass';

export interface WalletDeps {
  /** The read models' database (a streaming replica where there is one). */
  pool: Pool;
  clock: Clock;
  /** The library's time zone (TIME_ZONE): the slot's instants. */
  timeZone: string;
  checkInCodes: CheckInCodes;
  /** The library's name (LIBRARY_NAME), absent: "Ihre Bibliothek" / "Your library". */
  libraryName?: string | undefined;
  /** PUBLIC_BASE_URL: Apple passes carry the web service's address under it (updates). */
  publicBaseUrl?: string | undefined;
  /** The primary: a Google object handed out is recorded there (the update job's list). */
  writePool: Pool;
  config: WalletConfig;
}

const TicketParams = z.object({ ownerId: ownerIdParam, ticketId: z.uuid('Not a valid id') });

/**
 * Wallet passes of a visitor's tickets (docs/product.md#wallet-passes), made on demand from the
 * read models by the owner id of the confirmation link: Apple Wallet's `.pkpass` and Google
 * Wallet's save link. The signers' files are read once, here, when the routes are made.
 */
export function walletRoutes(deps: WalletDeps): RouteDef[] {
  const { pool, clock, timeZone, checkInCodes, config } = deps;
  const apple = applePassSignerOf(config);
  const google = googleWalletSignerOf(config);
  const libraryOf = (t: WalletTicket) => deps.libraryName ?? walletTexts[t.language].libraryDefault;
  const notFound = {
    description:
      'Unknown or malformed owner or ticket, personal data erased; or the wallet is not configured (wallet__not_configured)',
  };
  return [
    defineRoute({
      method: 'get',
      path: '/owners/{ownerId}/tickets/{ticketId}/wallet.pkpass',
      summary:
        "A ticket's Apple Wallet pass, by the owner id of the confirmation link (voided once the ticket is cancelled)",
      tags: ['visitor'],
      access: 'public',
      params: TicketParams,
      responses: {
        200: {
          description: 'The signed pass',
          schema: z.string().openapi({ format: 'binary' }),
          contentType: APPLE_PASS_CONTENT_TYPE,
        },
        404: notFound,
      },
      malformedPathNotFound: 'Ticket',
      handler: async ({ params, res }) => {
        if (!apple) throw walletNotConfigured('Apple Wallet');
        const ticket = await walletTicketOf(pool, params.ownerId, params.ticketId);
        const pass = applePassOf(ticket, { ...deps, signer: apple });
        res.setHeader('Content-Type', APPLE_PASS_CONTENT_TYPE);
        res.setHeader('Content-Disposition', 'attachment; filename="ticket.pkpass"');
        // Made anew on each request: a moved or cancelled ticket's pass is never an old copy.
        res.setHeader('Cache-Control', 'private, no-cache');
        res.setHeader('Last-Modified', clock.now().toUTCString());
        res.status(200).send(pass);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/owners/{ownerId}/tickets/{ticketId}/google-wallet',
      summary:
        "A ticket's Google Wallet save link, by the owner id of the confirmation link (the object inactive once the ticket is cancelled)",
      tags: ['visitor'],
      access: 'public',
      params: TicketParams,
      responses: {
        200: {
          description: 'The save link (a signed JWT after its last slash)',
          schema: z.object({ saveUrl: z.url() }).openapi('GoogleWalletLink'),
        },
        404: notFound,
      },
      malformedPathNotFound: 'Ticket',
      handler: async ({ params, res }) => {
        if (!google) throw walletNotConfigured('Google Wallet');
        const ticket = await walletTicketOf(pool, params.ownerId, params.ticketId);
        const saveUrl = await googleWalletSaveUrl(ticket, {
          signer: google,
          clock,
          timeZone,
          libraryName: libraryOf(ticket),
          barcode: walletBarcodeOf(ticket, checkInCodes),
        });
        // The object this link saves gets the ticket's moves and cancellation (updates.ts).
        await deps.writePool.query(
          `INSERT INTO wallet_google_objects (serial, owner_id, created_at) VALUES ($1, $2, $3)
           ON CONFLICT (serial) DO NOTHING`,
          [ticket.serial, params.ownerId, clock.now()],
        );
        res.setHeader('Cache-Control', 'private, no-store');
        return { body: { saveUrl } };
      },
    }),
  ];
}
