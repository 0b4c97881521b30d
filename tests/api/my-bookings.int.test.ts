import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import { Client, startTestApp } from '../support/app.ts';
import {
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  type MailSuite,
} from '../support/fixtures.ts';

/**
 * "My bookings" (docs/product.md#my-bookings): an address asks for a link by mail; the link lists
 * every booking of the address from today on, across rooms, and cancels; every address gets the
 * same answer; the link names no address, lasts 24 hours by the clock, and an altered one is 404.
 */
const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
const TODAY = '2026-11-23';

let suite: MailSuite;
let visitor: Client;
const booked: Record<string, { ownerId: string; ticketId: string; bookingNumber: string }> = {};

async function book(slotId: string, email: string, language: 'de' | 'en' = 'de') {
  const c = new Client(suite.app.baseUrl);
  const cart = await c.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const res = await c.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MS',
      firstName: 'Erika',
      lastName: 'Muster',
      email,
      phone: '+4311',
      language,
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const b = (await res.json()) as {
    ownerId: string;
    bookingNumber: string;
    tickets: { id: string }[];
  };
  // Later reads wait for the read models to hold this booking (read-your-writes): the tickets
  // list of a link is read by another client.
  visitor.lastPosition = c.lastPosition;
  return { ownerId: b.ownerId, bookingNumber: b.bookingNumber, ticketId: b.tickets[0]!.id };
}

