// Wallet passes keep to their owner (docs/product.md#wallet-passes): another visitor's ticket is
// not found by an owner id that is not its own, a pass holds no name, address or phone anywhere,
// a released ticket's pass is voided (Apple) or INACTIVE (Google), and the personal data's
// erasure takes the passes with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSPKI, jwtVerify } from 'jose';
import { erasePersonalData, releaseNoShows, releaseUnconfirmed } from '@rr/command-service';
import { addDays, instantOf, ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { makeWalletCertificates, unzip, type WalletCertificates } from '../support/wallet-certs.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const TZ = 'Europe/Vienna';
const PASS_TYPE = 'pass.at.example.reading-rooms';
const OPEN = { openStartValue: 0, openStartType: 'DAY', openEndValue: 60, openEndType: 'DAY' };
const MINUTE = 60_000;
// Days fixed when the suite starts: the tests below move the clock forward.
const today = todayIn(clock.now(), TZ);
const NO_SHOW_DAY = addDays(today, 1);
const ERASED_DAY = addDays(today, 2);
const LATER_DAY = addDays(today, 3);

let certs: WalletCertificates;
let suite: AdminSuite;
let seatRoom: string;
let plainRoom: string;
let seated: string;
let plain: string;

const passUrl = (ownerId: string, ticketId: string) =>
  `/api/owners/${ownerId}/tickets/${ticketId}/wallet.pkpass`;
const googleUrl = (ownerId: string, ticketId: string) =>
  `/api/owners/${ownerId}/tickets/${ticketId}/google-wallet`;

/** Every file of a ticket's .pkpass, by name (the answer checked to be a pass). */
async function passFilesOf(c: Client, ownerId: string, ticketId: string) {
  const res = await c.get(passUrl(ownerId, ticketId));
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
  const files = unzip(Buffer.from(await res.arrayBuffer()));
  return { files, headers: [...res.headers.entries()].flat().join('\n') };
}

const passJson = (files: Map<string, Buffer>) =>
  JSON.parse(files.get('pass.json')!.toString('utf8')) as {
    serialNumber: string;
    description: string;
    voided?: boolean;
    eventTicket: { backFields: { key: string; value: string }[] };
  };

/** A ticket's Google Wallet save link, its JWT verified; answers the header and claims whole. */
async function googleJwtOf(c: Client, ownerId: string, ticketId: string) {
  const res = await c.get(googleUrl(ownerId, ticketId));
  expect(res.status, await res.clone().text()).toBe(200);
  const { saveUrl } = (await res.json()) as { saveUrl: string };
  const jwt = saveUrl.slice(saveUrl.lastIndexOf('/') + 1);
  const { payload, protectedHeader } = await jwtVerify(
    jwt,
    await importSPKI(certs.googlePublicKey, 'RS256'),
    { audience: 'google', currentDate: clock.now() },
  );
  return { saveUrl, header: protectedHeader, payload };
}

const objectOf = (payload: Record<string, unknown>) =>
  (payload.payload as { eventTicketObjects: { id: string; state: string }[] })
    .eventTicketObjects[0]!;

/** Every string of a JSON value, however deep (keys too). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [k, ...stringsOf(v)]);
  return typeof value === 'number' || typeof value === 'boolean' ? [String(value)] : [];
}

/** The 404 of an owner and ticket that do not belong together, as the visitor's client gets it. */
async function notFound(c: Client, url: string) {
  const res = await c.get(url);
  expect(res.status, url).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const text = await res.text();
  expect((JSON.parse(text) as { error: string }).error).toBe('not_found');
  return text;
}

beforeAll(async () => {
  certs = makeWalletCertificates(PASS_TYPE);
  // With the web service, so Apple passes carry everything a pass can (its address and token).
  suite = await openAdminSuite(clock, {
    env: { ...certs.env, PUBLIC_BASE_URL: 'https://library.example/' },
  });
  seatRoom = await createRoom(suite.admin, 'Taschensaal', { ...OPEN, capacity: 4 });
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${seatRoom}/services`, {
    json: { checkInMinutesBefore: 15 },
  });
  expect(services.status, await services.clone().text()).toBe(200);
  const seats = await suite.admin.request('PUT', `/api/admin/rooms/${seatRoom}/seats`, {
    json: {
      seats: ['A1', 'A2', 'A3', 'A4'].map((label, i) => ({ label, attributes: [], x: i, y: 0 })),
    },
  });
  expect(seats.status, await seats.clone().text()).toBe(200);
  plainRoom = await createRoom(suite.admin, 'Schlichter Saal', OPEN);
  seated = await createSlot(suite.admin, seatRoom, LATER_DAY, '10:00', '12:30', 4);
  plain = await createSlot(suite.admin, plainRoom, LATER_DAY, '09:00', '11:00', 5);
});
afterAll(async () => {
  await suite?.close();
  certs?.remove();
});

describe("another visitor's ticket", () => {
  it('is not found by an owner id not its own, answered as an unknown ticket and recorded nowhere', async () => {
    const a = await bookAsNewVisitor(suite.app.baseUrl, [plain], 'en');
    const b = await bookAsNewVisitor(suite.app.baseUrl, [seated], 'en', {
      firstName: 'Benedikta',
      lastName: 'Zweitbucherin',
      email: 'benedikta.zweitbucherin@example.at',
    });
    // Both tickets are real: each owner gets its own pass.
    await passFilesOf(b.client, b.ownerId, b.ticketId);
    await passFilesOf(a.client, a.ownerId, a.ticketId);

    const never = '00000000-0000-4000-8000-000000000000';
    for (const url of [passUrl, googleUrl]) {
      // Visitor A asks with its own owner id for B's ticket, as A's browser would.
      const answer = await notFound(a.client, url(a.ownerId, b.ticketId));
      // The same answer as for a ticket that never was: B's ticket's existence is not told.
      expect(answer).toBe(await notFound(a.client, url(a.ownerId, never)));
      for (const secret of [
        b.bookingNumber,
        b.ownerId,
        'Taschensaal',
        'A1',
        'Benedikta',
        'Zweitbucherin',
        '10:00',
      ])
        expect(answer, secret).not.toContain(secret);
    }
    // No Google object was recorded for B's ticket by A's request (the wallet update job's list).
    const recorded = await suite.db.pool.query(
      'SELECT 1 FROM wallet_google_objects WHERE serial = $1',
      [b.ticketId],
    );
    expect(recorded.rowCount).toBe(0);
  });
});

describe('a pass holds no personal data', () => {
  it("has the visitor's name, e-mail address and phone in none of its files, nor in the Google save link", async () => {
    const visitor = {
      firstName: 'Quirinella',
      lastName: 'Vossbergerova',
      email: 'q.vossbergerova-mailbox@example.at',
      phone: '+436609187225',
    };
    const b = await bookAsNewVisitor(suite.app.baseUrl, [seated], 'de', visitor);
    const personal = [
      visitor.firstName,
      visitor.lastName,
      visitor.email,
      // The address's parts each identify the visitor too.
      'q.vossbergerova-mailbox',
      visitor.phone,
      // The phone however it might be written (without the plus, without the country code).
      visitor.phone.slice(1),
      visitor.phone.slice(3),
    ].map((s) => s.toLowerCase());
    const expectNone = (where: string, text: string) => {
      const lower = text.toLowerCase();
      for (const value of personal) expect(lower, `${value} in ${where}`).not.toContain(value);
      // The phone's digits with any separators between them.
      expect(lower.replace(/[^\d]/g, ''), `phone digits in ${where}`).not.toContain(
        visitor.phone.slice(3),
      );
    };

    const { files, headers } = await passFilesOf(b.client, b.ownerId, b.ticketId);
    expectNone('the answer’s headers', headers);
    for (const [name, content] of files) expectNone(name, content.toString('latin1'));
    const pass = passJson(files);
    // What a pass shows is there (the check reads a filled pass): the room in its description,
    // the library on its back.
    expect(pass.description).toContain('Taschensaal');
    expect(pass.eventTicket.backFields.map((f) => f.key)).toContain('library');
    for (const text of stringsOf(pass)) expectNone('pass.json’s texts', text);

    const { saveUrl, header, payload } = await googleJwtOf(b.client, b.ownerId, b.ticketId);
    expectNone('the save link', decodeURIComponent(saveUrl));
    expect(objectOf(payload).state).toBe('ACTIVE');
    // The token whole: its header and every claim, the class and the object as saved.
    for (const text of stringsOf({ header, payload })) expectNone('the Google JWT', text);
    expectNone('the Google JWT', JSON.stringify({ header, payload }));
  });
});

describe('a released ticket', () => {
  it('released as a no-show: the Apple pass is voided, the Google object INACTIVE', async () => {
    const room = await createRoom(suite.admin, 'Prüfungssaal', OPEN);
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 },
    });
    expect(services.status, await services.clone().text()).toBe(200);
    const slot = await createSlot(suite.admin, room, NO_SHOW_DAY, '10:00', '12:00', 3);
    const b = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'en');
    expect(passJson((await passFilesOf(b.client, b.ownerId, b.ticketId)).files).voided).toBe(
      undefined,
    );
    expect(objectOf((await googleJwtOf(b.client, b.ownerId, b.ticketId)).payload).state).toBe(
      'ACTIVE',
    );

    clock.set(instantOf(NO_SHOW_DAY, '10:20', TZ));
    expect(await releaseNoShows(suite.app.deps)).toBe(1);
    // The job answers no position: the read model the pass is made from follows shortly.
    await expect
      .poll(
        async () => passJson((await passFilesOf(b.client, b.ownerId, b.ticketId)).files).voided,
        { timeout: budget(5000) },
      )
      .toBe(true);
    const pass = passJson((await passFilesOf(b.client, b.ownerId, b.ticketId)).files);
    expect(pass.serialNumber).toBe(b.ticketId);
    expect(objectOf((await googleJwtOf(b.client, b.ownerId, b.ticketId)).payload)).toMatchObject({
      id: `${certs.env.GOOGLE_WALLET_ISSUER_ID}.${b.ticketId}`,
      state: 'INACTIVE',
    });
  });

  it('released because its confirmation lapsed: voided and INACTIVE too', async () => {
    const room = await createRoom(suite.admin, 'Zeitschriftenraum', OPEN);
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { confirmBookingMinutes: 30 },
    });
    expect(services.status, await services.clone().text()).toBe(200);
    const slot = await createSlot(suite.admin, room, LATER_DAY, '14:00', '16:00', 3);
    const b = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'de');
    expect(passJson((await passFilesOf(b.client, b.ownerId, b.ticketId)).files).voided).toBe(
      undefined,
    );

    clock.set(new Date(clock.now().getTime() + 30 * MINUTE));
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(1);
    await expect
      .poll(
        async () => passJson((await passFilesOf(b.client, b.ownerId, b.ticketId)).files).voided,
        { timeout: budget(5000) },
      )
      .toBe(true);
    expect(objectOf((await googleJwtOf(b.client, b.ownerId, b.ticketId)).payload).state).toBe(
      'INACTIVE',
    );
  });
});

describe('erasure', () => {
  it('once the booking’s personal data is erased, neither pass is found', async () => {
    const slot = await createSlot(suite.admin, plainRoom, ERASED_DAY, '09:00', '11:00', 5);
    const b = await bookAsNewVisitor(suite.app.baseUrl, [slot], 'en');
    await passFilesOf(b.client, b.ownerId, b.ticketId);
    await googleJwtOf(b.client, b.ownerId, b.ticketId);

    // The day after the last booked day, the erasure job deletes the personal data.
    clock.set(instantOf(addDays(ERASED_DAY, 1), '00:30', TZ));
    expect(await erasePersonalData(suite.app.deps)).toBeGreaterThanOrEqual(1);
    const left = await suite.db.pool.query('SELECT 1 FROM personal_data WHERE owner_id = $1', [
      b.ownerId,
    ]);
    expect(left.rowCount).toBe(0);
    for (const url of [passUrl, googleUrl]) {
      const answer = await notFound(b.client, url(b.ownerId, b.ticketId));
      expect(answer).not.toContain(b.bookingNumber);
    }
  });
});
