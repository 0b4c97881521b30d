// Where a seat shows beyond the visitor's pages (docs/product.md#how-tickets-take-seats): the
// waitlist offer's mail names the seat the offer holds (read from the SMTP sink), the room's
// staff calendar feed names each booked ticket's seat, in the plan's order, and the check-in
// screen's answers (today's list, a code's lookup) carry it; the visitor's calendar feed names
// their seat, and a seat taken out of service with no free seat of its kind cancels its booking
// with the reason in the mail. Every time step is the injected clock's.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchWaitlists } from '@rr/command-service';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client } from '../support/app.ts';
import {
  createRoom,
  createSlot,
  fillWithHolds,
  joinWaitlist,
  openMailSuite,
  type MailSuite,
} from '../support/fixtures.ts';
import { waitFor } from '../support/wait-for.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const TZ = 'Europe/Vienna';
const day = (n: number) => addDays(todayIn(clock.now(), TZ), n);
const germanDate = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`;
let suite: MailSuite;

/** Sets a room's seats (one row, in the order given); answers their ids by label. */
async function setSeats(roomId: string, seats: [string, string[]][]) {
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: {
      seats: seats.map(([label, attributes], i) => ({ label, attributes, x: 10 + i * 20, y: 50 })),
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const answer = (await res.json()) as { seats: { id: string; label: string }[] };
  return new Map(answer.seats.map((seat) => [seat.label, seat.id]));
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
});
afterAll(() => suite.close());

describe('the waitlist offer mail', () => {
  it('names the seat the offer holds, in the entry’s language', async () => {
    const roomId = await createRoom(suite.admin, 'Wartesaal', { openStartValue: 0 });
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
      json: { waitlistOfferMinutes: 30 },
    });
    expect(services.status).toBe(200);
    // The holds take the seats with the fewest attributes first: C1, then B1 (A1 has a window).
    await setSeats(roomId, [
      ['A1', ['window']],
      ['B1', []],
      ['C1', []],
    ]);
    const date = day(3);
    const slot = await createSlot(suite.admin, roomId, date, '09:00', '11:00', 3);
    await fillWithHolds(suite.app.baseUrl, slot, 3);
    const v = new Client(suite.app.baseUrl);
    for (const [email, language] of [
      ['offer.de@example.at', 'de'],
      ['offer.en@example.at', 'en'],
    ] as const) {
      const joined = await joinWaitlist(v, slot, {
        salutation: 'MS',
        firstName: 'Wanda',
        lastName: 'Warte',
        phone: '+43 1 234',
        accessibility: false,
        email,
        language,
      });
      expect(joined.status, await joined.clone().text()).toBe(201);
    }

    // The holds end: two offers, each holding a seat of its own.
    clock.advance(16 * 60_000);
    expect(await matchWaitlists(suite.app.deps)).toBe(2);
    const offered = await suite.db.pool.query<{ data: { seat?: { label: string } } }>(
      `SELECT data FROM events WHERE stream_id = $1 AND event_type = 'SeatOffered'
        ORDER BY stream_version`,
      [`timeslot-${slot}`],
    );
    const labels = offered.rows.map((row) => row.data.seat?.label);
    expect(labels).toHaveLength(2);
    expect(new Set(labels).size).toBe(2);

    const offerMails = () =>
      suite.sink.messages.filter((m) => /frei geworden|become free/.test(m.subject ?? ''));
    await waitFor(
      'the two offer mails',
      async () => {
        await suite.sender.sendDue();
        return offerMails().length === 2;
      },
      10_000,
    );
    const mailTo = (email: string) =>
      suite.sink.messages.find((m) => (m.to as { text: string }).text === email)!;
    const [de, en] = [mailTo('offer.de@example.at'), mailTo('offer.en@example.at')];
    // The first in line got the first offer.
    expect(de.text).toContain(
      `- Wartesaal, ${germanDate(date)}, 09:00–11:00 Uhr, Platz ${labels[0]}\n`,
    );
    expect(de.html).toContain(`Platz ${labels[0]}</li>`);
    expect(en.text).toMatch(new RegExp(`^- Wartesaal, .*, Seat ${labels[1]}$`, 'm'));
  });
});

describe("the room's staff calendar feed", () => {
  it("names each booked ticket's seat in the plan's order", async () => {
    const roomId = await createRoom(suite.admin, 'Feedsaal', { openStartValue: 0, capacity: 5 });
    const ids = await setSeats(roomId, [
      ['P10', []],
      ['P2', []],
      ['P3', []],
    ]);
    const slot = await createSlot(suite.admin, roomId, day(4), '10:00', '12:00', 3);
    const plain = await createSlot(suite.admin, roomId, day(5), '10:00', '12:00', 3);
    // Staff book P3, then P10: the feed lists them as the plan orders them.
    for (const label of ['P3', 'P10']) {
      const res = await suite.admin.request(
        'POST',
        `/api/admin/rooms/${roomId}/timeslots/${slot}/booking`,
        {
          json: {
            salutation: 'MR',
            firstName: 'Felix',
            lastName: `Feed ${label}`,
            accessibility: false,
            seatId: ids.get(label),
          },
        },
      );
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const res = await suite.admin.get(`/api/admin/rooms/${roomId}/calendar.ics`);
    expect(res.status).toBe(200);
    const cal = new ICAL.Component(ICAL.parse(await res.text()) as unknown[]);
    const description = (id: string) =>
      cal
        .getAllSubcomponents('vevent')
        .map((v) => new ICAL.Event(v))
        .find((e) => e.uid === `${id}@reading-rooms`)?.description;
    expect(description(slot)).toBe('Capacity 3, booked 2, free 1; seats P10, P3');
    // A slot without booked tickets names no seat.
    expect(description(plain)).toBe('Capacity 3, booked 0, free 3');
  });
});

describe('the check-in answers', () => {
  it("carry each ticket's seat", async () => {
    const roomId = await createRoom(suite.admin, 'Eincheck-Saal', { openStartValue: 0 });
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
      json: { checkInMinutesBefore: 1440 },
    });
    expect(services.status).toBe(200);
    const ids = await setSeats(roomId, [
      ['K1', []],
      ['K2', ['lamp']],
    ]);
    // Today (the clock is at 10:00 in Vienna) and in four days.
    const today = await createSlot(suite.admin, roomId, day(0), '18:00', '20:00', 2);
    const later = await createSlot(suite.admin, roomId, day(4), '10:00', '12:00', 2);
    const book = async (slot: string, label: string) => {
      const res = await suite.admin.request(
        'POST',
        `/api/admin/rooms/${roomId}/timeslots/${slot}/booking`,
        {
          json: {
            salutation: 'MS',
            firstName: 'Karla',
            lastName: `Check ${label}`,
            accessibility: false,
            seatId: ids.get(label),
          },
        },
      );
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as { ticketId: string; bookingNumber: string };
    };
    const now = await book(today, 'K2');
    const then = await book(later, 'K1');

    const list = (await (await suite.admin.get('/api/admin/check-in')).json()) as {
      rooms: {
        roomId: string;
        tickets: { id: string; seat: { id: string; label: string } | null }[];
      }[];
    };
    const room = list.rooms.find((r) => r.roomId === roomId)!;
    expect(room.tickets.map((x) => [x.id, x.seat])).toEqual([
      [now.ticketId, { id: ids.get('K2'), label: 'K2' }],
    ]);
    const lookup = await suite.admin.get(
      `/api/admin/check-in/lookup?code=${encodeURIComponent(then.bookingNumber)}`,
    );
    expect(lookup.status).toBe(200);
    const found = (await lookup.json()) as {
      tickets: { id: string; seat: { id: string; label: string } | null }[];
    };
    expect(found.tickets.map((x) => [x.id, x.seat])).toEqual([
      [then.ticketId, { id: ids.get('K1'), label: 'K1' }],
    ]);
  });
});

describe("a visitor's booked seat", () => {
  /** Books the seat of the slot for a visitor of their own; answers the owner id. */
  async function bookSeat(slotId: string, seatId: string, email: string): Promise<string> {
    const v = new Client(suite.app.baseUrl);
    const held = await v.request('POST', '/api/transactions', {
      json: { timeSlotId: slotId, seatId },
    });
    expect(held.status, await held.clone().text()).toBe(201);
    const { transactionId } = (await held.json()) as { transactionId: string };
    const res = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: {
        salutation: 'MS',
        firstName: 'Paula',
        lastName: 'Platz',
        email,
        phone: '+43111222',
        accessibility: false,
        language: 'de',
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { ownerId: string }).ownerId;
  }

  it("is named in the visitor's calendar feed, and a seat out of service with none of its kind free cancels it with the reason in the mail", async () => {
    const roomId = await createRoom(suite.admin, 'Lampensaal', { openStartValue: 0, capacity: 5 });
    const ids = await setSeats(roomId, [
      ['K1', ['power']],
      ['K2', []],
    ]);
    const slot = await createSlot(suite.admin, roomId, day(6), '10:00', '12:00', 2);
    const cancelledOwner = await bookSeat(slot, ids.get('K1')!, 'lampe.k1@example.at');
    const keptOwner = await bookSeat(slot, ids.get('K2')!, 'lampe.k2@example.at');

    // The visitor's feed names the seat beside the room (once the read models have the booking).
    const locations = async () => {
      const feed = await new Client(suite.app.baseUrl).get(`/api/owners/${keptOwner}/tickets.ics`);
      expect(feed.status).toBe(200);
      const cal = new ICAL.Component(ICAL.parse(await feed.text()) as unknown[]);
      return cal.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v).location);
    };
    await waitFor('the booking in the feed', async () => (await locations()).length > 0, 10_000);
    expect(await locations()).toEqual([expect.stringMatching(/^Lampensaal.*Platz K2$/)]);

    // K1 out of service on the slot's day: no other free seat with power, so its booking is
    // cancelled, and the cancellation mail states the reason.
    const out = await suite.admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/${ids.get('K1')}/out-of-service`,
      { json: { from: day(6), until: day(6), reason: 'Lampe kaputt' } },
    );
    expect(out.status, await out.clone().text()).toBe(201);
    const mailsTo = (email: string) =>
      suite.sink.messages.filter((m) => (m.to as { text: string }).text === email);
    const cancellation = () =>
      mailsTo('lampe.k1@example.at').find((m) => (m.text ?? '').includes('Lampe kaputt'));
    await waitFor(
      'the cancellation mail with the reason',
      async () => {
        await suite.sender.sendDue();
        return cancellation() !== undefined;
      },
      10_000,
    );
    expect(cancellation()!.text).toContain('Lampensaal');
    const tickets = await new Client(suite.app.baseUrl).get(
      `/api/owners/${cancelledOwner}/tickets`,
    );
    expect(((await tickets.json()) as { status: string }[]).map((t) => t.status)).toEqual([
      'CANCELLED',
    ]);
    // The other booking keeps its seat and gets no such mail.
    expect(
      mailsTo('lampe.k2@example.at').some((m) => (m.text ?? '').includes('Lampe kaputt')),
    ).toBe(false);
  });
});
