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
import { budget } from '../support/time-budget.ts';

/**
 * "My bookings" (docs/product.md#my-bookings): an address asks for a link by mail; the link lists
 * every booking of the address from today on (a day gone by no longer), across rooms, and cancels
 * as the confirmation link does, with its mail; every address gets the same answer; the link
 * names no address, lasts 24 hours by the clock, and an altered one is 404; link requests are
 * limited per client and per address (20 and 3 an hour unless configured).
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

  it('lists the tickets from today on: today’s ticket after its slot, not a day gone by', async () => {
    const room = await createRoom(suite.admin, 'Dritter Saal', OPEN_FROM_TODAY);
    const soon = await createSlot(suite.admin, room, addDays(TODAY, 1), '10:00', '11:00', 5);
    const later = await createSlot(suite.admin, room, addDays(TODAY, 2), '10:00', '11:00', 5);
    const first = await book(soon, 'paula.past@example.at');
    const second = await book(later, 'paula.past@example.at');
    const listed = async (token: string) => (await list(token)).body.tickets!.map((t) => t.id);
    // The first slot's day at 16:00 in Vienna: its slot has ended, but the day is today.
    clock.set(new Date(`${addDays(TODAY, 1)}T15:00:00Z`));
    const token = await linkOf('paula.past@example.at');
    expect(await listed(token)).toEqual([first.ticketId, second.ticketId]);
    // The next morning the same link lists the later ticket only.
    clock.set(new Date(`${addDays(TODAY, 2)}T06:00:00Z`));
    expect(await listed(token)).toEqual([second.ticketId]);
    clock.set(new Date('2026-11-23T08:00:00Z'));
  });

  it('cancelling through the link sends the cancellation mail, in the booking’s language', async () => {
    const room = await createRoom(suite.admin, 'Vierter Saal', OPEN_FROM_TODAY);
    const day = addDays(TODAY, 4);
    const slot = await createSlot(suite.admin, room, day, '10:00', '11:00', 5);
    const b = await book(slot, 'clara.cancel@example.at', 'en');
    const enqueued = async (kind: string) =>
      (
        await suite.db.pool.query(`SELECT 1 FROM mail_outbox WHERE owner_id = $1 AND kind = $2`, [
          b.ownerId,
          kind,
        ])
      ).rowCount;
    // The booking's confirmation goes out with the link's mail, not with the cancellation's.
    await expect.poll(() => enqueued('confirmation'), { timeout: budget(10_000) }).toBe(1);
    // The page is German; the booking's mails are in its own language.
    const token = await linkOf('clara.cancel@example.at', 'de');
    const res = await visitor.request(
      'DELETE',
      `/api/my-bookings/${token}/tickets?ids=${b.ticketId}`,
    );
    expect(res.status).toBe(200);
    await expect.poll(() => enqueued('cancellation'), { timeout: budget(10_000) }).toBe(1);
    const before = suite.sink.messages.length;
    await suite.sender.sendDue();
    const mails = suite.sink.messages
      .slice(before)
      .filter((m) => JSON.stringify(m.to).includes('clara.cancel@'));
    expect(mails.map((m) => m.subject)).toEqual([
      `Cancellation in your booking ${b.bookingNumber}`,
    ]);
    const text = mails[0]!.text ?? '';
    expect(text).toContain('the following appointments of your booking were cancelled:');
    expect(text).toContain(`- Vierter Saal, ${day.split('-').reverse().join('.')}, 10:00–11:00`);
    expect(text).toContain(
      `https://library.example/reserve/reservation-confirmation/${b.ownerId}?lang=en`,
    );
    // Its calendar file takes the appointment out of the reader's calendar.
    const ics = mails[0]!.attachments.find((a) => a.contentType.startsWith('text/calendar'));
    expect(ics?.content.toString('utf8')).toMatch(/METHOD:CANCEL/);
    expect(ics?.content.toString('utf8')).toContain(`UID:${b.ticketId}@reading-rooms`);
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

  it('limits link requests to 20 an hour per client and 3 per address when not configured', async () => {
    // Without the test apps' raised limits: an empty value is no value, so the defaults apply.
    const app = await startTestApp(suite.db, clock, {
      env: { RATE_LIMIT_MY_BOOKINGS_LINKS: '', RATE_LIMIT_MY_BOOKINGS_LINKS_PER_ADDRESS: '' },
    });
    try {
      const c = new Client(app.baseUrl);
      const ask = async (email: string) =>
        (await c.request('POST', '/api/my-bookings/link', { json: { email } })).status;
      // Three per address, in any spelling; the fourth is refused.
      const address: number[] = [];
      for (const email of ['d@example.at', 'D@Example.at', 'd@example.at', 'd@EXAMPLE.at'])
        address.push(await ask(email));
      expect(address).toEqual([202, 202, 202, 429]);
      // Twenty per client (the refused request counted), whatever the address.
      for (let i = 5; i <= 20; i += 1) expect(await ask(`leser${i}@example.at`), `${i}`).toBe(202);
      const refused = await c.request('POST', '/api/my-bookings/link', {
        json: { email: 'leser21@example.at' },
      });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toBe('http__too_many_requests');
      expect(refused.headers.get('retry-after')).toBe('3600');
    } finally {
      await app.close();
    }
  });
});
