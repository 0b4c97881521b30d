import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { erasePersonalData, matchWaitlists } from '@rr/command-service';
import { readModelProjections, rebuildProjection } from '@rr/projections';
import { Client } from '../support/app.ts';
import {
  createRoom,
  createSlot,
  fillWithHolds,
  joinWaitlist,
  openMailSuite,
  WAITLIST_OWNER,
  type MailSuite,
} from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The waitlist: joining a full slot, one offer per freed seat under any concurrency,
 * lapses to the next in line, the offer mail, and following it into a cart. Every time step is
 * the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const advance = (minutes: number) => clock.advance(minutes * 60_000);
let suite: MailSuite;
let roomId: string;
let plainRoomId: string;
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);

const owner = WAITLIST_OWNER;
const join = joinWaitlist;
/** Fills the slot with carts' holds (answers the carts' ids). */
const fill = (slotId: string, seats: number) => fillWithHolds(suite.app.baseUrl, slotId, seats);

async function slotEvents(slotId: string, type: string) {
  const r = await suite.db.pool.query<{ data: Record<string, string> }>(
    `SELECT data FROM events WHERE stream_id = $1 AND event_type = $2 ORDER BY stream_version`,
    [`timeslot-${slotId}`, type],
  );
  return r.rows.map((x) => x.data);
}

async function entriesInLine(slotId: string): Promise<string[]> {
  return (await slotEvents(slotId, 'WaitlistJoined')).map((d) => d.entryId!);
}

/** The entry's row beside the log (its address and language). */
async function entryRow(entryId: string) {
  const r = await suite.db.pool.query<{ email: string; language: string }>(
    'SELECT email, language FROM waitlist_entries WHERE entry_id = $1',
    [entryId],
  );
  return r.rows[0]!;
}

async function outboxHas(kind: string, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = await suite.db.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM mail_outbox WHERE kind = $1',
      [kind],
    );
    if (Number(r.rows[0]!.n) >= n) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`outbox never reached ${n} ${kind} mails`);
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
  roomId = await createRoom(suite.admin, 'Waitlist room');
  const set = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { waitlistOfferMinutes: 30 },
  });
  expect(set.status).toBe(200);
  plainRoomId = await createRoom(suite.admin, 'Room without waitlist');
});
afterAll(() => suite.close());

describe('joining a waitlist', () => {
  it('is refused on a slot with free seats, in a room without a waitlist, and for bad input', async () => {
    const v = new Client(suite.app.baseUrl);
    const open = await createSlot(suite.admin, roomId, day(3), '08:00', '09:00', 1);
    const free = await join(v, open, { email: 'early@example.at', language: 'en' });
    expect(free.status).toBe(409);
    expect(((await free.json()) as { error: string }).error).toBe('waitlist__seats_free');

    const plain = await createSlot(suite.admin, plainRoomId, day(3), '08:00', '09:00', 1);
    await fill(plain, 1);
    const none = await join(v, plain, { email: 'early@example.at', language: 'en' });
    expect(none.status).toBe(409);
    expect(((await none.json()) as { error: string }).error).toBe('waitlist__not_available');

    // Booked, so the seat stays taken through the later tests' time steps.
    const [held] = await fill(open, 1);
    const booking = await v.request('PUT', `/api/transactions/${held}/booking`, {
      json: { ...owner, email: 'first@example.at', language: 'de' },
    });
    expect(booking.status).toBe(200);
    const bad = await join(v, open, { email: 'not an address', language: 'fr' });
    expect(bad.status).toBe(400);
    const problem = (await bad.json()) as { error: string; errors: { field: string }[] };
    expect(problem.error).toBe('validation__error');
    expect(problem.errors.map((f) => f.field).sort()).toEqual(['email', 'language']);
    expect(await entriesInLine(open)).toEqual([]);

    const ok = await join(v, open, { email: 'Early@Example.at ', language: 'en' });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ positionInLine: 1 });
    const twice = await join(v, open, { email: 'early@example.at', language: 'de' });
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { error: string }).error).toBe('waitlist__already_joined');
    // The events carry the key, never the address.
    const events = await suite.db.pool.query<{ data: string }>(
      `SELECT data::text AS data FROM events WHERE event_type = 'WaitlistJoined'`,
    );
    expect(events.rows.some((r) => r.data.includes('example.at'))).toBe(false);
  });

  it('a blacklisted address is refused as a booking is', async () => {
    const slot = await createSlot(suite.admin, roomId, day(3), '10:00', '11:00', 1);
    await fill(slot, 1);
    const add = await suite.admin.request('POST', '/api/admin/blacklist', {
      json: { email: 'blocked@example.at', expiredAt: day(60) },
    });
    expect(add.status).toBe(201);
    const r = await join(new Client(suite.app.baseUrl), slot, {
      email: 'blocked@example.at',
      language: 'de',
    });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { error: string }).error).toBe('booking__email_blacklisted');
  });
});

