// Wallet passes of tickets (docs/product.md#wallet-passes): Apple Wallet's signed .pkpass,
// checked file by file and with openssl against throwaway certificates, and Google Wallet's save
// link, its JWT verified with the service account's public key; both follow a move and a cancel.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, instantOf, loadConfig, ManualClock, todayIn } from '@rr/platform';
import { applePassToken } from '@rr/integrations';
import { applePassSignerOf } from '../../integrations/src/wallet/apple.ts';
import {
  Client,
  openAdminSuite,
  startTestApp,
  type AdminSuite,
  type TestApp,
} from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot } from '../support/fixtures.ts';
import { makeWalletCertificates, unzip, type WalletCertificates } from '../support/wallet-certs.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const TZ = 'Europe/Vienna';
const day = (n: number) => addDays(todayIn(clock.now(), TZ), n);
const PASS_TYPE = 'pass.at.example.reading-rooms';
const LIBRARY = 'Stadtbibliothek Beispielstadt';
const OPEN = { openStartValue: 0, openStartType: 'DAY', openEndValue: 60, openEndType: 'DAY' };
const germanDate = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;

let certs: WalletCertificates;
let suite: AdminSuite;
let bare: TestApp;
let checkInRoom: string;
let plainRoom: string;
let first: string;
let second: string;
let plain: string;

interface Field {
  key: string;
  value: string;
}
interface PassJson {
  serialNumber: string;
  passTypeIdentifier: string;
  teamIdentifier: string;
  organizationName: string;
  voided?: boolean;
  barcodes: { format: string; message: string }[];
  relevantDates: { startDate: string; endDate: string }[];
  eventTicket: Record<'primaryFields' | 'secondaryFields' | 'auxiliaryFields', Field[]>;
}

const fieldsOf = (pass: PassJson) =>
  Object.fromEntries(
    [
      ...pass.eventTicket.primaryFields,
      ...pass.eventTicket.secondaryFields,
      ...pass.eventTicket.auxiliaryFields,
    ].map((f) => [f.key, f.value]),
  );

/**
 * Downloads a ticket's pass and checks it as a wallet would: every file's SHA-1 in the manifest,
 * the manifest signed (PKCS #7, detached) by the configured pass certificate under the root.
 */
