import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom } from '../support/fixtures.ts';

/** The reading-room services of a room, each off by default. */
let suite: AdminSuite;

beforeAll(async () => {
  suite = await openAdminSuite();
});
afterAll(async () => {
  await suite.close();
});

const OFF = {
  checkInMinutesBefore: null,
  noShowReleaseMinutes: null,
  waitlistOfferMinutes: null,
  reminderHoursBefore: null,
};

async function roomAnswer(id: string) {
  const res = await suite.admin.get(`/api/admin/rooms/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { version: number; services: typeof OFF };
}

async function eventCount(): Promise<number> {
  const r = await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events');
  return Number(r.rows[0]!.n);
}

describe('room services', () => {
  it('a new room uses none; staff set them, the answer and the write side follow', async () => {
    const id = await createRoom(suite.admin, 'Services room');
    expect((await roomAnswer(id)).services).toEqual(OFF);
    const set = {
      checkInMinutesBefore: 15,
      noShowReleaseMinutes: 20,
      waitlistOfferMinutes: 30,
      reminderHoursBefore: 24,
    };
    const res = await suite.admin.request('PUT', `/api/admin/rooms/${id}/services`, { json: set });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { version: number }).version).toBe(2);
    const room = await roomAnswer(id);
    expect(room.services).toEqual(set);
    expect(room.version).toBe(2);
    const state = await suite.db.pool.query<{ services: unknown }>(
      'SELECT services FROM room_state WHERE room_id = $1',
      [id],
    );
    expect(state.rows[0]!.services).toEqual(set);

    // The same again records nothing; absent fields turn services off.
    const before = await eventCount();
    await suite.admin.request('PUT', `/api/admin/rooms/${id}/services`, { json: set });
    expect(await eventCount()).toBe(before);
    const off = await suite.admin.request('PUT', `/api/admin/rooms/${id}/services`, {
      json: { waitlistOfferMinutes: 45 },
    });
    expect(off.status).toBe(200);
    expect((await roomAnswer(id)).services).toEqual({ ...OFF, waitlistOfferMinutes: 45 });
  });

  it('refuses bad values with the field and rule, and stores nothing', async () => {
    const id = await createRoom(suite.admin, 'Refusing room');
    const before = await eventCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ checkInMinutesBefore: -1 }, 'checkInMinutesBefore'],
      [{ checkInMinutesBefore: 1.5 }, 'checkInMinutesBefore'],
      [{ noShowReleaseMinutes: 10 }, 'checkInMinutesBefore'],
      [{ checkInMinutesBefore: 10, noShowReleaseMinutes: 0 }, 'noShowReleaseMinutes'],
      [{ waitlistOfferMinutes: 2 }, 'waitlistOfferMinutes'],
      [{ reminderHoursBefore: 169 }, 'reminderHoursBefore'],
      [{ reminderHoursBefore: '24' }, 'reminderHoursBefore'],
    ];
    for (const [json, field] of cases) {
      const res = await suite.admin.request('PUT', `/api/admin/rooms/${id}/services`, { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      const body = (await res.json()) as { error: string; errors?: { field: string }[] };
      expect(body.error).toBe('validation__error');
      expect(
        body.errors?.map((f) => f.field),
        JSON.stringify(json),
      ).toContain(field);
    }
    const missing = await suite.admin.request(
      'PUT',
      '/api/admin/rooms/00000000-0000-4000-8000-000000000000/services',
      { json: {} },
    );
    expect(missing.status).toBe(404);
    expect(await eventCount()).toBe(before);
  });

  it("holds the server's upper bounds: 1440 minutes, 10080 to confirm, 20 domains", async () => {
    const id = await createRoom(suite.admin, 'Bounded room');
    const put = (json: Record<string, unknown>) =>
      suite.admin.request('PUT', `/api/admin/rooms/${id}/services`, { json });
    const domains = (n: number) =>
      Array.from({ length: n }, (_, i) => `faculty${i + 1}.example.at`);
    const before = await eventCount();
    // One past each bound (docs/product.md#validation) is refused on that field alone.
    const cases: [Record<string, unknown>, string, string][] = [
      [{ checkInMinutesBefore: 1441 }, 'checkInMinutesBefore', 'between'],
      [{ checkInMinutesBefore: 30, noShowReleaseMinutes: 1441 }, 'noShowReleaseMinutes', 'between'],
      [{ waitlistOfferMinutes: 1441 }, 'waitlistOfferMinutes', 'between'],
      [{ confirmBookingMinutes: 10081 }, 'confirmBookingMinutes', 'between'],
      [{ allowedEmailDomains: domains(21) }, 'allowedEmailDomains', 'too_big'],
    ];
    for (const [json, field, rule] of cases) {
      const res = await put(json);
      const label = JSON.stringify(json).slice(0, 80);
      expect(res.status, label).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      const body = (await res.json()) as {
        error: string;
        errors?: { field: string; rule: string }[];
      };
      expect(body.error, label).toBe('validation__error');
      expect(body.errors, label).toEqual([expect.objectContaining({ field, rule })]);
    }
    expect(await eventCount()).toBe(before);
    expect((await roomAnswer(id)).services).toEqual(OFF);

    // The bounds themselves are accepted and kept.
    const most = {
      checkInMinutesBefore: 1440,
      noShowReleaseMinutes: 1440,
      waitlistOfferMinutes: 1440,
      confirmBookingMinutes: 10080,
      allowedEmailDomains: domains(20),
    };
    expect((await put(most)).status).toBe(200);
    expect((await roomAnswer(id)).services).toMatchObject(most);
    expect(await eventCount()).toBe(before + 1);
  });

  it('is for admins only', async () => {
    const id = await createRoom(suite.admin, 'Guarded room');
    const anonymous = new Client(suite.app.baseUrl);
    const res = await anonymous.request('PUT', `/api/admin/rooms/${id}/services`, { json: {} });
    expect([401, 403]).toContain(res.status);
  });
});
