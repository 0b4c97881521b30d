import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { matchWaitlists } from '@rr/command-service';
import { openAdminSuite, Client, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot, fillWithHolds, joinWaitlist } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Leaving the waitlist and coming back (docs/product.md#waitlist): whom staff took off the line
 * cannot join that slot again; an offer still out when its entry leaves frees its seat for the
 * next in line; who left and joins again is last in line. Every time step is the injected
 * clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const advance = (minutes: number) => clock.advance(minutes * 60_000);
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: AdminSuite;
let roomId: string;
/**
 * The visitors' browser: each address joins and leaves through it, and its reads wait for its
 * own writes (read-your-writes), as the waitlist page's do.
 */
let visitor: Client;

type Joined = { entryId: string; positionInLine: number; reference: string };
type Place = { entryId: string; status: string; positionInLine: number | null };

/** A full slot of the room: its seats held by carts, which end 15 minutes from now. */
async function fullSlot(date: string, start: string, seats: number): Promise<string> {
  const slot = await createSlot(suite.admin, roomId, date, start, `${start.slice(0, 2)}:50`, seats);
  await fillWithHolds(suite.app.baseUrl, slot, seats);
  return slot;
}

/** Joins the slot's line with the address; answers the entry. */
async function joined(slot: string, email: string): Promise<Joined> {
  const r = await joinWaitlist(visitor, slot, { email, language: 'de' });
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json()) as Joined;
}

async function leave(entry: Joined) {
  const r = await visitor.request('DELETE', `/api/waitlist/${encodeURIComponent(entry.reference)}`);
  expect(r.status).toBe(200);
  expect(await r.json()).toMatchObject({ status: 'left' });
}

/** The visitor's place as the page asks for it after a reload, once the line records `status`. */
async function placeOf(entry: Joined, status: string): Promise<Place> {
  let place: Place | null = null;
  await waitFor(
    `the entry to be ${status}`,
    async () => {
      const r = await visitor.get(`/api/waitlist/${encodeURIComponent(entry.reference)}`);
      place = r.status === 200 ? ((await r.json()) as Place) : null;
      return place?.status === status;
    },
    budget(5000),
  );
  return place!;
}

/** The slot's offers in the order the log has them. */
async function offers(slot: string): Promise<{ entryId: string; offerId: string }[]> {
  const r = await suite.db.pool.query<{ entry_id: string; offer_id: string }>(
    `SELECT data->>'entryId' AS entry_id, data->>'offerId' AS offer_id FROM events
      WHERE stream_id = $1 AND event_type = 'SeatOffered' ORDER BY stream_version`,
    [`timeslot-${slot}`],
  );
  return r.rows.map((o) => ({ entryId: o.entry_id, offerId: o.offer_id }));
}

/**
 * A matcher round over every slot (an earlier test's slot may get offers too: each test reads
 * its own slot's offers).
 */
const match = () => matchWaitlists(suite.app.deps);

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  visitor = new Client(suite.app.baseUrl);
  roomId = await createRoom(suite.admin, 'Waitlist leaving room');
  const set = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { waitlistOfferMinutes: 30 },
  });
  expect(set.status).toBe(200);
});
afterAll(() => suite.close());

describe('an entry staff took off the line', () => {
  it('cannot join that slot again, with any spelling of its address; others still can', async () => {
    const slot = await fullSlot(day(3), '09:00', 1);
    const carla = await joined(slot, 'carla@example.at');
    const removed = await suite.admin.request(
      'DELETE',
      `/api/admin/rooms/${roomId}/timeslots/${slot}/waitlist/${carla.entryId}`,
    );
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({ status: 'removed' });

    for (const email of ['carla@example.at', ' Carla@Example.at']) {
      const again = await joinWaitlist(visitor, slot, { email, language: 'en' });
      expect(again.status, email).toBe(409);
      expect(((await again.json()) as { error: string }).error).toBe('waitlist__already_joined');
    }
    // Her removed entry stays the only one of hers: the refusal wrote nothing.
    const dora = await joined(slot, 'dora@example.at');
    expect(dora.positionInLine).toBe(1);
    const joins = await suite.db.pool.query<{ entry_id: string }>(
      `SELECT data->>'entryId' AS entry_id FROM events
        WHERE stream_id = $1 AND event_type = 'WaitlistJoined' ORDER BY stream_version`,
      [`timeslot-${slot}`],
    );
    expect(joins.rows.map((j) => j.entry_id)).toEqual([carla.entryId, dora.entryId]);
  });
});

describe('an offer still out when its entry leaves', () => {
  it('frees its seat: the next round offers it to the next in line, and the offer left cannot be taken', async () => {
    const slot = await fullSlot(day(4), '09:00', 1);
    const emil = await joined(slot, 'emil@example.at');
    const frieda = await joined(slot, 'frieda@example.at');
    // The cart's hold ends: the seat is offered to Emil, for 30 minutes.
    advance(16);
    await match();
    const [emilsOffer, ...none] = await offers(slot);
    expect(emilsOffer!.entryId).toBe(emil.entryId);
    expect(none).toEqual([]);
    // The offer holds the seat while it is out: another round offers nothing.
    await match();
    expect(await offers(slot)).toHaveLength(1);

    // Emil leaves five minutes later, his offer still out.
    advance(5);
    await leave(emil);
    await match();
    expect((await offers(slot)).map((o) => o.entryId)).toEqual([emil.entryId, frieda.entryId]);
    expect((await placeOf(frieda, 'offered')).positionInLine).toBeNull();
    expect((await placeOf(emil, 'left')).positionInLine).toBeNull();
    // His mail's link no longer gives him the seat.
    const taken = await visitor.request(
      'POST',
      `/api/timeslots/${slot}/waitlist/offers/${emilsOffer!.offerId}`,
    );
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: string }).error).toBe('waitlist__offer_not_valid');
  });
});

describe('who left and joins again', () => {
  it('is last in line: behind those who waited on, ahead of those who join later; the offers come in that order', async () => {
    const slot = await fullSlot(day(5), '09:00', 3);
    const gabi = await joined(slot, 'gabi@example.at');
    const hans = await joined(slot, 'hans@example.at');
    const ida = await joined(slot, 'ida@example.at');
    await leave(gabi);
    const back = await joined(slot, 'gabi@example.at');
    expect(back.entryId).not.toBe(gabi.entryId);
    expect(back.positionInLine).toBe(3);
    const jakob = await joined(slot, 'jakob@example.at');
    expect(jakob.positionInLine).toBe(4);
    // A reload shows the same places.
    expect((await placeOf(hans, 'waiting')).positionInLine).toBe(1);
    expect((await placeOf(ida, 'waiting')).positionInLine).toBe(2);
    expect((await placeOf(back, 'waiting')).positionInLine).toBe(3);
    expect((await placeOf(jakob, 'waiting')).positionInLine).toBe(4);

    // The three carts' holds end: three offers, in line order; Jakob waits on, now first.
    advance(16);
    await match();
    expect((await offers(slot)).map((o) => o.entryId)).toEqual([
      hans.entryId,
      ida.entryId,
      back.entryId,
    ]);
    // The matcher wrote the offers, not the visitor's browser: its page shows them once the
    // line has caught up.
    await expect
      .poll(async () => (await placeOf(jakob, 'waiting')).positionInLine, {
        timeout: budget(5000),
      })
      .toBe(1);
  });
});