describe('offers under concurrency', () => {
  it('50 joins and 10 seats freed at once give exactly 10 offers; a lapse goes to the next; the offer mail leads into a cart', async () => {
    const slot = await createSlot(suite.admin, roomId, day(4), '09:00', '12:00', 10);
    await fill(slot, 10);
    const v = new Client(suite.app.baseUrl);
    // 50 concurrent joins: each gets a place, none twice.
    const joins = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        join(v, slot, { email: `reader${i}@example.at`, language: i % 2 ? 'en' : 'de' }),
      ),
    );
    expect(joins.map((r) => r.status)).toEqual(Array(50).fill(201));
    const places = await Promise.all(
      joins.map(async (r) => ((await r.json()) as { positionInLine: number }).positionInLine),
    );
    expect(new Set(places).size).toBe(50);
    const line = await entriesInLine(slot);
    expect(line).toHaveLength(50);

    // The 10 carts' holds end at once: 10 seats free. Matchers race each other and carts race them.
    advance(16);
    const carts = Array.from({ length: 10 }, () =>
      new Client(suite.app.baseUrl).request('POST', '/api/transactions', {
        json: { timeSlotId: slot },
      }),
    );
    const rounds = await Promise.all([
      ...Array.from({ length: 5 }, () => matchWaitlists(suite.app.deps)),
      ...carts,
    ]);
    const offersMade = (rounds.slice(0, 5) as number[]).reduce((a, b) => a + b, 0);
    expect(offersMade).toBe(10);
    // No cart took a freed seat: those seats were the waiting readers'.
    for (const r of rounds.slice(5) as Response[]) expect(r.status).toBe(409);
    const offers = await slotEvents(slot, 'SeatOffered');
    expect(offers).toHaveLength(10);
    expect(offers.map((o) => o.entryId)).toEqual(line.slice(0, 10));
    expect(new Set(offers.map((o) => o.offerId)).size).toBe(10);
    expect(offers[0]!.expiresAt).toBe(new Date(clock.now().getTime() + 30 * 60_000).toISOString());
    // Another round offers nothing more.
    expect(await matchWaitlists(suite.app.deps)).toBe(0);

    // The offer mails, each in its entry's language.
    await outboxHas('waitlist-offer', 10);
    await suite.sender.sendDue();
    const offerMails = suite.sink.messages.filter((m) =>
      /frei geworden|become free/.test(m.subject ?? ''),
    );
    expect(offerMails).toHaveLength(10);
    // Each mail in its entry's language (the joins alternate German and English).
    for (const offer of offers) {
      const entry = await entryRow(offer.entryId!);
      const mail = offerMails.find((m) => (m.to as { text: string }).text === entry.email)!;
      expect(mail.subject).toBe(
        entry.language === 'de'
          ? 'Ein Platz ist frei geworden: Waitlist room'
          : 'A seat has become free: Waitlist room',
      );
      // The link opens the page in the mail's language.
      expect(mail.text).toContain(`waitlist-offer/${slot}/${offer.offerId}?lang=${entry.language}`);
    }
    expect(
      new Set(await Promise.all(offers.map(async (o) => (await entryRow(o.entryId!)).language))),
    ).toEqual(new Set(['de', 'en']));

    // Nobody takes them in time: they lapse and go to the next ten.
    advance(31);
    expect(await matchWaitlists(suite.app.deps)).toBe(10);
    expect(await slotEvents(slot, 'SeatOfferLapsed')).toHaveLength(10);
    const next = (await slotEvents(slot, 'SeatOffered')).slice(10);
    expect(next.map((o) => o.entryId)).toEqual(line.slice(10, 20));
    const lapsed = await v.request(
      'POST',
      `/api/timeslots/${slot}/waitlist/offers/${offers[0]!.offerId}`,
    );
    expect(lapsed.status).toBe(409);
    expect(((await lapsed.json()) as { error: string }).error).toBe('waitlist__offer_not_valid');

    // Following the eleventh reader's mail's link: the seat is in a new cart.
    await outboxHas('waitlist-offer', 20);
    await suite.sender.sendDue();
    const eleventh = await entryRow(line[10]!);
    // Their offer's mail (the first they got confirmed the joining).
    const reader10 = suite.sink.messages.find(
      (m) =>
        (m.to as { text: string }).text === eleventh.email &&
        /frei geworden|become free/.test(m.subject ?? ''),
    )!;
    const link = /waitlist-offer\/([0-9a-f-]{36})\/([0-9a-f]{32})/.exec(reader10.text!)!;
    const visitor = new Client(suite.app.baseUrl);
    const taken = await visitor.request(
      'POST',
      `/api/timeslots/${link[1]}/waitlist/offers/${link[2]}`,
    );
    expect(taken.status, await taken.clone().text()).toBe(201);
    const cart = (await taken.json()) as {
      transactionId: string;
      expiredAt: string;
      ticket: { timeSlotId: string; status: string };
    };
    expect(cart.ticket).toMatchObject({ timeSlotId: slot, status: 'NEW' });
    expect(cart.expiredAt).toBe(new Date(clock.now().getTime() + 15 * 60_000).toISOString());
    const again = await visitor.request(
      'POST',
      `/api/timeslots/${link[1]}/waitlist/offers/${link[2]}`,
    );
    expect(again.status).toBe(409);
    const booked = await visitor.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
      json: { ...owner, email: eleventh.email, language: 'en' },
    });
    expect(booked.status).toBe(200);

    // Still never more seats than the slot has.
    const r = await suite.db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE stream_id = $1 AND event_type = 'SeatOffered'`,
      [`timeslot-${slot}`],
    );
    expect(Number(r.rows[0]!.n)).toBe(20);

    // Staff see the line: entries in order with their status (and each address, read beside the
    // log: the read model holds none).
    let staff: { content: { positionInLine: number; status: string }[] } = { content: [] };
    for (let i = 0; i < 100; i++) {
      staff = (await (
        await suite.admin.get(`/api/admin/rooms/${roomId}/timeslots/${slot}/waitlist`)
      ).json()) as typeof staff;
      if (staff.content[10]?.status === 'booked') break;
      await new Promise((res) => setTimeout(res, 25));
    }
    expect(staff.content).toHaveLength(50);
    expect(staff.content.slice(0, 10).every((e) => e.status === 'lapsed')).toBe(true);
    expect(staff.content[10]!.status).toBe('booked');
    expect(staff.content[11]!.status).toBe('offered');
    expect(staff.content[20]!.status).toBe('waiting');
    expect(staff.content[20]).toMatchObject({
      email: await entryRow(line[20]!).then((e) => e.email),
    });
    const rm = await suite.db.pool.query('SELECT * FROM rm_waitlist WHERE time_slot_id = $1', [
      slot,
    ]);
    expect(JSON.stringify(rm.rows)).not.toContain('example.at');
  });

  it('the addresses are erased the day after the slot, each by an event the line records', async () => {
    const before = await suite.db.pool.query<{ entry_id: string }>(
      'SELECT entry_id FROM waitlist_entries',
    );
    expect(before.rowCount).toBeGreaterThan(0);
    clock.set(new Date(`${day(6)}T09:00:00Z`));
    await erasePersonalData(suite.app.deps);
    const after = await suite.db.pool.query('SELECT 1 FROM waitlist_entries');
    expect(after.rowCount).toBe(0);
    // One WaitlistEntryErased per entry, by the erasure job; a second round adds none.
    const erasedEvents = async () =>
      (
        await suite.db.pool.query<{ entry_id: string; actor: { job?: string } }>(
          `SELECT data->>'entryId' AS entry_id, metadata->'actor' AS actor FROM events
            WHERE event_type = 'WaitlistEntryErased'`,
        )
      ).rows;
    const events = await erasedEvents();
    expect(events.map((e) => e.entry_id).sort()).toEqual(before.rows.map((r) => r.entry_id).sort());
    expect(events.every((e) => e.actor.job === 'personal-data-erasure')).toBe(true);
    await erasePersonalData(suite.app.deps);
    expect(await erasedEvents()).toHaveLength(events.length);
    // The staff's line keeps the entries, marked erased; a rebuild from the log gives the same rows.
    const line = async () =>
      (
        await suite.db.pool.query<{ entry_id: string; erased_at: Date | null }>(
          'SELECT * FROM rm_waitlist ORDER BY entry_id',
        )
      ).rows;
    await waitFor(
      'the line to record the erasures',
      async () => (await line()).filter((r) => r.erased_at !== null).length === events.length,
      budget(5000),
    );
    const projected = await line();
    const waitlist = readModelProjections.find((p) => p.name === 'waitlist')!;
    await rebuildProjection(suite.db.pool, suite.app.deps.store, waitlist);
    expect(await line()).toEqual(projected);
  });
});

describe('a freed seat, the calendar and the carts', () => {
  type CalendarSlot = { id: string; failedRules: string[] };
  const calendar = async (c: Client, room: string, date: string) =>
    (await (
      await c.get(`/api/rooms/${room}/booking?fromDate=${date}&untilDate=${date}`)
    ).json()) as CalendarSlot[];
  const newCart = (c: Client, slotId: string) =>
    c.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });

  it('agree: the people waiting claim it while the waitlist is on, a cart may take it once it is off', async () => {
    const room = await createRoom(suite.admin, 'Waitlist turned off');
    const on = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { waitlistOfferMinutes: 30 },
    });
    expect(on.status).toBe(200);
    const slot = await createSlot(suite.admin, room, day(2), '10:00', '11:00', 1);
    const v = new Client(suite.app.baseUrl);
    const held = await newCart(v, slot);
    expect(held.status).toBe(201);
    const { transactionId } = (await held.json()) as { transactionId: string };
    expect((await join(v, slot, { email: 'waiting@example.at', language: 'en' })).status).toBe(201);
    expect((await v.request('DELETE', `/api/transactions/${transactionId}`)).status).toBeLessThan(
      300,
    );

    // The freed seat is the waiting reader's: the calendar and a cart both say so.
    expect((await calendar(v, room, day(2))).find((s) => s.id === slot)!.failedRules).toEqual([
      'timeslot_no_tickets_left',
    ]);
    const refused = await newCart(v, slot);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { payload: string[] }).payload).toEqual([
      'timeslot_no_tickets_left',
    ]);

    // The waitlist turned off: nobody will be offered the seat, so it is bookable, and taken.
    const off = await suite.admin.request('PUT', `/api/admin/rooms/${room}/services`, {
      json: { waitlistOfferMinutes: null },
    });
    expect(off.status).toBe(200);
    expect(
      (await calendar(suite.admin, room, day(2))).find((s) => s.id === slot)!.failedRules,
    ).toEqual([]);
    expect((await newCart(v, slot)).status).toBe(201);
  });

  it("agree on a seat nobody waiting may take: the one waiting holds the day's maximum elsewhere, so it is passed over and a cart takes the seat", async () => {
    const date = day(4);
    const slot = await createSlot(suite.admin, roomId, date, '10:00', '11:00', 1);
    const v = new Client(suite.app.baseUrl);
    // The slot's one seat is booked by another reader; the waiting reader joins while within the
    // limits, then books the day's maximum (2) in two other slots of that day.
    const bookSeat = async (slotId: string, email: string) => {
      const [cart] = await fill(slotId, 1);
      const r = await v.request('PUT', `/api/transactions/${cart}/booking`, {
        json: { ...owner, email, language: 'en' },
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as { ownerId: string }).ownerId;
    };
    const seatOwner = await bookSeat(slot, 'seated@example.at');
    expect((await join(v, slot, { email: 'at-limit@example.at', language: 'en' })).status).toBe(
      201,
    );
    for (const start of ['08:00', '13:00'])
      await bookSeat(
        await createSlot(suite.admin, roomId, date, start, `${start.slice(0, 2)}:45`, 1),
        'at-limit@example.at',
      );

    // The booking of the slot's seat is cancelled: the seat frees, and the matcher finds nobody
    // in line who may take it.
    const tickets = (await (await v.get(`/api/owners/${seatOwner}/tickets`)).json()) as {
      id: string;
    }[];
    const cancel = await v.request(
      'DELETE',
      `/api/owners/${seatOwner}/tickets?ids=${tickets.map((t) => t.id).join(',')}`,
    );
    expect(cancel.status).toBe(200);
    expect(await matchWaitlists(suite.app.deps)).toBe(0);
    const [entryId] = await entriesInLine(slot);
    expect(await slotEvents(slot, 'WaitlistEntryPassedOver')).toEqual([
      { entryId, timeSlotId: slot },
    ]);
    // Once: another round records nothing more while the limits still bar the reader.
    expect(await matchWaitlists(suite.app.deps)).toBe(0);
    expect(await slotEvents(slot, 'WaitlistEntryPassedOver')).toHaveLength(1);

    // The calendar shows the seat free, and a third reader's cart takes it.
    await waitFor(
      'the calendar to show the seat free',
      async () => {
        const shown = (await calendar(new Client(suite.app.baseUrl), roomId, date)).find(
          (s) => s.id === slot,
        );
        return shown?.failedRules.length === 0;
      },
      budget(5000),
    );
    expect((await newCart(new Client(suite.app.baseUrl), slot)).status).toBe(201);

    // Staff's line keeps the reader in place, marked passed over.
    const line = (await (
      await suite.admin.get(`/api/admin/rooms/${roomId}/timeslots/${slot}/waitlist`)
    ).json()) as { content: { entryId: string; status: string; passedOver: boolean }[] };
    expect(line.content).toMatchObject([{ entryId, status: 'waiting', passedOver: true }]);
  });
});
