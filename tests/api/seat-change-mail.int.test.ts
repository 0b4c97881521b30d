// A booked ticket's change of seat is told to its visitor by mail (docs/product.md#seat-plans):
// their own change confirmed, the library's (the desk, a seat out of service, a plan without the
// seat) with staff's reason when there is one, one mail per owner and step, also after the slot
// began; its .ics updates the booking's calendar entry (same UID, one revision more per seat
// change), and a later rebooking or cancellation of the entry comes after it; the booking's
// calendar feed counts the same. A hold moved before its booking is not told. The migration that
// counts the seat changes fills them from the log.
import knex from 'knex';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import { up as countSeatChanges } from '../../platform/migrations/088_ticket_seat_changes.ts';
import { Client } from '../support/app.ts';
import { calendarOfMail as calendarOf, calendarOfText as eventsOf } from '../support/calendar.ts';
import { budget } from '../support/time-budget.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  type MailSuite,
} from '../support/fixtures.ts';

/** Monday 23 November 2026, 09:00 in Vienna. */
const START = new Date('2026-11-23T08:00:00Z');
const clock = new ManualClock(START);
const DAY = addDays('2026-11-23', 7);
const CATCH_UP = { timeout: budget(10_000) };

let suite: MailSuite;
let roomId: string;
const seats = new Map<string, string>();
let hour = 7;

/** A slot of the room, each at an hour of its own. */
async function slot(day = DAY): Promise<string> {
  hour += 1;
  const h = String(hour).padStart(2, '0');
  return createSlot(suite.admin, roomId, day, `${h}:00`, `${h}:45`, 4);
}

/** Sends what is due until `n` mails went to `email`; answers them in the order sent. */
async function mailsTo(email: string, n: number): Promise<ParsedMail[]> {
  const of = () => suite.sink.messages.filter((m) => JSON.stringify(m.to).includes(email));
  await expect
    .poll(async () => {
      await suite.sender.sendDue();
      return of().length;
    }, CATCH_UP)
    .toBe(n);
  return of();
}

/** The booking's calendar feed once the read models show `label` as the seat of its entry. */
async function feedOf(client: Client, ownerId: string, label: string) {
  let events: ReturnType<typeof eventsOf>['events'] = [];
  await expect
    .poll(async () => {
      const feed = await client.get(`/api/owners/${ownerId}/tickets.ics`);
      events = eventsOf(await feed.text()).events;
      return events.map((e) => String(e.location));
    }, CATCH_UP)
    .toEqual([expect.stringContaining(label)]);
  return events;
}

const uid = (ticketId: string) => `${ticketId}@reading-rooms`;

beforeAll(async () => {
  suite = await openMailSuite(clock);
  roomId = await createRoom(suite.admin, 'Sitzplatzsaal', OPEN_FROM_TODAY);
  const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: { seats: ['A', 'B', 'C', 'D'].map((label, i) => ({ label, x: 10 + 20 * i, y: 10 })) },
  });
  expect(plan.status).toBe(200);
  for (const s of ((await plan.json()) as { seats: { id: string; label: string }[] }).seats)
    seats.set(s.label, s.id);
});
afterAll(() => suite.close());

