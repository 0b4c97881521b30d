import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite, type TestApp } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

// Members-only rooms (docs/product.md#room-services). Monday 23 Nov 2026, 10:00 in Vienna.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let suite: AdminSuite;
let app: TestApp;
let admin: Client;

type Problem = { error: string; payload: string[]; errors?: { field: string; message: string }[] };
const owner = {
  salutation: 'MS',
  firstName: 'Anna',
  lastName: 'Musterfrau',
  phone: '+436641234567',
  language: 'de',
};
const DOMAINS = ['uibk.ac.at', 'student.uibk.ac.at'];

const services = (id: string, json: Record<string, unknown>) =>
  admin.request('PUT', `/api/admin/rooms/${id}/services`, { json });
async function cartOf(c: Client, timeSlotId: string): Promise<string> {
  const r = await c.request('POST', '/api/transactions', { json: { timeSlotId } });
  expect(r.status).toBe(201);
  return ((await r.json()) as { transactionId: string }).transactionId;
}
async function bookAs(timeSlotId: string, email: string): Promise<Response> {
  const v = new Client(app.baseUrl);
  const tx = await cartOf(v, timeSlotId);
  return v.request('PUT', `/api/transactions/${tx}/booking`, { json: { ...owner, email } });
}
/** The room as visitors read it (asked by the admin's client, which waits for its writes). */
async function roomServices(id: string): Promise<Record<string, unknown>> {
  const res = await admin.get(`/api/rooms/${id}`);
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return (JSON.parse(body) as { services: Record<string, unknown> }).services;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  ({ app, admin } = suite);
});
afterAll(async () => {
  await suite.close();
});

describe('members-only rooms', () => {
  it('are set with the room services, normalised, shown to visitors, and off when left out', async () => {
    const id = await createRoom(admin, 'Members room');
    expect(await roomServices(id)).not.toHaveProperty('allowedEmailDomains');
    const set = await services(id, {
      allowedEmailDomains: [' UIBK.ac.at ', '@student.uibk.ac.at', 'uibk.ac.at'],
    });
    expect(set.status).toBe(200);
    expect((await roomServices(id)).allowedEmailDomains).toEqual(DOMAINS);
    const bad = await services(id, { allowedEmailDomains: ['uibk.ac.at', 'not a domain'] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Problem).errors).toEqual([
      expect.objectContaining({
        field: 'allowedEmailDomains.1',
        message: 'Enter a domain name, such as uni.example',
      }),
    ]);
    // Left out (as every earlier request): everyone again, and the event has no such field.
    expect((await services(id, { reminderHoursBefore: 24 })).status).toBe(200);
    expect(await roomServices(id)).not.toHaveProperty('allowedEmailDomains');
    const last = await suite.db.pool.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM events WHERE stream_id = $1 AND event_type = 'RoomServicesChanged'
        ORDER BY stream_version DESC LIMIT 1`,
      [`room-${id}`],
    );
    expect(last.rows[0]!.data).not.toHaveProperty('allowedEmailDomains');
  });

  it('refuse a booking at another domain, naming their domains; subdomains only when listed', async () => {
    const id = await createRoom(admin, 'Members booking');
    expect((await services(id, { allowedEmailDomains: DOMAINS })).status).toBe(200);
    const slot = await createSlot(admin, id, '2026-12-01', '09:00', '10:00', 10);
    for (const email of ['anna@gmail.com', 'anna@informatik.uibk.ac.at', 'anna@uibk.ac.at.evil']) {
      const res = await bookAs(slot, email);
      expect(res.status, email).toBe(403);
      expect((await res.json()) as Problem).toMatchObject({
        error: 'booking__email_domain_not_allowed',
        payload: ['domains', ...DOMAINS],
      });
    }
    expect((await bookAs(slot, 'Anna.Musterfrau@Student.UIBK.ac.at')).status).toBe(200);
    expect((await bookAs(slot, 'anna+desk@uibk.ac.at')).status).toBe(200);
    // Staff book anyone.
    const staff = await admin.request('POST', `/api/admin/rooms/${id}/timeslots/${slot}/booking`, {
      json: { ...owner, email: 'guest@example.org' },
    });
    expect(staff.status).toBe(201);
  });

  it("tell the visitor when the address is entered, with the cart's rooms", async () => {
    const id = await createRoom(admin, 'Members check');
    expect((await services(id, { allowedEmailDomains: DOMAINS })).status).toBe(200);
    const slot = await createSlot(admin, id, '2026-12-02', '09:00', '10:00', 10);
    const v = new Client(app.baseUrl);
    const transactionId = await cartOf(v, slot);
    const check = (email: string) =>
      v.request('POST', '/api/email-check', { json: { email, transactionId } });
    const refused = await check('reader@example.org');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Problem).payload).toEqual(['domains', ...DOMAINS]);
    expect((await check('reader@uibk.ac.at')).status).toBe(204);
    // Without a cart only the address itself is asked about.
    expect(
      (await v.request('POST', '/api/email-check', { json: { email: 'reader@example.org' } }))
        .status,
    ).toBe(204);
  });

  it('refuse a waitlist join at another domain', async () => {
    const id = await createRoom(admin, 'Members waitlist');
    expect(
      (await services(id, { allowedEmailDomains: DOMAINS, waitlistOfferMinutes: 30 })).status,
    ).toBe(200);
    const slot = await createSlot(admin, id, '2026-12-03', '09:00', '10:00', 1);
    expect((await bookAs(slot, 'first@uibk.ac.at')).status).toBe(200);
    const join = (email: string) =>
      new Client(app.baseUrl).request('POST', `/api/timeslots/${slot}/waitlist`, {
        json: { email, language: 'de' },
      });
    const refused = await join('other@example.org');
    expect(refused.status).toBe(403);
    expect((await refused.json()) as Problem).toMatchObject({
      error: 'booking__email_domain_not_allowed',
      payload: ['domains', ...DOMAINS],
    });
    expect((await join('second@student.uibk.ac.at')).status).toBe(201);
  });
});
