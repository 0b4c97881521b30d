import { timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import {
  defineRoute,
  inTransaction,
  Problem,
  problems,
  z,
  type CheckInCodes,
  type Clock,
  type Logger,
  type Pool,
  type RouteDef,
  type WalletConfig,
} from '@rr/platform';
import { applePass, applePassSignerOf, type ApplePassSigner } from './apple.ts';
import { walletNotConfigured } from './not-configured.ts';
import { walletBarcodeOf, walletTexts, walletTicketOf, type WalletTicket } from './ticket.ts';

/*
 * Apple Wallet's web service (Apple's "Wallet Web Service Reference"), docs/product.md#wallet-passes:
 * a wallet that saved a pass registers its device's push token for the pass's updates; when the
 * ticket is moved or cancelled, the update job (updates.ts) pushes to the device, which asks for
 * the passes changed since its last tag and fetches each anew. Mounted below /api at
 * APPLE_WEB_SERVICE_PATH, which the pass carries as its webServiceURL.
 */

/** Below /api: the pass's webServiceURL, to which Apple's paths (`/v1/…`) are added. */
export const APPLE_WEB_SERVICE_PATH = '/wallet/apple';
/** Devices one pass keeps registrations of: a further one replaces the one registered first. */
export const APPLE_DEVICES_PER_PASS = 10;

/** The web service's address of a server reached at `publicBaseUrl` (ending in `/`). */
export const appleWebServiceUrl = (publicBaseUrl: string) =>
  new URL(`api${APPLE_WEB_SERVICE_PATH}`, publicBaseUrl).toString();

const TOKEN_PURPOSE = 'apple-wallet-web-service:';

/**
 * A pass's authentication token: derived, never stored. It is the MAC the check-in references
 * are made with, of a message no ticket id can be (a prefix before the serial number), so it
 * names this pass alone and neither it nor a check-in reference tells anything of the other.
 */
export function applePassToken(codes: CheckInCodes, serial: string): string {
  const code = codes.codeOf(TOKEN_PURPOSE + serial.toLowerCase());
  return code.slice(code.lastIndexOf('.') + 1);
}

/** Whether the request's `Authorization: ApplePass <token>` is the pass's (constant time). */
export function applePassAuthorized(
  codes: CheckInCodes,
  serial: string,
  header: string | undefined,
): boolean {
  const match = /^ApplePass ([A-Za-z0-9_-]{1,200})$/.exec(header?.trim() ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(applePassToken(codes, serial));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const BASE = `${APPLE_WEB_SERVICE_PATH}/v1`;
const unauthorized = () =>
  new Problem(401, 'http__unauthorized', 'Not the authentication token of this pass');

// Apple's device library identifiers and push tokens are hex or alphanumeric texts.
const deviceId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'Not a device library identifier');
const passTypeId = z.string().min(1).max(200);
const serial = z.uuid('Not a serial number of this server');

const RegistrationParams = z.object({
  deviceLibraryIdentifier: deviceId,
  passTypeIdentifier: passTypeId,
  serialNumber: serial,
});
const DeviceParams = z.object({
  deviceLibraryIdentifier: deviceId,
  passTypeIdentifier: passTypeId,
});
const PassParams = z.object({ passTypeIdentifier: passTypeId, serialNumber: serial });
const RegistrationBody = z
  .object({ pushToken: z.string().regex(/^[0-9A-Fa-f]{16,200}$/, 'Not an APNs device token') })
  .openapi('AppleWalletRegistration');
// The update tag: milliseconds since the epoch of the newest change the device was told.
const UpdatedSince = z.object({
  passesUpdatedSince: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional(),
});
const UpdatedPasses = z
  .object({ serialNumbers: z.array(z.string()), lastUpdated: z.string() })
  .openapi('AppleWalletUpdatedPasses');
const LogBody = z
  .object({ logs: z.array(z.string().max(2000)).max(100) })
  .openapi('AppleWalletLog');

export interface AppleWebServiceDeps {
  /** The primary: registrations are written, the pass read from the read models there. */
  pool: Pool;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  checkInCodes: CheckInCodes;
  libraryName?: string | undefined;
  /** PUBLIC_BASE_URL: the pass's webServiceURL (without it passes carry none). */
  publicBaseUrl?: string | undefined;
  config: WalletConfig;
}

/** A ticket's pass as Apple's web service and the visitor's download give it. */
export function applePassOf(
  ticket: WalletTicket,
  o: {
    signer: ApplePassSigner;
    timeZone: string;
    checkInCodes: CheckInCodes;
    libraryName?: string | undefined;
    publicBaseUrl?: string | undefined;
  },
): Buffer {
  return applePass(ticket, {
    signer: o.signer,
    timeZone: o.timeZone,
    libraryName: o.libraryName ?? walletTexts[ticket.language].libraryDefault,
    barcode: walletBarcodeOf(ticket, o.checkInCodes),
    webService: o.publicBaseUrl
      ? {
          url: appleWebServiceUrl(o.publicBaseUrl),
          authenticationToken: applePassToken(o.checkInCodes, ticket.serial),
        }
      : undefined,
  });
}

/** The owner of a pass's first ticket while its personal data is there, or null. */
async function ownerOfSerial(db: pg.ClientBase | Pool, serialNumber: string, lock = false) {
  const r = await db.query<{ owner_id: string }>(
    `SELECT t.owner_id FROM rm_tickets t JOIN personal_data p ON p.owner_id = t.owner_id
      WHERE t.id = $1${lock ? ' FOR SHARE OF p' : ''}`,
    [serialNumber],
  );
  return r.rows[0]?.owner_id ?? null;
}

/** When a registered pass last changed, in whole seconds as HTTP dates have them; null: never. */
async function passModified(pool: Pool, serialNumber: string): Promise<number | null> {
  const known = await pool.query<{ updated_at: Date }>(
    'SELECT updated_at FROM wallet_apple_passes WHERE serial = $1',
    [serialNumber],
  );
  const at = known.rows[0]?.updated_at;
  return at ? Math.floor(at.getTime() / 1000) * 1000 : null;
}

/**
 * Keeps a device's registration for a pass (the same device again: its new push token), the
 * pass's row made on its first; answers whether the registration is new. Beyond
 * APPLE_DEVICES_PER_PASS the earliest registrations go.
 */
async function registerDevice(
  pool: Pool,
  now: Date,
  params: z.output<typeof RegistrationParams>,
  pushToken: string,
): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    // The owner's personal data locked until the commit: an erasure running meanwhile
    // deletes the registration with it.
    const owner = await ownerOfSerial(client, params.serialNumber, true);
    if (!owner) throw problems.notFound('Ticket');
    await client.query(
      `INSERT INTO wallet_apple_passes (serial, owner_id, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (serial) DO NOTHING`,
      [params.serialNumber, owner, now],
    );
    // The pass's row serialises its registrations (the bound below).
    await client.query('SELECT 1 FROM wallet_apple_passes WHERE serial = $1 FOR UPDATE', [
      params.serialNumber,
    ]);
    const r = await client.query<{ inserted: boolean }>(
      `INSERT INTO wallet_apple_registrations
         (device_id, pass_type_id, serial, push_token, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (device_id, pass_type_id, serial) DO UPDATE SET push_token = EXCLUDED.push_token
       RETURNING (xmax = 0) AS inserted`,
      [
        params.deviceLibraryIdentifier,
        params.passTypeIdentifier,
        params.serialNumber,
        pushToken,
        now,
      ],
    );
    await client.query(
      `DELETE FROM wallet_apple_registrations WHERE serial = $1 AND (device_id, pass_type_id) IN (
         SELECT device_id, pass_type_id FROM wallet_apple_registrations WHERE serial = $1
          ORDER BY created_at DESC, device_id OFFSET $2)`,
      [params.serialNumber, APPLE_DEVICES_PER_PASS],
    );
    return r.rows[0]?.inserted ?? false;
  });
}

