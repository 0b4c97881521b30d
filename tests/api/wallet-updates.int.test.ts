// Saved wallet passes follow their ticket (docs/product.md#wallet-passes): Apple Wallet's web
// service (a device registers, is told of a move or a cancel through an HTTP/2 push service on
// loopback that stands in for APNs, then fetches the changed pass), and Google Wallet's object
// patched through a Wallet API and a token endpoint on loopback. Registrations go with the
// booking's personal data.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePersonalData } from '@rr/command-service';
import { WALLET_UPDATE_RETRY_DELAYS_MS, WalletUpdater } from '@rr/integrations';
import { addDays, createLogger, instantOf, ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot } from '../support/fixtures.ts';
import { waitFor } from '../support/wait-for.ts';
import { makeWalletCertificates, unzip, type WalletCertificates } from '../support/wallet-certs.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const TZ = 'Europe/Vienna';
const day = (n: number) => addDays(todayIn(clock.now(), TZ), n);
const PASS_TYPE = 'pass.at.example.reading-rooms';
const PUBLIC = 'https://library.example/';
const WEB_SERVICE = '/api/wallet/apple/v1';
const OPEN = { openStartValue: 0, openStartType: 'DAY', openEndValue: 60, openEndType: 'DAY' };
const germanDate = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;
const DEVICE = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const OTHER_DEVICE = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const PUSH_TOKEN = 'ab'.repeat(32);
const GONE_TOKEN = 'cd'.repeat(32);

let certs: WalletCertificates;
let suite: AdminSuite;
let updater: WalletUpdater;
let room: string;
let first: string;
let second: string;

/** What the push service on loopback received: path, topic, body, the client's certificate. */
interface Push {
  path: string;
  topic: string;
  body: string;
  clientCert: string;
}
const pushes: Push[] = [];
let apns: http2.Http2SecureServer;

/** What the Google Wallet API on loopback received, and what its token endpoint refused. */
const patches: { id: string; body: Record<string, unknown>; authorization: string }[] = [];
const googleProblems: string[] = [];
/** While set, the Wallet API answers 503 (Google unavailable). */
let googleDown = false;
let google: http.Server;

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

function startApns(): Promise<number> {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'apns.key',
      '-out',
      'apns.pem',
    ].concat(['-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']),
    { cwd: certs.dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  apns = http2.createSecureServer({
    key: readFileSync(path.join(certs.dir, 'apns.key')),
    cert: readFileSync(path.join(certs.dir, 'apns.pem')),
    // Apple's push service takes the pass type's certificate: it is asked for and recorded.
    requestCert: true,
    rejectUnauthorized: false,
  });
  apns.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const socket = stream.session?.socket as TLSSocket | undefined;
      const peer = socket?.getPeerCertificate();
      const requestPath = String(headers[':path']);
      pushes.push({
        path: requestPath,
        topic: String(headers['apns-topic']),
        body: Buffer.concat(chunks).toString('utf8'),
        clientCert: peer?.fingerprint256 ?? '',
      });
      const gone = requestPath.endsWith(GONE_TOKEN);
      stream.respond({ ':status': gone ? 410 : 200, 'content-type': 'application/json' });
      stream.end(gone ? JSON.stringify({ reason: 'Unregistered' }) : '');
    });
  });
  return new Promise((resolve) =>
    apns.listen(0, '127.0.0.1', () => resolve((apns.address() as AddressInfo).port)),
  );
}

