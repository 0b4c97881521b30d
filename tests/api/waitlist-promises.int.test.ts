import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { matchWaitlists } from '@rr/command-service';
import { readModelProjections, rebuildProjection } from '@rr/projections';
import { addUser, Client } from '../support/app.ts';
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
 * What the waitlist promises a visitor beyond a place in line: a mail confirming it with a link
 * to leave, the place found again after a reload, staff who see and remove entries, and offers
 * only to those the per-visitor limits let take the seat. Every time step is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const advance = (minutes: number) => clock.advance(minutes * 60_000);
let suite: MailSuite;
let roomId: string;
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);

const owner = WAITLIST_OWNER;
const join = joinWaitlist;
/** Fills the slot with carts' holds (answers the carts' ids). */
const fill = (slotId: string, seats: number) => fillWithHolds(suite.app.baseUrl, slotId, seats);

/** The entries offered a seat (by the offers' events) with the address each entry joined with. */
async function offeredAddresses(slotIds: string[]) {
  const r = await suite.db.pool.query<{ time_slot_id: string; email: string; status: string }>(
    `SELECT w.time_slot_id, w.email, w.status FROM waitlist_entries w
      WHERE w.time_slot_id = ANY($1::uuid[])`,
    [slotIds],
  );
  const offered = await suite.db.pool.query<{ entry_id: string }>(
    `SELECT data->>'entryId' AS entry_id FROM events WHERE event_type = 'SeatOffered'
      AND data->>'timeSlotId' = ANY($1::text[])`,
    [slotIds],
  );
  return { rows: r.rows, offers: offered.rows.length };
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
  roomId = await createRoom(suite.admin, 'Waitlist promises room');
  const set = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { waitlistOfferMinutes: 30 },
  });
  expect(set.status).toBe(200);
});
afterAll(() => suite.close());

describe('offers respect the per-visitor limits', () => {
  it('one address waiting on six slots of a day is offered only as many as it may book that day; the others go to the next in line', async () => {
    const date = day(5);
    const v = new Client(suite.app.baseUrl);
    // The first reader booked a seat that day already: one more is all the day's limit (2) lets.
    const booked = await createSlot(suite.admin, roomId, date, '07:00', '07:30', 1);
    const [cart] = await fill(booked, 1);
    const booking = await v.request('PUT', `/api/transactions/${cart}/booking`, {
      json: { ...owner, email: 'first@example.at', language: 'de' },
    });
    expect(booking.status).toBe(200);

    const starts = ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00'];
    const slots: string[] = [];
    for (const start of starts)
      slots.push(await createSlot(suite.admin, roomId, date, start, `${start.slice(0, 2)}:45`, 1));
    for (const slot of slots) await fill(slot, 1);
    const readers = ['first', 'second', 'third', 'fourth'].map((n) => `${n}@example.at`);
    for (const slot of slots)
      for (const email of readers)
        expect((await join(v, slot, { email, language: 'en' })).status).toBe(201);

    // The carts' holds end: a seat frees in each of the six slots.
    advance(16);
    expect(await matchWaitlists(suite.app.deps)).toBe(6);
    const { rows, offers } = await offeredAddresses(slots);
    expect(offers).toBe(6);
    const offeredTo = (email: string) =>
      rows.filter((r) => r.email === email && r.status === 'offered').length;
    // Whatever order the matcher visits the slots in: the first reader one (a booking counts),
    // the second and third two each (the day's limit), the fourth the one left.
    expect(readers.map(offeredTo)).toEqual([1, 2, 2, 1]);
    // Those passed over keep their place in line.
    expect(rows.filter((r) => r.email === readers[0] && r.status === 'waiting')).toHaveLength(5);
    // Another round offers nothing more: nobody left in line may take another seat of the day.
    expect(await matchWaitlists(suite.app.deps)).toBe(0);
  });
});

type Joined = { entryId: string; positionInLine: number; reference: string };
type Place = { entryId: string; status: string; positionInLine: number | null };

/** The visitor's place as a fresh page load asks for it, once the line has recorded `status`. */
async function placeOf(c: Client, reference: string, status: string): Promise<Place> {
  let place: Place | null = null;
  await waitFor(
    `the entry to be ${status}`,
    async () => {
      const r = await c.get(`/api/waitlist/${encodeURIComponent(reference)}`);
      place = r.status === 200 ? ((await r.json()) as Place) : null;
      return place?.status === status;
    },
    budget(5000),
  );
  return place!;
}

async function eventsOf(type: string, entryId: string) {
  return (
    await suite.db.pool.query<{ actor: { kind: string; username?: string } }>(
      `SELECT metadata->'actor' AS actor FROM events WHERE event_type = $1 AND data->>'entryId' = $2`,
      [type, entryId],
    )
  ).rows.map((r) => r.actor);
}