/**
 * The routes of Apple's web service. The pass's token is checked before anything is read; a pass
 * type other than the configured one is not found.
 */
export function appleWebServiceRoutes(deps: AppleWebServiceDeps): RouteDef[] {
  const configured = applePassSignerOf(deps.config);
  // Without Apple Wallet's settings every route answers wallet__not_configured.
  const signerOr404 = () => {
    if (!configured) throw walletNotConfigured('Apple Wallet');
    return configured;
  };
  const { pool, clock, logger, checkInCodes } = deps;
  const checkPass = (
    params: { passTypeIdentifier: string; serialNumber: string },
    authorization: string | undefined,
  ) => {
    if (!applePassAuthorized(checkInCodes, params.serialNumber, authorization))
      throw unauthorized();
    if (params.passTypeIdentifier !== signerOr404().passTypeId) throw problems.notFound('Pass');
  };
  return [
    defineRoute({
      method: 'post',
      path: `${BASE}/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}`,
      summary:
        "Apple Wallet: a device registers for a pass's updates (Authorization: ApplePass <token>)",
      tags: ['wallet'],
      access: 'public',
      params: RegistrationParams,
      body: RegistrationBody,
      responses: {
        200: { description: 'Registered already (its push token kept anew)' },
        201: { description: 'Registered' },
        400: { description: 'validation__error' },
        401: { description: "Not the pass's authentication token" },
        404: { description: 'Unknown pass type or ticket, or its personal data erased' },
      },
      handler: async ({ params, body, req }) => {
        checkPass(params, req.get('authorization'));
        const created = await registerDevice(pool, clock.now(), params, body.pushToken);
        return { status: created ? 201 : 200 };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${BASE}/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}`,
      summary: "Apple Wallet: a device no longer wants a pass's updates (the pass was removed)",
      tags: ['wallet'],
      access: 'public',
      params: RegistrationParams,
      responses: {
        200: { description: 'Unregistered' },
        401: { description: "Not the pass's authentication token" },
        404: { description: 'No such registration' },
      },
      handler: async ({ params, req }) => {
        checkPass(params, req.get('authorization'));
        const r = await pool.query(
          `DELETE FROM wallet_apple_registrations
            WHERE device_id = $1 AND pass_type_id = $2 AND serial = $3`,
          [params.deviceLibraryIdentifier, params.passTypeIdentifier, params.serialNumber],
        );
        if (!r.rowCount) throw problems.notFound('Registration');
        return { status: 200 };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}`,
      summary:
        "Apple Wallet: the serial numbers of a device's passes changed since its tag (none: 204)",
      tags: ['wallet'],
      access: 'public',
      params: DeviceParams,
      query: UpdatedSince,
      responses: {
        200: {
          description: 'The changed passes and the tag to ask with next',
          schema: UpdatedPasses,
        },
        204: { description: 'Nothing changed since the tag' },
        400: { description: 'validation__error' },
      },
      handler: async ({ params, query }) => {
        signerOr404();
        const since = query.passesUpdatedSince ? new Date(Number(query.passesUpdatedSince)) : null;
        const r = await pool.query<{ serial: string; updated_at: Date }>(
          `SELECT r.serial, p.updated_at FROM wallet_apple_registrations r
             JOIN wallet_apple_passes p ON p.serial = r.serial
            WHERE r.device_id = $1 AND r.pass_type_id = $2
              AND ($3::timestamptz IS NULL OR p.updated_at > $3)
            ORDER BY r.serial`,
          [params.deviceLibraryIdentifier, params.passTypeIdentifier, since],
        );
        if (!r.rows.length) return { status: 204 };
        const last = Math.max(...r.rows.map((row) => row.updated_at.getTime()));
        return {
          body: { serialNumbers: r.rows.map((row) => row.serial), lastUpdated: String(last) },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/passes/{passTypeIdentifier}/{serialNumber}`,
      summary:
        'Apple Wallet: the latest version of a pass (If-Modified-Since: 304 while unchanged)',
      tags: ['wallet'],
      access: 'public',
      params: PassParams,
      responses: {
        200: {
          description: 'The signed pass',
          schema: z.string().openapi({ format: 'binary' }),
          contentType: 'application/vnd.apple.pkpass',
        },
        304: { description: 'Not changed since If-Modified-Since' },
        401: { description: "Not the pass's authentication token" },
        404: { description: 'Unknown pass type or ticket, or its personal data erased' },
      },
      handler: async ({ params, req, res }) => {
        checkPass(params, req.get('authorization'));
        const owner = await ownerOfSerial(pool, params.serialNumber);
        if (!owner) throw problems.notFound('Ticket');
        const modified = await passModified(pool, params.serialNumber);
        const since = Date.parse(req.get('if-modified-since') ?? '');
        if (modified !== null && !Number.isNaN(since) && modified <= since) {
          res.status(304).end();
          return;
        }
        const ticket = await walletTicketOf(pool, owner, params.serialNumber);
        const pass = applePassOf(ticket, { ...deps, signer: signerOr404() });
        res.setHeader('Content-Type', 'application/vnd.apple.pkpass');
        res.setHeader('Cache-Control', 'private, no-cache');
        res.setHeader('Last-Modified', new Date(modified ?? clock.now().getTime()).toUTCString());
        res.status(200).send(pass);
      },
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/log`,
      summary: "Apple Wallet: a device's messages about errors with this web service",
      tags: ['wallet'],
      access: 'public',
      body: LogBody,
      responses: { 200: { description: 'Logged' }, 400: { description: 'validation__error' } },
      handler: async ({ body }) => {
        signerOr404();
        for (const message of body.logs) logger.info({ appleWallet: message }, 'wallet log');
        return Promise.resolve({ status: 200 });
      },
    }),
  ];
}

/**
 * Erases an owner's pass registrations and Google objects (and updates not yet sent), in the
 * erasure's transaction of the owner's personal data: the devices' push tokens go with them.
 */
export async function eraseWalletRegistrationsOf(
  client: pg.ClientBase,
  ownerId: string,
): Promise<number> {
  const apple = await client.query('DELETE FROM wallet_apple_passes WHERE owner_id = $1', [
    ownerId,
  ]);
  const google = await client.query('DELETE FROM wallet_google_objects WHERE owner_id = $1', [
    ownerId,
  ]);
  await client.query('DELETE FROM wallet_updates WHERE owner_id = $1', [ownerId]);
  return (apple.rowCount ?? 0) + (google.rowCount ?? 0);
}