function startGoogle(): Promise<number> {
  google = http.createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const port = (google.address() as AddressInfo).port;
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(body);
        try {
          expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
          const key = await importSPKI(certs.googlePublicKey, 'RS256');
          const { payload } = await jwtVerify(form.get('assertion') ?? '', key, {
            issuer: certs.env.GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL,
            audience: `http://127.0.0.1:${port}/token`,
            currentDate: clock.now(),
          });
          expect(payload.scope).toBe('https://www.googleapis.com/auth/wallet_object.issuer');
        } catch (err) {
          googleProblems.push(String(err));
          res.writeHead(400).end('{"error":"invalid_grant"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'ya29.loopback', expires_in: 3599 }));
        return;
      }
      const match = /^\/walletobjects\/v1\/eventTicketObject\/([^/]+)$/.exec(req.url ?? '');
      if (req.method === 'PATCH' && match && googleDown) {
        res.writeHead(503).end('{"error":{"code":503}}');
        return;
      }
      if (req.method === 'PATCH' && match) {
        patches.push({
          id: decodeURIComponent(match[1]!),
          body: JSON.parse(body) as Record<string, unknown>,
          authorization: req.headers.authorization ?? '',
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
        return;
      }
      res.writeHead(404).end();
    })();
  });
  return new Promise((resolve) =>
    google.listen(0, '127.0.0.1', () => resolve((google.address() as AddressInfo).port)),
  );
}

interface PassJson {
  serialNumber: string;
  webServiceURL?: string;
  authenticationToken?: string;
  voided?: boolean;
  barcodes: { message: string }[];
  eventTicket: Record<'secondaryFields', { key: string; value: string }[]>;
}
const passJsonOf = async (res: Response): Promise<PassJson> => {
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
  const files = unzip(Buffer.from(await res.arrayBuffer()));
  return JSON.parse(files.get('pass.json')!.toString('utf8')) as PassJson;
};
const slotOf = (pass: PassJson) =>
  Object.fromEntries(pass.eventTicket.secondaryFields.map((f) => [f.key, f.value]));

/** A request as Apple's wallet sends it: no X-Requested-With, the pass's token if given. */
const wallet = (method: string, url: string, token?: string, body?: unknown, headers = {}) =>
  fetch(`${suite.app.baseUrl}${WEB_SERVICE}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `ApplePass ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

const updatesOf = async (ownerId: string) =>
  (
    await suite.db.pool.query<{ status: string }>(
      'SELECT status FROM wallet_updates WHERE owner_id = $1 ORDER BY created_at',
      [ownerId],
    )
  ).rows.map((r) => r.status);

/** Waits for the wallet reactor's update of the owner, then lets the job send what is due. */
async function sendUpdates(ownerId: string, count: number): Promise<void> {
  await waitFor(
    'the wallet update',
    async () => (await updatesOf(ownerId)).length >= count,
    10_000,
  );
  await waitFor(
    'the wallet update sent',
    async () => {
      await updater.sendDue();
      return (await updatesOf(ownerId)).every((s) => s === 'sent');
    },
    10_000,
  );
}

const move = (c: Client, ownerId: string, ticketId: string, timeSlotId: string) =>
  c.request('POST', `/api/owners/${ownerId}/tickets/${ticketId}/move`, { json: { timeSlotId } });

beforeAll(async () => {
  certs = makeWalletCertificates(PASS_TYPE);
  const apnsPort = await startApns();
  const googlePort = await startGoogle();
  suite = await openAdminSuite(clock, {
    env: {
      ...certs.env,
      PUBLIC_BASE_URL: PUBLIC,
      WALLET_APNS_ORIGIN: `https://127.0.0.1:${apnsPort}`,
      WALLET_APNS_CA_FILE: path.join(certs.dir, 'apns.pem'),
      GOOGLE_WALLET_API_URL: `http://127.0.0.1:${googlePort}/walletobjects/v1/`,
      GOOGLE_WALLET_TOKEN_URL: `http://127.0.0.1:${googlePort}/token`,
    },
  });
  updater = new WalletUpdater({
    pool: suite.db.pool,
    clock,
    logger: createLogger('silent'),
    config: suite.app.config,
    timeZone: TZ,
    checkInCodes: suite.app.deps.checkInCodes,
    intervalMs: 60_000,
  });
  room = await createRoom(suite.admin, 'Taschensaal', { ...OPEN, capacity: 10 });
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
    json: { checkInMinutesBefore: 15 },
  });
  expect(services.status, await services.clone().text()).toBe(200);
  first = await createSlot(suite.admin, room, day(3), '10:00', '12:30', 5);
  second = await createSlot(suite.admin, room, day(4), '14:00', '16:00', 5);
});
afterAll(async () => {
  await updater?.stop();
  await suite?.close();
  await new Promise((r) => apns?.close(r));
  await new Promise((r) => google?.close(r));
  certs?.remove();
});