/** Asks for the link and answers the token of the mail's link (`/my-bookings/<token>?lang=…`). */
async function linkOf(email: string, language: 'de' | 'en' = 'de'): Promise<string> {
  const before = suite.sink.messages.length;
  const res = await visitor.request('POST', '/api/my-bookings/link', { json: { email, language } });
  expect(res.status).toBe(202);
  await suite.sender.sendDue();
  // Booking confirmations may go in the same round: the link's mail is the one with the link.
  const match = suite.sink.messages
    .slice(before)
    .filter((m) => JSON.stringify(m.to).includes(email))
    .map((m) => /\/my-bookings\/([^\s/?#]+)\?lang=(\w+)/.exec(m.text ?? ''))
    .find((m) => m !== null);
  expect(match, `a link mail to ${email}`).toBeDefined();
  // The link opens the page in the mail's language.
  expect(match![2]).toBe(language);
  return match![1]!;
}

const list = async (token: string) => {
  const res = await visitor.get(`/api/my-bookings/${token}/tickets`);
  return {
    status: res.status,
    body: (await res.json()) as {
      error?: string;
      expiresAt?: string;
      tickets?: { id: string; roomName: string; bookingNumber: string; ownerId: string }[];
    },
  };
};

beforeAll(async () => {
  suite = await openMailSuite(clock);
  visitor = new Client(suite.app.baseUrl);
  const first = await createRoom(suite.admin, 'Erster Saal', OPEN_FROM_TODAY);
  const second = await createRoom(suite.admin, 'Zweiter Saal', OPEN_FROM_TODAY);
  const a = await createSlot(suite.admin, first, addDays(TODAY, 3), '10:00', '11:00', 5);
  const b = await createSlot(suite.admin, second, addDays(TODAY, 5), '10:00', '11:00', 5);
  // The same address in another spelling: one visitor, two bookings in two rooms.
  booked.first = await book(a, 'Erika.Muster@Example.at');
  booked.second = await book(b, 'erika.muster@example.at', 'en');
  booked.other = await book(a, 'otto@example.at');
});
afterAll(() => suite.close());

describe('my bookings', () => {
  it('answers 202 for every address; the mailed link lists the address’s bookings across rooms', async () => {
    const withBookings = await visitor.request('POST', '/api/my-bookings/link', {
      json: { email: 'erika.muster@example.at', language: 'de' },
    });
    const without = await visitor.request('POST', '/api/my-bookings/link', {
      json: { email: 'niemand@example.at', language: 'de' },
    });
    expect([withBookings.status, without.status]).toEqual([202, 202]);
    expect(await withBookings.text()).toBe(await without.text());

    const token = await linkOf('ERIKA.muster@example.at');
    // The link names no address, not even its key.
    expect(token).not.toMatch(/erika|example|%40|@/i);
    expect(token).not.toContain(suite.app.deps.emailKey('erika.muster@example.at'));
    const mine = await list(token);
    expect(mine.status).toBe(200);
    expect(mine.body.expiresAt).toBe(
      new Date(clock.now().getTime() + 24 * 3_600_000).toISOString(),
    );
    expect(mine.body.tickets!.map((t) => [t.roomName, t.bookingNumber, t.ownerId])).toEqual([
      ['Erster Saal', booked.first!.bookingNumber, booked.first!.ownerId],
      ['Zweiter Saal', booked.second!.bookingNumber, booked.second!.ownerId],
    ]);
    // An address without bookings gets a link too; its page is empty.
    const nobody = await list(await linkOf('niemand@example.at', 'en'));
    expect([nobody.status, nobody.body.tickets]).toEqual([200, []]);
    const english = suite.sink.messages.findLast((m) => JSON.stringify(m.to).includes('niemand@'));
    expect(english?.subject).toBe('Your bookings');
  });

  it('cancels only tickets of the link’s address', async () => {
    const token = await linkOf('erika.muster@example.at');
    const foreign = await visitor.request(
      'DELETE',
      `/api/my-bookings/${token}/tickets?ids=${booked.first!.ticketId},${booked.other!.ticketId}`,
    );
    expect(foreign.status).toBe(404);
    expect((await list(token)).body.tickets).toHaveLength(2);
    const res = await visitor.request(
      'DELETE',
      `/api/my-bookings/${token}/tickets?ids=${booked.first!.ticketId}`,
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { cancelled: number }).cancelled).toBe(1);
    expect((await list(token)).body.tickets!.map((t) => t.id)).toEqual([booked.second!.ticketId]);
    // The other address's booking is untouched.
    const other = await visitor.get(`/api/owners/${booked.other!.ownerId}/tickets`);
    expect(((await other.json()) as { status: string }[])[0]!.status).toBe('BOOKED');
  });

  it('answers an altered, malformed or expired link 404', async () => {
    const token = await linkOf('erika.muster@example.at');
    const [id, mac] = token.split('.') as [string, string];
    const altered = [
      `${id}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}.${mac}`,
      'kaputt',
      id,
    ];
    for (const t of altered) {
      expect((await list(t)).body.error, t).toBe('not_found');
      const del = await visitor.request(
        'DELETE',
        `/api/my-bookings/${t}/tickets?ids=${booked.second!.ticketId}`,
      );
      expect(del.status, t).toBe(404);
    }
    clock.advance(24 * 3_600_000 - 1000);
    expect((await list(token)).status).toBe(200);
    clock.advance(1000);
    expect((await list(token)).status).toBe(404);
    const del = await visitor.request(
      'DELETE',
      `/api/my-bookings/${token}/tickets?ids=${booked.second!.ticketId}`,
    );
    expect(del.status).toBe(404);
    clock.set(new Date('2026-11-23T08:00:00Z'));
  });

  it('refuses an invalid address with validation__error', async () => {
    const res = await visitor.request('POST', '/api/my-bookings/link', {
      json: { email: 'kein-mail', language: 'de' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('validation__error');
  });

  it('limits link requests per client and per address', async () => {
    const app = await startTestApp(suite.db, clock, {
      env: { RATE_LIMIT_MY_BOOKINGS_LINKS: '4', RATE_LIMIT_MY_BOOKINGS_LINKS_PER_ADDRESS: '2' },
    });
    try {
      const c = new Client(app.baseUrl);
      const ask = async (email: string) =>
        (await c.request('POST', '/api/my-bookings/link', { json: { email } })).status;
      // Per address, in any spelling.
      expect([
        await ask('a@example.at'),
        await ask('A@Example.at'),
        await ask('a@example.at'),
      ]).toEqual([202, 202, 429]);
      // Per client: the fourth request passes, the fifth does not, whatever the address.
      expect(await ask('b@example.at')).toBe(202);
      const refused = await c.request('POST', '/api/my-bookings/link', {
        json: { email: 'c@example.at' },
      });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toBe('http__too_many_requests');
      expect(refused.headers.get('retry-after')).toBe('3600');
    } finally {
      await app.close();
    }
  });
});