describe('joining is confirmed by mail, and the line can be left', () => {
  it('the joining mail carries the leave link; the place survives a reload; leaving by the link is once and for all', async () => {
    const slot = await createSlot(suite.admin, roomId, day(3), '09:00', '10:00', 1);
    await fill(slot, 1);
    const v = new Client(suite.app.baseUrl);
    const first = await join(v, slot, { email: 'anna@example.at', language: 'de' });
    expect(first.status).toBe(201);
    const anna = (await first.json()) as Joined;
    const second = await join(v, slot, { email: 'ben@example.at', language: 'en' });
    const ben = (await second.json()) as Joined;
    expect(ben.positionInLine).toBe(2);

    // The mails, in each entry's language, each with its own leave link.
    await waitFor(
      'the joining mails to be queued',
      async () =>
        Number(
          (
            await suite.db.pool.query<{ n: string }>(
              `SELECT count(*) AS n FROM mail_outbox WHERE kind = 'waitlist-joined' AND owner_id = ANY($1)`,
              [[anna.entryId, ben.entryId]],
            )
          ).rows[0]!.n,
        ) === 2,
      budget(5000),
    );
    await suite.sender.sendDue();
    const mailTo = (email: string) =>
      suite.sink.messages.find((m) => (m.to as { text: string }).text === email)!;
    expect(mailTo('anna@example.at').subject).toBe(
      'Sie stehen auf der Warteliste: Waitlist promises room',
    );
    expect(mailTo('ben@example.at').subject).toBe(
      'You are on the waitlist: Waitlist promises room',
    );
    // Each link opens the page in its mail's language.
    const link = /waitlist-leave\/([^\s?]+)\?lang=en\s/.exec(mailTo('ben@example.at').text!)!;
    expect(decodeURIComponent(link[1]!)).toBe(ben.reference);
    expect(mailTo('anna@example.at').text).toContain(`waitlist-leave/${anna.reference}?lang=de`);

    // A reload: the page asks again by the reference it kept, and finds the place.
    expect(await placeOf(new Client(suite.app.baseUrl), ben.reference, 'waiting')).toEqual({
      entryId: ben.entryId,
      timeSlotId: slot,
      status: 'waiting',
      positionInLine: 2,
      offerExpiresAt: null,
      // The slot waited for, named on the visitor's page and the leave page.
      slot: {
        roomId,
        roomName: 'Waitlist promises room',
        date: day(3),
        startTime: '09:00',
        endTime: '10:00',
      },
    });
    // Joining again with the same address takes no second place; the place itself is the
    // reference's to tell (an address alone never reveals or hands out an entry).
    const again = await join(v, slot, { email: 'Ben@example.at', language: 'en' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      error: 'waitlist__already_joined',
      payload: [],
    });

    // Unknown and forged references: 404, both for the place and for leaving.
    const forged = `${ben.entryId}.${'A'.repeat(22)}`;
    for (const ref of [
      forged,
      'nonsense',
      `${crypto.randomUUID()}.${ben.reference.split('.')[1]}`,
    ]) {
      expect((await v.get(`/api/waitlist/${encodeURIComponent(ref)}`)).status).toBe(404);
      expect((await v.request('DELETE', `/api/waitlist/${encodeURIComponent(ref)}`)).status).toBe(
        404,
      );
    }

    // Anna leaves by her link: Ben moves up; a second click changes nothing.
    const left = await v.request('DELETE', `/api/waitlist/${encodeURIComponent(anna.reference)}`);
    expect(left.status).toBe(200);
    expect(await left.json()).toMatchObject({ status: 'left' });
    const twice = await v.request('DELETE', `/api/waitlist/${encodeURIComponent(anna.reference)}`);
    expect(twice.status).toBe(200);
    expect(await twice.json()).toMatchObject({ status: 'left' });
    expect(await eventsOf('WaitlistLeft', anna.entryId)).toEqual([{ kind: 'visitor' }]);
    const leftPlace = await placeOf(v, anna.reference, 'left');
    expect(leftPlace.positionInLine).toBeNull();
    // The slot left stays named (the leave page says which one was left).
    expect(leftPlace).toMatchObject({ slot: { date: day(3), startTime: '09:00' } });
    expect((await placeOf(v, ben.reference, 'waiting')).positionInLine).toBe(1);

    // A seat frees: it goes to Ben, never to Anna, who left.
    advance(16);
    expect(await matchWaitlists(suite.app.deps)).toBe(1);
    expect((await placeOf(v, ben.reference, 'offered')).positionInLine).toBeNull();
    const offered = await suite.db.pool.query<{ entry_id: string }>(
      `SELECT data->>'entryId' AS entry_id FROM events WHERE event_type = 'SeatOffered' AND data->>'timeSlotId' = $1`,
      [slot],
    );
    expect(offered.rows).toEqual([{ entry_id: ben.entryId }]);
    // Who left may join again, last in line.
    expect((await join(v, slot, { email: 'anna@example.at', language: 'de' })).status).toBe(201);
  });
});