async function passOf(c: Client, ownerId: string, ticketId: string): Promise<PassJson> {
  const res = await c.get(`/api/owners/${ownerId}/tickets/${ticketId}/wallet.pkpass`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
  const files = unzip(Buffer.from(await res.arrayBuffer()));
  expect([...files.keys()].sort()).toEqual(
    ['icon.png', 'icon@2x.png', 'manifest.json', 'pass.json', 'signature'].sort(),
  );
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<
    string,
    string
  >;
  expect(Object.keys(manifest).sort()).toEqual(['icon.png', 'icon@2x.png', 'pass.json']);
  for (const [name, sha1] of Object.entries(manifest))
    expect(createHash('sha1').update(files.get(name)!).digest('hex'), name).toBe(sha1);
  for (const name of ['manifest.json', 'signature'])
    writeFileSync(path.join(certs.dir, name), files.get(name)!);
  // Exit status 0 or execFileSync throws; the signer it names is the configured certificate.
  execFileSync(
    'openssl',
    ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature']
      .concat(['-content', 'manifest.json', '-CAfile', certs.rootCert, '-purpose', 'any'])
      .concat(['-signer', 'signed-by.pem', '-out', '/dev/null']),
    { cwd: certs.dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const fingerprint = (file: string) =>
    execFileSync('openssl', ['x509', '-noout', '-fingerprint', '-sha256', '-in', file]).toString();
  expect(fingerprint(path.join(certs.dir, 'signed-by.pem'))).toBe(fingerprint(certs.signerCert));
  return JSON.parse(files.get('pass.json')!.toString('utf8')) as PassJson;
}

interface GoogleObject {
  id: string;
  classId: string;
  state: string;
  ticketNumber: string;
  seatInfo?: { seat: { defaultValue: { value: string } } };
  barcode: { type: string; value: string };
  validTimeInterval: { start: { date: string }; end: { date: string } };
  textModulesData: { id: string; body: string }[];
}

/** A ticket's Google Wallet save link, its JWT verified with the service account's public key. */
async function googleObjectOf(c: Client, ownerId: string, ticketId: string): Promise<GoogleObject> {
  const res = await c.get(`/api/owners/${ownerId}/tickets/${ticketId}/google-wallet`);
  expect(res.status, await res.clone().text()).toBe(200);
  const { saveUrl } = (await res.json()) as { saveUrl: string };
  expect(saveUrl.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
  const jwt = saveUrl.slice(saveUrl.lastIndexOf('/') + 1);
  const key = await importSPKI(certs.googlePublicKey, 'RS256');
  const { payload, protectedHeader } = await jwtVerify(jwt, key, {
    audience: 'google',
    issuer: certs.env.GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL,
    currentDate: clock.now(),
  });
  expect(protectedHeader.alg).toBe('RS256');
  expect(payload.typ).toBe('savetowallet');
  const objects = (payload.payload as { eventTicketObjects: GoogleObject[] }).eventTicketObjects;
  expect(objects).toHaveLength(1);
  return objects[0]!;
}

const move = (c: Client, ownerId: string, ticketId: string, timeSlotId: string) =>
  c.request('POST', `/api/owners/${ownerId}/tickets/${ticketId}/move`, { json: { timeSlotId } });

beforeAll(async () => {
  certs = makeWalletCertificates(PASS_TYPE);
  suite = await openAdminSuite(clock, { env: { ...certs.env, LIBRARY_NAME: LIBRARY } });
  // The same database served by an app without the wallets' settings.
  bare = await startTestApp(suite.db, clock);
  checkInRoom = await createRoom(suite.admin, 'Taschensaal', { ...OPEN, capacity: 2 });
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${checkInRoom}/services`, {
    json: { checkInMinutesBefore: 15 },
  });
  expect(services.status, await services.clone().text()).toBe(200);
  const seats = await suite.admin.request('PUT', `/api/admin/rooms/${checkInRoom}/seats`, {
    json: { seats: [{ label: 'A1', attributes: [], x: 10, y: 10 }] },
  });
  expect(seats.status, await seats.clone().text()).toBe(200);
  plainRoom = await createRoom(suite.admin, 'Schlichter Saal', OPEN);
  first = await createSlot(suite.admin, checkInRoom, day(3), '10:00', '12:30', 1);
  second = await createSlot(suite.admin, checkInRoom, day(4), '14:00', '16:00', 1);
  plain = await createSlot(suite.admin, plainRoom, day(3), '09:00', '11:00', 5);
});
afterAll(async () => {
  await bare?.close();
  await suite?.close();
  certs?.remove();
});

describe('Apple Wallet passes', () => {
  it('a signed event ticket of the slot, its seat and check-in reference; a move keeps the serial and shows the new slot; a cancel voids it', async () => {
    const b = await bookAsNewVisitor(suite.app.baseUrl, [first], 'en');
    const pass = await passOf(b.client, b.ownerId, b.ticketId);
    expect(pass).toMatchObject({
      serialNumber: b.ticketId,
      passTypeIdentifier: PASS_TYPE,
      teamIdentifier: 'TEAM123456',
      organizationName: LIBRARY,
    });
    expect(pass.voided).toBeUndefined();
    expect(fieldsOf(pass)).toEqual({
      room: 'Taschensaal',
      date: germanDate(day(3)),
      time: '10:00–12:30',
      seat: 'A1',
      number: b.bookingNumber,
    });
    expect(pass.barcodes[0]).toMatchObject({
      format: 'PKBarcodeFormatQR',
      message: suite.app.deps.checkInCodes.codeOf(b.ticketId),
    });
    expect(new Date(pass.relevantDates[0]!.startDate)).toEqual(instantOf(day(3), '10:00', TZ));
    expect(new Date(pass.relevantDates[0]!.endDate)).toEqual(instantOf(day(3), '12:30', TZ));

    const moved = await move(b.client, b.ownerId, b.ticketId, second);
    expect(moved.status, await moved.clone().text()).toBe(200);
    const newId = ((await moved.json()) as { id: string }).id;
    // By the id the wallet has and by the new ticket's: the same pass, showing the new slot.
    for (const id of [b.ticketId, newId]) {
      const after = await passOf(b.client, b.ownerId, id);
      expect(after.serialNumber).toBe(b.ticketId);
      expect(after.voided).toBeUndefined();
      expect(fieldsOf(after)).toMatchObject({ date: germanDate(day(4)), time: '14:00–16:00' });
      expect(after.barcodes[0]!.message).toBe(suite.app.deps.checkInCodes.codeOf(newId));
    }

    const cancel = await b.client.request(
      'DELETE',
      `/api/owners/${b.ownerId}/tickets?ids=${newId}`,
    );
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    const voided = await passOf(b.client, b.ownerId, b.ticketId);
    expect(voided).toMatchObject({ serialNumber: b.ticketId, voided: true });
  });

  it('without check-in the barcode carries the booking number; German texts; no seat without a plan', async () => {
    const b = await bookAsNewVisitor(suite.app.baseUrl, [plain], 'de');
    const pass = await passOf(b.client, b.ownerId, b.ticketId);
    expect(fieldsOf(pass)).toEqual({
      room: 'Schlichter Saal',
      date: germanDate(day(3)),
      time: '09:00–11:00 Uhr',
      number: b.bookingNumber,
    });
    expect(pass.barcodes[0]!.message).toBe(b.bookingNumber);
  });

  it('an unknown owner or ticket is not found', async () => {
    const b = await bookAsNewVisitor(suite.app.baseUrl, [plain], 'de');
    const c = new Client(suite.app.baseUrl);
    for (const url of [
      `/api/owners/${'0'.repeat(32)}/tickets/${b.ticketId}/wallet.pkpass`,
      `/api/owners/${b.ownerId}/tickets/00000000-0000-4000-8000-000000000000/wallet.pkpass`,
      `/api/owners/not-an-owner/tickets/${b.ticketId}/wallet.pkpass`,
      `/api/owners/${'0'.repeat(32)}/tickets/${b.ticketId}/google-wallet`,
    ]) {
      const res = await c.get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { error: string }).error).toBe('not_found');
    }
  });
});

describe('Google Wallet save links', () => {
  it('an event ticket object under the first ticket of the chain: the new slot after a move, INACTIVE after a cancel', async () => {
    const issuer = certs.env.GOOGLE_WALLET_ISSUER_ID!;
    const b = await bookAsNewVisitor(suite.app.baseUrl, [plain], 'en');
    const object = await googleObjectOf(b.client, b.ownerId, b.ticketId);
    expect(object).toMatchObject({
      id: `${issuer}.${b.ticketId}`,
      classId: `${issuer}.reading-room-reservation`,
      state: 'ACTIVE',
      ticketNumber: b.bookingNumber,
      barcode: { type: 'QR_CODE', value: b.bookingNumber },
    });
    expect(object.seatInfo).toBeUndefined();
    expect(new Date(object.validTimeInterval.start.date)).toEqual(instantOf(day(3), '09:00', TZ));

    const s = await bookAsNewVisitor(suite.app.baseUrl, [first], 'en');
    const withSeat = await googleObjectOf(s.client, s.ownerId, s.ticketId);
    expect(withSeat.seatInfo?.seat.defaultValue.value).toBe('A1');
    expect(withSeat.barcode.value).toBe(suite.app.deps.checkInCodes.codeOf(s.ticketId));
    expect(withSeat.textModulesData.find((m) => m.id === 'room')?.body).toBe('Taschensaal');

    const moved = await move(s.client, s.ownerId, s.ticketId, second);
    expect(moved.status, await moved.clone().text()).toBe(200);
    const newId = ((await moved.json()) as { id: string }).id;
    const after = await googleObjectOf(s.client, s.ownerId, newId);
    expect(after).toMatchObject({ id: `${issuer}.${s.ticketId}`, state: 'ACTIVE' });
    expect(new Date(after.validTimeInterval.start.date)).toEqual(instantOf(day(4), '14:00', TZ));
    expect(after.textModulesData.find((m) => m.id === 'time')?.body).toBe('14:00–16:00');

    const cancel = await s.client.request(
      'DELETE',
      `/api/owners/${s.ownerId}/tickets?ids=${newId}`,
    );
    expect(cancel.status).toBe(200);
    expect((await googleObjectOf(s.client, s.ownerId, s.ticketId)).state).toBe('INACTIVE');
  });
});

describe('a server without the wallets’ settings', () => {
  it('refuses passes with wallet__not_configured and tells the visitor app so', async () => {
    const b = await bookAsNewVisitor(suite.app.baseUrl, [plain], 'de');
    const c = new Client(bare.baseUrl);
    for (const [kind, url] of [
      ['apple', `/api/owners/${b.ownerId}/tickets/${b.ticketId}/wallet.pkpass`],
      ['google', `/api/owners/${b.ownerId}/tickets/${b.ticketId}/google-wallet`],
    ] as const) {
      const res = await c.get(url);
      expect(res.status, url).toBe(404);
      expect(await res.json()).toMatchObject({ error: 'wallet__not_configured', payload: [kind] });
    }
    // Apple Wallet's web service too (a pass's token made by the configured server).
    const registered = await fetch(
      `${bare.baseUrl}/api/wallet/apple/v1/devices/device1/registrations/${PASS_TYPE}/${b.ticketId}`,
      {
        method: 'POST',
        headers: {
          authorization: `ApplePass ${applePassToken(suite.app.deps.checkInCodes, b.ticketId)}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ pushToken: 'ab'.repeat(32) }),
      },
    );
    expect(registered.status).toBe(404);
    expect(await registered.json()).toMatchObject({ error: 'wallet__not_configured' });
    const settings = async (app: { baseUrl: string }) =>
      ((await (await new Client(app.baseUrl).get('/api/settings')).json()) as { wallets: unknown })
        .wallets;
    expect(await settings(bare)).toEqual({ apple: false, google: false });
    expect(await settings(suite.app)).toEqual({ apple: true, google: true });
    // The signer's key opens only with its passphrase: a wrong one stops start-up.
    expect(readFileSync(certs.signerKey, 'utf8')).toContain('ENCRYPTED PRIVATE KEY');
    const config = (passphrase: string) =>
      loadConfig({ ...certs.env, WALLET_SIGNER_KEY_PASSPHRASE: passphrase });
    expect(applePassSignerOf(config(certs.passphrase))?.passTypeId).toBe(PASS_TYPE);
    expect(() => applePassSignerOf(config('not the passphrase'))).toThrow();
  });
});