describe("Apple Wallet's web service", () => {
  it('registers a device; a move pushes to it through APNs and the pass it fetches shows the new slot; a cancel voids it; 410 ends a registration', async () => {
    const b = await bookAsNewVisitor(suite.app.baseUrl, [first], 'en');
    const serial = b.ticketId;
    const pass = await passJsonOf(
      await b.client.get(`/api/owners/${b.ownerId}/tickets/${serial}/wallet.pkpass`),
    );
    expect(pass.webServiceURL).toBe(`${PUBLIC}api/wallet/apple`);
    const token = pass.authenticationToken!;
    expect(token.length).toBeGreaterThanOrEqual(16);
    const registration = (device: string) =>
      `/devices/${device}/registrations/${PASS_TYPE}/${serial}`;

    // Refused: no or another token, another pass type, a malformed push token; nothing kept.
    expect(
      (await wallet('POST', registration(DEVICE), undefined, { pushToken: PUSH_TOKEN })).status,
    ).toBe(401);
    const wrong = await wallet('POST', registration(DEVICE), `${token.slice(1)}x`, {
      pushToken: PUSH_TOKEN,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const otherType = await wallet(
      'POST',
      `/devices/${DEVICE}/registrations/pass.other/${serial}`,
      token,
      { pushToken: PUSH_TOKEN },
    );
    expect(otherType.status).toBe(404);
    const badSerial = await wallet('GET', `/passes/${PASS_TYPE}/not-a-serial`, token);
    expect(badSerial.status).toBe(400);
    expect(badSerial.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const badToken = await wallet('POST', registration(DEVICE), token, { pushToken: 'not hex' });
    expect(badToken.status).toBe(400);
    expect(((await badToken.json()) as { error: string }).error).toBe('validation__error');
    expect((await wallet('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}`)).status).toBe(204);

    expect(
      (await wallet('POST', registration(DEVICE), token, { pushToken: PUSH_TOKEN })).status,
    ).toBe(201);
    expect(
      (await wallet('POST', registration(DEVICE), token, { pushToken: PUSH_TOKEN })).status,
    ).toBe(200);
    expect(
      (await wallet('POST', registration(OTHER_DEVICE), token, { pushToken: GONE_TOKEN })).status,
    ).toBe(201);
    const listed = await wallet('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}`);
    expect(listed.status).toBe(200);
    const { serialNumbers, lastUpdated } = (await listed.json()) as {
      serialNumbers: string[];
      lastUpdated: string;
    };
    expect(serialNumbers).toEqual([serial]);
    const since = `?passesUpdatedSince=${lastUpdated}`;
    expect(
      (await wallet('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}${since}`)).status,
    ).toBe(204);

    // The latest pass: signed as the download, unchanged since its Last-Modified.
    const latest = await wallet('GET', `/passes/${PASS_TYPE}/${serial}`, token);
    const lastModified = latest.headers.get('last-modified')!;
    expect(slotOf(await passJsonOf(latest))).toMatchObject({ date: germanDate(day(3)) });
    expect((await wallet('GET', `/passes/${PASS_TYPE}/${serial}`)).status).toBe(401);
    const unchanged = await wallet('GET', `/passes/${PASS_TYPE}/${serial}`, token, undefined, {
      'if-modified-since': lastModified,
    });
    expect(unchanged.status).toBe(304);

    // The move: one push per device, then the device asks what changed and fetches it.
    clock.advance(60_000);
    const moved = await move(b.client, b.ownerId, serial, second);
    expect(moved.status, await moved.clone().text()).toBe(200);
    const newId = ((await moved.json()) as { id: string }).id;
    await sendUpdates(b.ownerId, 1);
    const signer = new X509Certificate(readFileSync(certs.signerCert)).fingerprint256;
    expect(pushes).toEqual(
      expect.arrayContaining([
        { path: `/3/device/${PUSH_TOKEN}`, topic: PASS_TYPE, body: '{}', clientCert: signer },
        { path: `/3/device/${GONE_TOKEN}`, topic: PASS_TYPE, body: '{}', clientCert: signer },
      ]),
    );
    // APNs answered 410 for the other device: its registration is gone.
    expect(
      (await wallet('GET', `/devices/${OTHER_DEVICE}/registrations/${PASS_TYPE}`)).status,
    ).toBe(204);
    const changed = await wallet('GET', `/devices/${DEVICE}/registrations/${PASS_TYPE}${since}`);
    expect(changed.status).toBe(200);
    const after = (await changed.json()) as { serialNumbers: string[]; lastUpdated: string };
    expect(after.serialNumbers).toEqual([serial]);
    expect(Number(after.lastUpdated)).toBeGreaterThan(Number(lastUpdated));
    const updated = await wallet('GET', `/passes/${PASS_TYPE}/${serial}`, token, undefined, {
      'if-modified-since': lastModified,
    });
    const movedPass = await passJsonOf(updated);
    expect(movedPass.serialNumber).toBe(serial);
    expect(movedPass.voided).toBeUndefined();
    expect(slotOf(movedPass)).toMatchObject({ date: germanDate(day(4)), time: '14:00–16:00' });
    expect(movedPass.barcodes[0]!.message).toBe(suite.app.deps.checkInCodes.codeOf(newId));

    // The cancel: pushed again, the pass voided.
    clock.advance(60_000);
    pushes.length = 0;
    const cancel = await b.client.request(
      'DELETE',
      `/api/owners/${b.ownerId}/tickets?ids=${newId}`,
    );
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    await sendUpdates(b.ownerId, 2);
    expect(pushes).toEqual([
      { path: `/3/device/${PUSH_TOKEN}`, topic: PASS_TYPE, body: '{}', clientCert: signer },
    ]);
    const voided = await passJsonOf(await wallet('GET', `/passes/${PASS_TYPE}/${serial}`, token));
    expect(voided).toMatchObject({ serialNumber: serial, voided: true });

    // The device's log, then its unregistration (once).
    const log = await wallet('POST', '/log', undefined, { logs: ['Request failed: 401'] });
    expect(log.status).toBe(200);
    expect((await wallet('DELETE', registration(DEVICE), token)).status).toBe(200);
    expect((await wallet('DELETE', registration(DEVICE), token)).status).toBe(404);
  });
});

describe('Google Wallet objects', () => {
  it('a handed-out object is patched after a move (the new slot) and a cancel (INACTIVE), with an access token of the service account', async () => {
    const issuer = certs.env.GOOGLE_WALLET_ISSUER_ID!;
    const b = await bookAsNewVisitor(suite.app.baseUrl, [first], 'en');
    const link = await b.client.get(`/api/owners/${b.ownerId}/tickets/${b.ticketId}/google-wallet`);
    expect(link.status, await link.clone().text()).toBe(200);

    const moved = await move(b.client, b.ownerId, b.ticketId, second);
    expect(moved.status, await moved.clone().text()).toBe(200);
    const newId = ((await moved.json()) as { id: string }).id;
    await sendUpdates(b.ownerId, 1);
    expect(googleProblems).toEqual([]);
    const objectId = `${issuer}.${b.ticketId}`;
    const movedPatch = patches.filter((p) => p.id === objectId);
    expect(movedPatch).toHaveLength(1);
    expect(movedPatch[0]!.authorization).toBe('Bearer ya29.loopback');
    expect(movedPatch[0]!.body).toMatchObject({
      id: objectId,
      state: 'ACTIVE',
      ticketNumber: b.bookingNumber,
      barcode: { type: 'QR_CODE', value: suite.app.deps.checkInCodes.codeOf(newId) },
      validTimeInterval: {
        start: { date: instantOf(day(4), '14:00', TZ).toISOString() },
        end: { date: instantOf(day(4), '16:00', TZ).toISOString() },
      },
    });
    expect(movedPatch[0]!.body.classId).toBeUndefined();

    const cancel = await b.client.request(
      'DELETE',
      `/api/owners/${b.ownerId}/tickets?ids=${newId}`,
    );
    expect(cancel.status).toBe(200);
    await sendUpdates(b.ownerId, 2);
    const last = patches.filter((p) => p.id === objectId).at(-1)!;
    expect(last.body).toMatchObject({ id: objectId, state: 'INACTIVE' });
  });

  it('a handed-out object is patched with the new seat after staff moved its ticket to another seat', async () => {
    const seated = await createRoom(suite.admin, 'Platzsaal', { ...OPEN, capacity: 10 });
    const plan = await suite.admin.request('PUT', `/api/admin/rooms/${seated}/seats`, {
      json: { seats: ['A1', 'A2', 'A3'].map((label, i) => ({ label, x: 10 + 20 * i, y: 10 })) },
    });
    expect(plan.status).toBe(200);
    const seatIds = new Map(
      ((await plan.json()) as { seats: { id: string; label: string }[] }).seats.map((x) => [
        x.label,
        x.id,
      ]),
    );
    const slot = await createSlot(suite.admin, seated, day(5), '09:00', '11:00', 3);
    const b = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'en');
    const link = await b.client.get(`/api/owners/${b.ownerId}/tickets/${b.ticketId}/google-wallet`);
    expect(link.status, await link.clone().text()).toBe(200);

    const desk = await suite.admin.request('PUT', `/api/admin/tickets/${b.ticketId}/seat`, {
      json: { seatId: seatIds.get('A3'), reason: 'Wunsch am Schalter' },
    });
    expect(desk.status, await desk.clone().text()).toBe(200);
    await sendUpdates(b.ownerId, 1);
    const objectId = `${certs.env.GOOGLE_WALLET_ISSUER_ID!}.${b.ticketId}`;
    const patched = patches.filter((p) => p.id === objectId);
    expect(patched).toHaveLength(1);
    expect(patched[0]!.body).toMatchObject({
      id: objectId,
      state: 'ACTIVE',
      seatInfo: { seat: { defaultValue: { value: 'A3' } } },
    });

    // Two changes before the job's next round: the first one's update no longer waits for its
    // seat, which the read models will not show again; the last patch names the last seat.
    for (const label of ['A1', 'A2']) {
      const again = await suite.admin.request('PUT', `/api/admin/tickets/${b.ticketId}/seat`, {
        json: { seatId: seatIds.get(label) },
      });
      expect(again.status, await again.clone().text()).toBe(200);
    }
    await waitFor(
      'the read models show the last seat',
      async () =>
        (
          await suite.db.pool.query<{ label: string }>(
            'SELECT seat_label AS label FROM rm_tickets WHERE id = $1',
            [b.ticketId],
          )
        ).rows[0]?.label === 'A2',
      10_000,
    );
    await sendUpdates(b.ownerId, 3);
    expect(patches.filter((p) => p.id === objectId).at(-1)!.body).toMatchObject({
      seatInfo: { seat: { defaultValue: { value: 'A2' } } },
    });
  });

  it('an update Google does not take is tried again after growing delays, then given up', async () => {
    const b = await bookAsNewVisitor(suite.app.baseUrl, [first], 'en');
    await b.client.get(`/api/owners/${b.ownerId}/tickets/${b.ticketId}/google-wallet`);
    googleDown = true;
    try {
      const cancel = await b.client.request(
        'DELETE',
        `/api/owners/${b.ownerId}/tickets?ids=${b.ticketId}`,
      );
      expect(cancel.status).toBe(200);
      await waitFor(
        'the wallet update',
        async () => (await updatesOf(b.ownerId)).length > 0,
        10_000,
      );
      const state = async () =>
        (
          await suite.db.pool.query<{ status: string; attempts: number; last_error: string }>(
            'SELECT status, attempts, last_error FROM wallet_updates WHERE owner_id = $1',
            [b.ownerId],
          )
        ).rows[0]!;
      await waitFor(
        'the first attempt',
        async () => (await updater.sendDue(), (await state()).attempts === 1),
        10_000,
      );
      expect(await state()).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await state()).last_error).toContain('503');
      for (const [i, delay] of WALLET_UPDATE_RETRY_DELAYS_MS.entries()) {
        // Not before its delay.
        await updater.sendDue();
        expect((await state()).attempts).toBe(i + 1);
        clock.advance(delay);
        await updater.sendDue();
        expect((await state()).attempts).toBe(i + 2);
      }
      expect(await state()).toMatchObject({
        status: 'failed',
        attempts: WALLET_UPDATE_RETRY_DELAYS_MS.length + 1,
      });
    } finally {
      googleDown = false;
    }
  });

  it('a booking whose passes were never saved gets no update', async () => {
    const b = await bookAsNewVisitor(suite.app.baseUrl, [first], 'en');
    const cancel = await b.client.request(
      'DELETE',
      `/api/owners/${b.ownerId}/tickets?ids=${b.ticketId}`,
    );
    expect(cancel.status).toBe(200);
    // The reactor has passed the cancellation once a later owner's update is there.
    const later = await bookAsNewVisitor(suite.app.baseUrl, [first], 'en');
    await later.client.get(`/api/owners/${later.ownerId}/tickets/${later.ticketId}/google-wallet`);
    await later.client.request(
      'DELETE',
      `/api/owners/${later.ownerId}/tickets?ids=${later.ticketId}`,
    );
    await sendUpdates(later.ownerId, 1);
    expect(await updatesOf(b.ownerId)).toEqual([]);
  });
});

describe('erasure', () => {
  it("removes a booking's registrations, handed-out objects and pending updates with its personal data", async () => {
    const b = await bookAsNewVisitor(suite.app.baseUrl, [first], 'en');
    const pass = await passJsonOf(
      await b.client.get(`/api/owners/${b.ownerId}/tickets/${b.ticketId}/wallet.pkpass`),
    );
    const token = pass.authenticationToken!;
    const registration = `/devices/${DEVICE}/registrations/${PASS_TYPE}/${b.ticketId}`;
    expect((await wallet('POST', registration, token, { pushToken: PUSH_TOKEN })).status).toBe(201);
    await b.client.get(`/api/owners/${b.ownerId}/tickets/${b.ticketId}/google-wallet`);
    const count = async (table: string) =>
      Number(
        (
          await suite.db.pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM ${table} WHERE owner_id = $1`,
            [b.ownerId],
          )
        ).rows[0]!.n,
      );
    expect(await count('wallet_apple_passes')).toBe(1);
    expect(await count('wallet_google_objects')).toBe(1);
    // The day after the last booked day, the erasure job deletes them with the personal data.
    clock.set(new Date(instantOf(day(5), '00:30', TZ)));
    expect(await erasePersonalData(suite.app.deps)).toBeGreaterThanOrEqual(1);
    expect(await count('wallet_apple_passes')).toBe(0);
    expect(await count('wallet_google_objects')).toBe(0);
    const left = await suite.db.pool.query(
      'SELECT 1 FROM wallet_apple_registrations WHERE serial = $1',
      [b.ticketId],
    );
    expect(left.rowCount).toBe(0);
    // A device registering again finds no booking.
    expect((await wallet('POST', registration, token, { pushToken: PUSH_TOKEN })).status).toBe(404);
  });
});
