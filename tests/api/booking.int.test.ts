// Over 300 lines: one file per API area; the cases share one app and database at one fixed clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueTransactions, defaultLimits } from '@rr/command-service';
import { ManualClock } from '@rr/platform';
import type { TestDatabase } from '../support/db.ts';
import {
  Client,
  openAdminSuite,
  startTestApp,
  type AdminSuite,
  type TestApp,
} from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

// Monday 23 Nov 2026, 10:00 in Vienna. Rooms open from today + 2 days to today + 30 working days.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let db: TestDatabase;
let app: TestApp;
let admin: Client;

type Cart = {
  transactionId: string;
  expiredAt: string;
  ticket: { id: string; timeSlotId: string; date: string; startTime: string };
  tickets: { id: string }[];
  position: string;
};
type Problem = { error: string; payload: string[]; errors?: { field: string; message: string }[] };

const owner = {
  salutation: 'MS',
  title: 'Dr.',
  firstName: 'Anna',
  lastName: 'Musterfrau',
  organisation: 'Universität Wien',
  email: 'Anna.Musterfrau@example.at',
  phone: '+436641234567',
  accessibility: true,
  language: 'de',
};

const room = (name: string, extra: Record<string, unknown> = {}): Promise<string> =>
  createRoom(admin, name, { description: 'Booking tests', ...extra });

/** Creates one slot and answers its id. */
const slot = (roomId: string, date: string, startTime: string, endTime: string, capacity: number) =>
  createSlot(admin, roomId, date, startTime, endTime, capacity);

const start = (c: Client, timeSlotId: string) =>
  c.request('POST', '/api/transactions', { json: { timeSlotId } });
const add = (c: Client, tx: string, timeSlotId: string) =>
  c.request('POST', `/api/transactions/${tx}/tickets`, { json: { timeSlotId } });
const book = (c: Client, tx: string, body: Record<string, unknown> = owner) =>
  c.request('PUT', `/api/transactions/${tx}/booking`, { json: body });
async function cartOf(c: Client, ...slotIds: string[]): Promise<string> {
  const first = await start(c, slotIds[0]!);
  expect(first.status, JSON.stringify(await first.clone().json())).toBe(201);
  const tx = ((await first.json()) as Cart).transactionId;
  for (const id of slotIds.slice(1)) expect((await add(c, tx, id)).status).toBe(201);
  return tx;
}
async function refusal(res: Response): Promise<Problem> {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  return (await res.json()) as Problem;
}
const eventCount = async () =>
  Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

let suite: AdminSuite;
beforeAll(async () => {
  suite = await openAdminSuite(clock);
  ({ db, app, admin } = suite);
});
afterAll(async () => {
  await suite.close();
});

