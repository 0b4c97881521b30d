import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * The owner id comes in the links of the booking mails; a damaged link is the common case of a
 * malformed one. The confirmation page reads a 404 as "invalid owner id" and names the id, so
 * every owner route answers a malformed owner id as it answers an unknown one: 404, problem+json,
 * `not_found`, never 400 or 5xx.
 */
const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
const TODAY = '2026-11-23';
const TICKET = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_OWNER = '0123456789abcdef0123456789abcdef';

let suite: AdminSuite;
let visitor: Client;
let booked: { ownerId: string; ticketId: string };

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  const open = { openStartValue: 0, openStartType: 'DAY', openEndValue: 365, openEndType: 'DAY' };
  const roomId = await createRoom(suite.admin, 'Link room', open);
  const slotId = await createSlot(suite.admin, roomId, addDays(TODAY, 3), '10:00', '11:00', 5);
  visitor = new Client(suite.app.baseUrl);
  const cart = await visitor.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const res = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MS',
      firstName: 'Erika',
      lastName: 'Muster',
      email: 'erika@example.at',
      phone: '+43111222',
    },
  });
  expect(res.status).toBe(200);
  const b = (await res.json()) as { ownerId: string; tickets: { id: string }[] };
  booked = { ownerId: b.ownerId, ticketId: b.tickets[0]!.id };
});
afterAll(async () => {
  await suite.close();
});

/** Every owner route with this raw (already encoded) owner id segment. */
const ownerRoutes = (owner: string, ticketId = TICKET) => [
  { method: 'GET', path: `/api/owners/${owner}/tickets` },
  { method: 'GET', path: `/api/owners/${owner}/tickets/${ticketId}` },
  { method: 'GET', path: `/api/owners/${owner}/tickets/${ticketId}/check-in.svg` },
  { method: 'DELETE', path: `/api/owners/${owner}/tickets?ids=${ticketId}` },
];

async function answer(method: string, path: string) {
  const res = await fetch(suite.app.baseUrl + path, {
    method,
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body: (text.startsWith('{') ? JSON.parse(text) : {}) as { error?: string; title?: string },
  };
}

/** What the route answers for an id of the right form that names no booking. */
const unknownAnswers = () =>
  Promise.all(ownerRoutes(UNKNOWN_OWNER).map((r) => answer(r.method, r.path)));

describe('owner routes', () => {
  it('answer an unknown owner id 404 not_found, the booked owner as before', async () => {
    for (const a of await unknownAnswers()) {
      expect(a.status).toBe(404);
      expect(a.contentType).toMatch(/problem\+json/);
      expect(a.body.error).toBe('not_found');
    }
    expect((await visitor.get(`/api/owners/${booked.ownerId}/tickets`)).status).toBe(200);
    expect(
      (await visitor.get(`/api/owners/${booked.ownerId}/tickets/${booked.ticketId}`)).status,
    ).toBe(200);
  });

  it('answer malformed owner ids as unknown ones: damaged links', async () => {
    const unknown = await unknownAnswers();
    const o = booked.ownerId;
    const damaged = [
      o.slice(0, 31),
      `${o}0`,
      o.toUpperCase(),
      `${o.slice(0, 10)}%20${o.slice(11)}`,
      `${o}%3E`,
      `${o.slice(0, 31)}%`,
      `${o.slice(0, 30)}%E2%80`,
      '%00',
      `${o}%00`,
      '%ED%A0%80',
      '%C0%AE',
      'x'.repeat(2000),
      '%F0%9F%93%9A',
      'null',
      'undefined',
    ];
    for (const owner of damaged)
      for (const [i, r] of ownerRoutes(owner).entries()) {
        const a = await answer(r.method, r.path);
        expect(a.status, `${r.method} ${r.path}`).toBe(404);
        expect(a.contentType, r.path).toMatch(/problem\+json/);
        expect(a.body, r.path).toEqual(unknown[i]!.body);
      }
  });

  it('never answer a fuzzed malformed owner id with 400 or 5xx', async () => {
    const unknown = await unknownAnswers();
    const ownerId = fc
      .string({ unit: 'binary', minLength: 1, maxLength: 64 })
      .filter((s) => !/^[0-9a-f]{32}$/.test(s) && s !== '.' && s !== '..')
      .map((s) => {
        try {
          return encodeURIComponent(s);
        } catch {
          // A lone surrogate has no UTF-8: sent as the bytes of one, which no UTF-8 decoder takes.
          return '%ED%A0%80';
        }
      });
    const rawPiece = fc.constantFrom('%', '%A', '%zz', '%C0%AE', '%FF', '%E0%A4%A', '%00');
    const malformed = fc.oneof(
      { weight: 4, arbitrary: ownerId },
      {
        weight: 1,
        arbitrary: fc
          .tuple(ownerId, rawPiece, fc.stringMatching(/^[0-9a-f]{0,8}$/))
          .map(([a, b, c]) => a + b + c),
      },
    );
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(malformed, fc.constantFrom(0, 1, 2, 3), async (owner, i) => {
        const r = ownerRoutes(owner)[i]!;
        const a = await answer(r.method, r.path);
        requests++;
        expect(a.status, `${r.method} ${r.path}`).toBe(404);
        expect(a.contentType, r.path).toMatch(/problem\+json/);
        expect(a.body, r.path).toEqual(unknown[i]!.body);
      }),
      { numRuns: 400, seed: 20261126 },
    );
    expect(requests).toBeGreaterThanOrEqual(400);
  });
});