describe('the mail of a seat change', () => {
  it("confirms the visitor's own change, and its calendar entry is the booking's, one revision later", async () => {
    const email = 'selbst.umgesetzt@example.at';
    const b = await bookAsNewVisitor(suite.app.baseUrl, [await slot()], 'de', { email });
    const [confirmation] = await mailsTo(email, 1);
    expect(calendarOf(confirmation).events).toMatchObject([
      { uid: uid(b.ticketId), sequence: 0, location: 'Sitzplatzsaal, Platz A' },
    ]);

    const change = await b.client.request(
      'PUT',
      `/api/owners/${b.ownerId}/tickets/${b.ticketId}/seat`,
      { json: { seatId: seats.get('C') } },
    );
    expect(change.status, await change.clone().text()).toBe(200);
    const [, changed] = await mailsTo(email, 2);
    expect(changed!.subject).toBe(`Neuer Platz in Ihrer Buchung ${b.bookingNumber}`);
    expect(changed!.text).toContain('Ihr Platz wurde wie gewünscht geändert.');
    expect(changed!.text).toContain(`, Platz C`);
    expect(changed!.text).not.toContain('Platz A');
    expect(changed!.text).not.toContain('Die Bibliothek');
    expect(calendarOf(changed)).toMatchObject({
      method: 'PUBLISH',
      events: [
        {
          uid: uid(b.ticketId),
          sequence: 1,
          location: 'Sitzplatzsaal, Platz C',
          status: 'CONFIRMED',
        },
      ],
    });
    expect(await feedOf(b.client, b.ownerId, 'Platz C')).toMatchObject([
      { uid: uid(b.ticketId), sequence: 1 },
    ]);
  });

  it("states the desk's reason in English, and a rebooking and a cancellation after it come later still", async () => {
    const email = 'desk.moved@example.at';
    const b = await bookAsNewVisitor(suite.app.baseUrl, [await slot()], 'en', { email });
    await mailsTo(email, 1);
    const desk = await suite.admin.request('PUT', `/api/admin/tickets/${b.ticketId}/seat`, {
      json: { seatId: seats.get('D'), reason: 'The lamp at your seat is broken.' },
    });
    expect(desk.status, await desk.clone().text()).toBe(200);
    const [, moved] = await mailsTo(email, 2);
    expect(moved!.subject).toBe(`New seat in your booking ${b.bookingNumber}`);
    expect(moved!.text).toContain(
      'The library has given you a new seat: The lamp at your seat is broken.\nThe following appointments are concerned:',
    );
    expect(moved!.text).toContain(', Seat D');
    expect(moved!.html).toContain('The lamp at your seat is broken.<br>');
    expect(calendarOf(moved).events).toMatchObject([
      { uid: uid(b.ticketId), sequence: 1, location: 'Sitzplatzsaal, Seat D' },
    ]);

    // A rebooking to another slot is the entry's next revision, after the seat change's.
    const to = await slot();
    const rebooked = await b.client.request(
      'POST',
      `/api/owners/${b.ownerId}/tickets/${b.ticketId}/move`,
      { json: { timeSlotId: to } },
    );
    expect(rebooked.status, await rebooked.clone().text()).toBe(200);
    const newTicket = ((await rebooked.json()) as { id: string }).id;
    const [, , moveMail] = await mailsTo(email, 3);
    expect(moveMail!.subject).toBe(`Change of your booking ${b.bookingNumber}`);
    expect(calendarOf(moveMail).events).toMatchObject([{ uid: uid(b.ticketId), sequence: 2 }]);
    // The new ticket's seat change counts on top of the chain's.
    const again = await suite.admin.request('PUT', `/api/admin/tickets/${newTicket}/seat`, {
      json: { seatId: seats.get('B') },
    });
    expect(again.status, await again.clone().text()).toBe(200);
    const [, , , movedAgain] = await mailsTo(email, 4);
    expect(movedAgain!.text).toContain(
      'The library has given you a new seat.\nThe following appointments are concerned:',
    );
    expect(calendarOf(movedAgain).events).toMatchObject([
      { uid: uid(b.ticketId), sequence: 3, location: 'Sitzplatzsaal, Seat B' },
    ]);
    expect(await feedOf(b.client, b.ownerId, 'Seat B')).toMatchObject([
      { uid: uid(b.ticketId), sequence: 3 },
    ]);
    const cancelled = await b.client.request(
      'DELETE',
      `/api/owners/${b.ownerId}/tickets?ids=${newTicket}`,
    );
    expect(cancelled.status, await cancelled.clone().text()).toBeLessThan(300);
    const [, , , , cancellation] = await mailsTo(email, 5);
    expect(calendarOf(cancellation)).toMatchObject({
      method: 'CANCEL',
      events: [{ uid: uid(b.ticketId), sequence: 4, status: 'CANCELLED' }],
    });
  });

  it('is told after the slot began too: a visitor on the way finds the new seat', async () => {
    const email = 'spaet.dran@example.at';
    const b = await bookAsNewVisitor(suite.app.baseUrl, [await slot()], 'de', { email });
    await mailsTo(email, 1);
    // Ten minutes into the slot (Vienna is an hour ahead of UTC in November).
    const began = new Date(`${DAY}T${String(hour - 1).padStart(2, '0')}:10:00Z`);
    clock.set(began);
    try {
      const desk = await suite.admin.request('PUT', `/api/admin/tickets/${b.ticketId}/seat`, {
        json: { seatId: seats.get('B'), reason: 'Platz A ist gesperrt.' },
      });
      expect(desk.status, await desk.clone().text()).toBe(200);
      const [, moved] = await mailsTo(email, 2);
      expect(moved!.subject).toBe(`Neuer Platz in Ihrer Buchung ${b.bookingNumber}`);
      expect(moved!.text).toContain(', Platz B');
    } finally {
      clock.set(START);
    }
  });

  it('makes one mail of the tickets a plan change moves for one visitor, without a reason', async () => {
    const day = addDays(DAY, 1);
    const first = await slot(day);
    const second = await slot(day);
    const email = 'plan.moved@example.at';
    // Each slot's first seat is A: the booking holds A in both.
    const b = await bookAsNewVisitor(suite.app.baseUrl, [first, second], 'de', { email });
    await mailsTo(email, 1);

    // The plan without A: both tickets move in one step, to a free seat of the new plan.
    const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
      json: { seats: ['B', 'C', 'D'].map((label, i) => ({ label, x: 30 + 20 * i, y: 10 })) },
    });
    expect(plan.status, await plan.clone().text()).toBe(200);
    const [, moved] = await mailsTo(email, 2);
    expect(moved!.subject).toBe(`Neuer Platz in Ihrer Buchung ${b.bookingNumber}`);
    expect(moved!.text).toContain(
      'Die Bibliothek hat Ihnen einen neuen Platz gegeben.\nBetroffen sind folgende Termine:',
    );
    const lines = moved!.text!.split('\n').filter((l) => l.startsWith('- Sitzplatzsaal'));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/, Platz [BCD]$/);
    expect(calendarOf(moved).events.map((e) => [e.uid, e.sequence])).toEqual(
      expect.arrayContaining([
        [uid(b.ticketIds[0]!), 1],
        [uid(b.ticketIds[1]!), 1],
      ]),
    );
    // Nothing more came to the visitor: one mail for the step.
    await suite.sender.sendDue();
    expect(suite.sink.messages.filter((m) => JSON.stringify(m.to).includes(email))).toHaveLength(2);
  });

  it("makes one mail of a seat out of service's moves of one visitor's tickets on its days, with the reason", async () => {
    const day = addDays(DAY, 3);
    const email = 'oos.moved@example.at';
    // The plan's first seat is B now: the booking holds B in both slots.
    const b = await bookAsNewVisitor(suite.app.baseUrl, [await slot(day), await slot(day)], 'de', {
      email,
    });
    await mailsTo(email, 1);
    const out = await suite.admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/${seats.get('B')}/out-of-service`,
      { json: { from: day, until: day, reason: 'Heizung wird getauscht' } },
    );
    expect(await out.json()).toMatchObject({ moved: 2, cancelled: 0 });
    const [, moved] = await mailsTo(email, 2);
    expect(moved!.text).toContain(
      'Die Bibliothek hat Ihnen einen neuen Platz gegeben: Heizung wird getauscht\nBetroffen sind folgende Termine:',
    );
    const lines = moved!.text!.split('\n').filter((l) => l.startsWith('- Sitzplatzsaal'));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/, Platz [CD]$/);
    expect(calendarOf(moved).events.map((e) => e.uid)).toEqual(
      expect.arrayContaining(b.ticketIds.map(uid)),
    );
    await suite.sender.sendDue();
    expect(suite.sink.messages.filter((m) => JSON.stringify(m.to).includes(email))).toHaveLength(2);
  });

  it('is not sent for a hold moved before its booking: the confirmation names its seat', async () => {
    const day = addDays(DAY, 2);
    const slotId = await slot(day);
    const visitor = new Client(suite.app.baseUrl);
    const held = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: slotId, seatId: seats.get('C') },
    });
    expect(held.status, await held.clone().text()).toBe(201);
    const { transactionId } = (await held.json()) as { transactionId: string };
    const out = await suite.admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/${seats.get('C')}/out-of-service`,
      { json: { from: day, until: day, reason: 'Stuhl wackelt' } },
    );
    expect(await out.json()).toMatchObject({ moved: 1, cancelled: 0 });
    const email = 'hold.moved@example.at';
    const res = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: {
        salutation: 'MS',
        firstName: 'Hanna',
        lastName: 'Halt',
        email,
        phone: '+43111222',
        accessibility: false,
        language: 'de',
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { bookingNumber } = (await res.json()) as { bookingNumber: string };
    const [confirmation] = await mailsTo(email, 1);
    expect(confirmation!.subject).toBe(`Ihre Buchung ${bookingNumber}`);
    expect(confirmation!.text).not.toContain('Platz C');
    // The reactor has read past the hold's move and the booking: still no second mail.
    await suite.sender.sendDue();
    expect(suite.sink.messages.filter((m) => JSON.stringify(m.to).includes(email))).toHaveLength(1);
  });

  it('counts are filled in from the log by the migration that keeps them', async () => {
    const counts = () =>
      suite.db.pool.query<{ id: string; n: number }>(
        'SELECT ticket_id::text AS id, seat_changes AS n FROM ticket_state WHERE seat_changes > 0 ORDER BY 1',
      );
    const before = (await counts()).rows;
    // The changes above: the visitor's, the desk's twice and once after the slot began, the
    // plan's two, the seat out of service's two, the hold's.
    expect(before.map((r) => r.n).reduce((x, y) => x + y, 0)).toBe(9);
    await suite.db.pool.query('UPDATE ticket_state SET seat_changes = 0');
    const db = knex({ client: 'pg', connection: suite.db.url, pool: { min: 0, max: 1 } });
    try {
      await countSeatChanges(db);
    } finally {
      await db.destroy();
    }
    expect((await counts()).rows).toEqual(before);
  });
});