describe('the visitor flow', () => {
  it('holds, touches, removes, books, lists and cancels', async () => {
    const r = await room('Flow room');
    const s1 = await slot(r, '2026-12-01', '09:00', '11:00', 3);
    const s2 = await slot(r, '2026-12-02', '09:00', '11:00', 3);
    const s3 = await slot(r, '2026-12-03', '09:00', '11:00', 3);
    const v = new Client(app.baseUrl);
    const first = await start(v, s1);
    expect(first.status).toBe(201);
    const cart = (await first.json()) as Cart;
    expect(cart.transactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(cart.expiredAt).getTime()).toBe(clock.now().getTime() + 15 * 60_000);
    expect(cart.ticket).toMatchObject({ timeSlotId: s1, date: '2026-12-01', startTime: '09:00' });
    const tx = cart.transactionId;
    expect((await add(v, tx, s2)).status).toBe(201);
    const third = (await (await add(v, tx, s3)).json()) as Cart;
    expect(third.tickets).toHaveLength(3);

    // Read-your-writes: the summary and the calendar count show the holds at once.
    const summary = (await (await v.get(`/api/transactions/${tx}`)).json()) as {
      status: string;
      tickets: { id: string; status: string }[];
    };
    expect(summary.status).toBe('NEW');
    expect(summary.tickets.map((t) => t.status)).toEqual(['NEW', 'NEW', 'NEW']);
    const calendar = (await (
      await v.get(`/api/rooms/${r}/booking?fromDate=2026-12-01&untilDate=2026-12-31`)
    ).json()) as { id: string; ticketCount: number }[];
    expect(calendar.find((x) => x.id === s1)!.ticketCount).toBe(1);

    clock.advance(10 * 60_000);
    const touched = (await (
      await v.request('PUT', `/api/transactions/${tx}/touch`)
    ).json()) as Cart;
    expect(new Date(touched.expiredAt).getTime()).toBe(clock.now().getTime() + 15 * 60_000);

    const removed = await v.request('DELETE', `/api/transactions/${tx}/tickets/${third.ticket.id}`);
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as Cart).tickets).toHaveLength(2);

    const booked = await book(v, tx);
    expect(booked.status).toBe(200);
    const result = (await booked.json()) as {
      ownerId: string;
      bookingNumber: string;
      tickets: { id: string; status: string }[];
    };
    expect(result.ownerId).toMatch(/^[0-9a-f]{32}$/);
    expect(result.bookingNumber).toMatch(/^R-[2-9A-HJ-NP-Z]{6}$/);
    expect(result.tickets.map((t) => t.status)).toEqual(['BOOKED', 'BOOKED']);

    const mine = (await (await v.get(`/api/owners/${result.ownerId}/tickets`)).json()) as Record<
      string,
      unknown
    >[];
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      status: 'BOOKED',
      ownerId: result.ownerId,
      roomName: 'Flow room',
      date: '2026-12-01',
      startTime: '09:00',
      endTime: '11:00',
      cancelable: true,
      salutation: 'MS',
      firstName: 'Anna',
      lastName: 'Musterfrau',
      email: 'anna.musterfrau@example.at',
      phone: '+436641234567',
      accessibility: true,
    });
    const one = await v.get(`/api/owners/${result.ownerId}/tickets/${result.tickets[0]!.id}`);
    expect(one.status).toBe(200);

    const cancel = await v.request(
      'DELETE',
      `/api/owners/${result.ownerId}/tickets?ids=${result.tickets[0]!.id}`,
    );
    expect(cancel.status).toBe(200);
    const after = (await (await v.get(`/api/owners/${result.ownerId}/tickets`)).json()) as {
      status: string;
      cancelable: boolean;
    }[];
    expect(after.map((t) => t.status)).toEqual(['CANCELLED', 'BOOKED']);
    expect(after[0]!.cancelable).toBe(false);
    const again = await refusal(
      await v.request(
        'DELETE',
        `/api/owners/${result.ownerId}/tickets?ids=${result.tickets[0]!.id}`,
      ),
    );
    expect(again.error).toBe('ticket__not_cancelable');
    const seats = (await (
      await v.get(`/api/rooms/${r}/booking?fromDate=2026-12-01&untilDate=2026-12-03`)
    ).json()) as { id: string; ticketCount: number }[];
    expect(seats.map((x) => x.ticketCount)).toEqual([0, 1, 0]);

    // A booked cart cannot be changed any more.
    expect((await refusal(await add(v, tx, s3))).error).toBe('transaction__already_booked');
  });

  it('answers 404 for unknown carts, owners and tickets', async () => {
    const v = new Client(app.baseUrl);
    expect((await v.get('/api/transactions/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    expect((await v.get(`/api/owners/${'a'.repeat(32)}/tickets`)).status).toBe(404);
    // A malformed owner id (a damaged mail link) is an unknown one.
    expect((await v.get('/api/owners/not-an-owner/tickets')).status).toBe(404);
    expect(
      (await add(v, '00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000'))
        .status,
    ).toBe(404);
    expect((await start(v, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('refusals, each with its code, nothing stored', () => {
  it('refuses a full slot, a slot outside the window or without capacity, a duplicate, an overlap, a sixth ticket', async () => {
    const r = await room('Rules room');
    const full = await slot(r, '2026-12-04', '08:00', '09:00', 1);
    await cartOf(new Client(app.baseUrl), full);
    const v = new Client(app.baseUrl);
    const tooSoon = await slot(r, '2026-11-24', '08:00', '09:00', 5);
    const tooLate = await slot(r, '2027-03-01', '08:00', '09:00', 5);
    const closed = await slot(r, '2026-12-04', '12:00', '13:00', 0);
    const before = await eventCount();
    expect(await refusal(await start(v, full))).toMatchObject({
      error: 'ticket__validation_error',
      payload: ['timeslot_no_tickets_left'],
    });
    expect((await refusal(await start(v, tooSoon))).payload).toEqual(['timeslot_not_open']);
    expect((await refusal(await start(v, tooLate))).payload).toEqual(['timeslot_not_open']);
    expect((await refusal(await start(v, closed))).payload).toEqual(['timeslot_not_open']);
    expect(await eventCount()).toBe(before);

    const days = [
      '2026-12-07',
      '2026-12-08',
      '2026-12-09',
      '2026-12-10',
      '2026-12-11',
      '2026-12-14',
    ];
    const slots = [];
    for (const d of days) slots.push(await slot(r, d, '10:00', '12:00', 5));
    const tx = await cartOf(v, slots[0]!);
    expect((await refusal(await add(v, tx, slots[0]!))).payload).toEqual([
      'timeslot_already_in_transaction',
    ]);
    const overlapping = await slot(
      await room('Rules other room'),
      '2026-12-07',
      '11:00',
      '13:00',
      5,
    );
    expect((await refusal(await add(v, tx, overlapping))).payload).toEqual([
      'max_tickets_per_time_reached',
    ]);
    for (const s of slots.slice(1, 5)) expect((await add(v, tx, s)).status).toBe(201);
    expect((await refusal(await add(v, tx, slots[5]!))).payload).toEqual([
      'max_tickets_per_transaction_reached',
    ]);
  });

  it('checks the visitor limits at booking: per day, in total, and overlaps with earlier bookings', async () => {
    const r = await room('Limits room');
    const a = await slot(r, '2026-12-15', '08:00', '09:00', 5);
    const b = await slot(r, '2026-12-15', '10:00', '11:00', 5);
    const c = await slot(r, '2026-12-15', '12:00', '13:00', 5);
    const visitor = { ...owner, email: 'limits@example.at' };
    const v1 = new Client(app.baseUrl);
    expect((await book(v1, await cartOf(v1, a, b), visitor)).status).toBe(200);
    // A third ticket that day, under another capitalisation of the same address.
    const v2 = new Client(app.baseUrl);
    const tx2 = await cartOf(v2, c);
    const before = await eventCount();
    expect(
      await refusal(await book(v2, tx2, { ...visitor, email: ' LIMITS@example.AT ' })),
    ).toMatchObject({
      error: 'ticket__validation_error',
      payload: ['max_tickets_per_day_reached', '2026-12-15', '2'],
    });
    expect(await eventCount()).toBe(before);
    const overlap = await slot(r, '2026-12-16', '08:00', '09:00', 5);
    const other = await room('Limits other room');
    const clash = await slot(other, '2026-12-15', '08:30', '09:30', 5);
    const v3 = new Client(app.baseUrl);
    expect((await refusal(await book(v3, await cartOf(v3, clash), visitor))).payload).toEqual([
      'max_tickets_per_time_reached',
    ]);
    // In total: 2 booked + 8 more = 10 is fine, 11 is not.
    const days = ['2026-12-16', '2026-12-17', '2026-12-18', '2026-12-21', '2026-12-22'];
    let total = 2;
    for (const d of days) {
      const ids =
        d === '2026-12-16'
          ? [overlap, await slot(r, d, '14:00', '15:00', 5)]
          : [await slot(r, d, '08:00', '09:00', 5), await slot(r, d, '14:00', '15:00', 5)];
      const v = new Client(app.baseUrl);
      const tx = await cartOf(v, ...ids);
      if (total + 2 <= defaultLimits.maxTicketsPerVisitor) {
        expect((await book(v, tx, visitor)).status).toBe(200);
        total += 2;
      } else {
        expect((await refusal(await book(v, tx, visitor))).payload).toEqual([
          'max_tickets_by_user_reached',
        ]);
      }
    }
    expect(total).toBe(10);
  });

  it('refuses blacklisted addresses until the entry expires', async () => {
    const r = await room('Blacklist room');
    expect(
      (
        await admin.request('POST', '/api/admin/blacklist', {
          json: { email: 'blocked@example.at', expiredAt: '2026-11-30' },
        })
      ).status,
    ).toBe(201);
    const s = await slot(r, '2026-12-04', '15:00', '16:00', 5);
    const v = new Client(app.baseUrl);
    const tx = await cartOf(v, s);
    expect(
      (await refusal(await book(v, tx, { ...owner, email: 'Blocked@Example.at' }))).error,
    ).toBe('booking__email_blacklisted');
    // The day after expiredAt the entry no longer blocks.
    clock.set(new Date('2026-12-01T07:00:00Z'));
    try {
      const v2 = new Client(app.baseUrl);
      const tx2 = await cartOf(v2, s);
      expect((await book(v2, tx2, { ...owner, email: 'blocked@example.at' })).status).toBe(200);
    } finally {
      clock.set(new Date('2026-11-23T09:00:00Z'));
    }
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['first name missing', { firstName: ' ' }, 'firstName'],
    ['last name too long', { lastName: 'x'.repeat(41) }, 'lastName'],
    ['e-mail missing', { email: '' }, 'email'],
    ['e-mail invalid', { email: 'anna(at)example.at' }, 'email'],
    ['phone missing', { phone: '' }, 'phone'],
    ['phone with letters', { phone: '0664 CALLME' }, 'phone'],
    ['title too long', { title: 't'.repeat(41) }, 'title'],
    ['organisation too long', { organisation: 'o'.repeat(41) }, 'organisation'],
    ['unknown salutation', { salutation: 'SIR' }, 'salutation'],
    ['unknown language', { language: 'fr' }, 'language'],
  ];
  for (const [title, change, field] of invalid) {
    it(`refuses owner data: ${title}`, async () => {
      const r = await room(`Owner ${title}`.slice(0, 50));
      const v = new Client(app.baseUrl);
      const tx = await cartOf(v, await slot(r, '2026-12-03', '16:00', '17:00', 5));
      const before = await eventCount();
      const p = await refusal(await book(v, tx, { ...owner, ...change }));
      expect(p.error).toBe('validation__error');
      expect(p.errors!.map((e) => e.field)).toContain(field);
      expect(await eventCount()).toBe(before);
      expect(
        Number(
          (
            await db.pool.query<{ n: string }>(
              'SELECT count(*) AS n FROM personal_data WHERE first_name = $1',
              [owner.firstName],
            )
          ).rows[0]!.n,
        ),
      ).toBeGreaterThanOrEqual(0);
    });
  }

  it('refuses a new cart when the human check fails', async () => {
    const strict = await startTestApp(db, clock, {
      verifyHuman: (t) => Promise.resolve(t === 'human'),
    });
    try {
      const r = await room('Captcha room');
      const s = await slot(r, '2026-12-03', '18:00', '19:00', 5);
      const v = new Client(strict.baseUrl);
      expect(
        (await refusal(await v.request('POST', '/api/transactions', { json: { timeSlotId: s } })))
          .error,
      ).toBe('recaptcha__validation_error');
      expect(
        (
          await v.request('POST', '/api/transactions?g-recaptcha-response=robot', {
            json: { timeSlotId: s },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await v.request('POST', '/api/transactions?g-recaptcha-response=human', {
            json: { timeSlotId: s },
          })
        ).status,
      ).toBe(201);
    } finally {
      await strict.close();
    }
  });
});

describe('personal data', () => {
  it('stays out of the event log', async () => {
    const hits = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE data::text ~* $1 OR metadata::text ~* $1`,
      ['musterfrau|anna\\.|6641234567|universität'],
    );
    expect(Number(hits.rows[0]!.n)).toBe(0);
  });
});

describe("the cart's view", () => {
  it('reads a cart whose last ticket was removed with no tickets and no closed ones', async () => {
    const r = await room('Empty cart room');
    const s = await slot(r, '2026-12-10', '09:00', '10:00', 2);
    const v = new Client(app.baseUrl);
    const tx = await cartOf(v, s);
    type View = {
      status: string;
      expiredAt: string | null;
      tickets: { id: string }[];
      closedTickets: unknown[];
    };
    const held = (await (await v.get(`/api/transactions/${tx}`)).json()) as View;
    expect(held.tickets).toHaveLength(1);
    expect(held.closedTickets).toEqual([]);
    const removed = await v.request(
      'DELETE',
      `/api/transactions/${tx}/tickets/${held.tickets[0]!.id}`,
    );
    expect(removed.status).toBe(200);
    const view = (await (await v.get(`/api/transactions/${tx}`)).json()) as View;
    // The cart stays open, empty, until it expires.
    expect(view).toEqual({
      transactionId: tx,
      status: 'NEW',
      expiredAt: held.expiredAt,
      tickets: [],
      closedTickets: [],
    });
  });
});

describe('a held seat at the booking', () => {
  it('keeps its place only within a capacity lowered since, first come, first served; a staff booking beyond the capacity after the hold does not take it', async () => {
    const r = await room('Lowered room');
    const s = await slot(r, '2026-12-11', '09:00', '10:00', 2);
    const first = new Client(app.baseUrl);
    const second = new Client(app.baseUrl);
    const firstCart = await cartOf(first, s);
    const secondCart = await cartOf(second, s);
    const lowered = await admin.request('PUT', `/api/admin/rooms/${r}/timeslots/${s}`, {
      json: { startTime: '09:00', endTime: '10:00', capacity: 1 },
    });
    expect(lowered.status, await lowered.clone().text()).toBe(200);

    // The second hold is beyond the one seat left, though its cart is booked first.
    const before = await eventCount();
    const late = await book(second, secondCart, { ...owner, email: 'zweite@example.at' });
    expect(await refusal(late)).toMatchObject({
      error: 'ticket__validation_error',
      payload: ['timeslot_no_tickets_left'],
    });
    expect(await eventCount()).toBe(before);

    // Staff book the full slot, confirming the overbooking: the seat ahead stays the first hold's.
    const desk = await admin.request('POST', `/api/admin/rooms/${r}/timeslots/${s}/booking`, {
      json: { ...owner, email: 'schalter@example.at', confirmOverbooking: true },
    });
    expect(desk.status, await desk.clone().text()).toBe(201);
    const booked = await book(first, firstCart, { ...owner, email: 'erste@example.at' });
    expect(booked.status, await booked.clone().text()).toBe(200);
  });
});

describe('expiry', () => {
  it('never counts an expired hold, and the job appends the expiry so history is complete', async () => {
    const r = await room('Expiry room');
    const s = await slot(r, '2026-12-09', '07:00', '08:00', 1);
    const v = new Client(app.baseUrl);
    const tx = await cartOf(v, s);
    expect((await refusal(await start(new Client(app.baseUrl), s))).payload).toEqual([
      'timeslot_no_tickets_left',
    ]);
    clock.advance(15 * 60_000 + 1);
    try {
      // Lazy expiry: the seat is free for the next visitor before any job ran.
      const next = new Client(app.baseUrl);
      const tx2 = await cartOf(next, s);
      expect((await refusal(await book(v, tx, owner))).error).toBe('transaction__expired');
      const summary = (await (await v.get(`/api/transactions/${tx}`)).json()) as {
        status: string;
        tickets: unknown[];
      };
      expect(summary).toMatchObject({ status: 'EXPIRED', tickets: [] });
      // The app's own deps: its store records at the test's clock.
      const deps = suite.app.deps;
      expect(await expireDueTransactions(deps)).toBeGreaterThanOrEqual(1);
      const history = await db.pool.query<{ event_type: string; data: { reason?: string } }>(
        `SELECT event_type, data FROM events WHERE stream_id = $1 ORDER BY stream_version`,
        [`timeslot-${s}`],
      );
      expect(history.rows.map((e) => e.event_type)).toEqual([
        'TimeSlotCreated',
        'TicketHeld',
        'TicketHeld',
        'TicketReleased',
      ]);
      expect(history.rows[3]!.data.reason).toBe('expired');
      const cartEvents = await db.pool.query<{ event_type: string }>(
        `SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version`,
        [`transaction-${tx}`],
      );
      expect(cartEvents.rows.map((e) => e.event_type)).toEqual([
        'TransactionStarted',
        'TicketAddedToTransaction',
        'TransactionExpired',
      ]);
      // Running the job again changes nothing; the second visitor's hold is untouched.
      expect(await expireDueTransactions(deps)).toBe(0);
      expect((await book(next, tx2, { ...owner, email: 'next@example.at' })).status).toBe(200);
    } finally {
      clock.set(new Date('2026-11-23T09:00:00Z'));
    }
  });
});

describe('concurrency (real PostgreSQL)', () => {
  it('200 concurrent adds on a slot of capacity 20 give exactly 20 holds and clean refusals', async () => {
    const r = await room('Hot room');
    const hot = await slot(r, '2026-12-10', '09:00', '10:00', 20);
    const results = await Promise.all(
      Array.from({ length: 200 }, () => start(new Client(app.baseUrl), hot)),
    );
    const statuses = results.map((x) => x.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
    const refused = results.filter((x) => x.status !== 201);
    for (const x of refused)
      expect(((await x.json()) as Problem).payload).toEqual(['timeslot_no_tickets_left']);
    const held = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE stream_id = $1 AND event_type = 'TicketHeld'`,
      [`timeslot-${hot}`],
    );
    expect(Number(held.rows[0]!.n)).toBe(20);

    // New carts on one slot are decided in batches (one transaction for those waiting): still
    // twenty carts of their own, each with its ticket, its own correlation id and its hold.
    const carts = await Promise.all(
      results.filter((x) => x.status === 201).map(async (x) => (await x.json()) as Cart),
    );
    expect(new Set(carts.map((c) => c.transactionId)).size).toBe(20);
    const streams = await db.pool.query<{
      stream_id: string;
      types: string[];
      correlations: string[];
    }>(
      `SELECT stream_id, array_agg(event_type ORDER BY stream_version) AS types,
              array_agg(DISTINCT metadata->>'correlationId') AS correlations
         FROM events WHERE stream_id = ANY($1) GROUP BY stream_id`,
      [carts.map((c) => `transaction-${c.transactionId}`)],
    );
    expect(streams.rows).toHaveLength(20);
    for (const row of streams.rows) {
      expect(row.types).toEqual(['TransactionStarted', 'TicketAddedToTransaction']);
      expect(row.correlations).toHaveLength(1);
    }
    expect(new Set(streams.rows.map((r) => r.correlations[0])).size).toBe(20);
    const holds = await db.pool.query<{ ticket: string; tx: string; correlation: string }>(
      `SELECT data->>'ticketId' AS ticket, data->>'transactionId' AS tx,
              metadata->>'correlationId' AS correlation
         FROM events WHERE stream_id = $1 AND event_type = 'TicketHeld'`,
      [`timeslot-${hot}`],
    );
    expect(new Map(holds.rows.map((h) => [h.tx, h.ticket]))).toEqual(
      new Map(carts.map((c) => [c.transactionId, c.ticket.id])),
    );
    const byCart = new Map(streams.rows.map((r) => [r.stream_id, r.correlations[0]]));
    for (const h of holds.rows) expect(h.correlation).toBe(byCart.get(`transaction-${h.tx}`));
    // Every cart's events come before its hold in the log (read models see the cart first).
    const late = await db.pool.query(
      `SELECT h.event_id FROM events h JOIN events c
           ON c.stream_id = 'transaction-' || (h.data->>'transactionId')
              AND c.event_type = 'TicketAddedToTransaction'
        WHERE h.stream_id = $1 AND h.event_type = 'TicketHeld'
          AND (c.transaction_id, c.global_position) > (h.transaction_id, h.global_position)`,
      [`timeslot-${hot}`],
    );
    expect(late.rows).toEqual([]);
  });

  it('bookings that arrive together share a commit: each with its own owner, personal data and correlation', async () => {
    const r = await room('Group booking room');
    // A slot each: bookings of one slot move its stream, so they commit one after the other.
    const slots: string[] = [];
    for (let h = 8; h < 20; h++)
      slots.push(
        await slot(r, '2026-12-12', `${h}:00`.padStart(5, '0'), `${h}:30`.padStart(5, '0'), 5),
      );
    const visitors = slots.map(() => new Client(app.baseUrl));
    const carts = await Promise.all(
      visitors.map(
        async (v, i) => ((await (await start(v, slots[i]!)).json()) as Cart).transactionId,
      ),
    );
    const answers = await Promise.all(
      visitors.map((v, i) => book(v, carts[i]!, { ...owner, email: `group${i}@example.at` })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const owners = await Promise.all(
      answers.map(async (a) => ((await a.json()) as { ownerId: string }).ownerId),
    );
    expect(new Set(owners).size).toBe(12);
    const booked = await db.pool.query<{ tx: string; correlation: string; owner: string }>(
      `SELECT transaction_id::text AS tx, metadata->>'correlationId' AS correlation,
              data->>'ownerId' AS owner
         FROM events WHERE event_type = 'TransactionBooked' AND stream_id = ANY($1)`,
      [carts.map((c) => `transaction-${c}`)],
    );
    expect(booked.rows.map((b) => b.owner).sort()).toEqual([...owners].sort());
    // Several bookings committed in one transaction, each still its own command.
    expect(new Set(booked.rows.map((b) => b.tx)).size).toBeLessThan(12);
    expect(new Set(booked.rows.map((b) => b.correlation)).size).toBe(12);
    const data = await db.pool.query<{ owner_id: string; email: string }>(
      'SELECT owner_id, email FROM personal_data WHERE owner_id = ANY($1)',
      [owners],
    );
    expect(new Map(data.rows.map((d) => [d.owner_id, d.email]))).toEqual(
      new Map(owners.map((o, i) => [o, `group${i}@example.at`])),
    );
  });

  it('two concurrent bookings by one e-mail that together exceed the per-day maximum: exactly one succeeds', async () => {
    const r = await room('Race booking room');
    const slots = [
      await slot(r, '2026-12-11', '08:00', '09:00', 5),
      await slot(r, '2026-12-11', '10:00', '11:00', 5),
      await slot(r, '2026-12-11', '12:00', '13:00', 5),
      await slot(r, '2026-12-11', '14:00', '15:00', 5),
    ];
    for (let round = 0; round < 3; round++) {
      const email = `race${round}@example.at`;
      const v1 = new Client(app.baseUrl);
      const v2 = new Client(app.baseUrl);
      const tx1 = await cartOf(v1, slots[0]!, slots[1]!);
      const tx2 = await cartOf(v2, slots[2]!, slots[3]!);
      const [a, b] = await Promise.all([
        book(v1, tx1, { ...owner, email }),
        book(v2, tx2, { ...owner, email }),
      ]);
      const ok = [a, b].filter((x) => x.status === 200);
      const no = [a, b].filter((x) => x.status !== 200);
      expect(ok).toHaveLength(1);
      expect(no[0]!.status).toBeLessThan(500);
      expect(((await no[0]!.json()) as Problem).payload).toEqual([
        'max_tickets_per_day_reached',
        '2026-12-11',
        '2',
      ]);
      // Free the seats of the losing cart for the next round.
      const loser = no[0] === a ? { c: v1, tx: tx1 } : { c: v2, tx: tx2 };
      await loser.c.request('DELETE', `/api/transactions/${loser.tx}`);
      const winner = (await ok[0]!.json()) as { ownerId: string; tickets: { id: string }[] };
      await new Client(app.baseUrl).request(
        'DELETE',
        `/api/owners/${winner.ownerId}/tickets?ids=${winner.tickets.map((t) => t.id).join(',')}`,
      );
    }
  });
});