describe('staff see and remove entries', () => {
  it('the line shows each address; only an admin removes an entry, which then gets no offer', async () => {
    const slot = await createSlot(suite.admin, roomId, day(4), '09:00', '10:00', 1);
    await fill(slot, 1);
    const v = new Client(suite.app.baseUrl);
    const carla = (await (
      await join(v, slot, { email: 'carla@example.at', language: 'de' })
    ).json()) as Joined;
    const dora = (await (
      await join(v, slot, { email: 'dora@example.at', language: 'en' })
    ).json()) as Joined;
    const listUrl = `/api/admin/rooms/${roomId}/timeslots/${slot}/waitlist`;
    type Line = { content: { entryId: string; email: string | null; status: string }[] };
    let line: Line = { content: [] };
    await waitFor(
      'the line to show both entries',
      async () => {
        line = (await (await suite.admin.get(listUrl)).json()) as Line;
        return line.content.length === 2;
      },
      budget(5000),
    );
    expect(line.content.map((e) => [e.entryId, e.email, e.status])).toEqual([
      [carla.entryId, 'carla@example.at', 'waiting'],
      [dora.entryId, 'dora@example.at', 'waiting'],
    ]);
    // The read model itself holds no address: it is joined from beside the log at read time.
    const rm = await suite.db.pool.query('SELECT * FROM rm_waitlist WHERE time_slot_id = $1', [
      slot,
    ]);
    expect(JSON.stringify(rm.rows)).not.toContain('example.at');

    const removeUrl = `${listUrl}/${carla.entryId}`;
    expect((await v.request('DELETE', removeUrl)).status).toBe(401);
    await addUser(suite.db, 'reader-of-reports', 'correct horse', ['reports']);
    const reports = new Client(suite.app.baseUrl);
    expect((await reports.login('reader-of-reports', 'correct horse')).status).toBe(200);
    expect((await reports.request('DELETE', removeUrl)).status).toBe(403);
    expect((await reports.get(listUrl)).status).toBe(200);
    const unknown = `${listUrl}/${crypto.randomUUID()}`;
    expect((await suite.admin.request('DELETE', unknown)).status).toBe(404);
    const otherRoom = `/api/admin/rooms/${crypto.randomUUID()}/timeslots/${slot}/waitlist/${carla.entryId}`;
    expect((await suite.admin.request('DELETE', otherRoom)).status).toBe(404);

    const removed = await suite.admin.request('DELETE', removeUrl);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({ status: 'removed' });
    expect((await suite.admin.request('DELETE', removeUrl)).status).toBe(200);
    const events = await eventsOf('WaitlistEntryRemovedByStaff', carla.entryId);
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({ kind: 'admin', username: 'boss' });
    expect((await placeOf(v, carla.reference, 'removed')).positionInLine).toBeNull();

    // The freed seat goes to Dora, not to Carla.
    advance(16);
    await matchWaitlists(suite.app.deps);
    const offered = await suite.db.pool.query<{ entry_id: string }>(
      `SELECT data->>'entryId' AS entry_id FROM events WHERE event_type = 'SeatOffered' AND data->>'timeSlotId' = $1`,
      [slot],
    );
    expect(offered.rows).toEqual([{ entry_id: dora.entryId }]);
    expect((await placeOf(v, dora.reference, 'offered')).status).toBe('offered');
    expect((await placeOf(v, carla.reference, 'removed')).status).toBe('removed');

    // The staff's line is the log's: a rebuild gives the same rows (left and removed included).
    // Dora leaves while her offer is out: the entry is out of line, its seat free again.
    const left = await v.request('DELETE', `/api/waitlist/${encodeURIComponent(dora.reference)}`);
    expect(await left.json()).toMatchObject({ status: 'left' });
    await placeOf(v, dora.reference, 'left');
    const rows = async () =>
      (
        await suite.db.pool.query<Record<string, unknown>>(
          'SELECT * FROM rm_waitlist WHERE time_slot_id = $1 ORDER BY entry_id',
          [slot],
        )
      ).rows;
    const projected = await rows();
    expect(projected.map((r) => r.status)).toEqual(expect.arrayContaining(['left', 'removed']));
    const waitlist = readModelProjections.find((p) => p.name === 'waitlist')!;
    await rebuildProjection(suite.db.pool, suite.app.deps.store, waitlist);
    expect(await rows()).toEqual(projected);
  });
});
