// What a booking tells its visitor names the seat the ticket holds now (docs/product.md#seat-plans):
// a hold moved by staff before the booking (its seat taken out of service), and a booked ticket
// moved to another seat since, in the booking's answer, its mails, the reminder's push and the
// webhook of the booking; and the migration that keeps the moved seats fills them from the log.
// A booked ticket's move is told to the webhooks as `ticket.seat_changed`, a hold's is not.
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeReminderPush, enqueueDueReminders } from '@rr/projections';
import { createLogger, ManualClock } from '@rr/platform';
import { up as keepMovedSeats } from '../../platform/migrations/086_ticket_moved_seat.ts';
import { Client } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import {
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  sendPendingMails,
  type MailSuite,
} from '../support/fixtures.ts';

/** Monday 23 November 2026, 10:00 in Vienna. */
const START = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(START);
/** The first case's day; the second's comes before it, so its reminder is the only one due. */
const DAY = '2026-11-30';
const REMINDED_DAY = '2026-11-26';

let suite: MailSuite;
let receiver: WebhookReceiver;
let roomId: string;
let endpointId: string;
const seats = new Map<string, string>();
/** The tickets of the first two cases: the one whose hold moved, the booked one the visitor moved. */
const moved = { hold: '', booked: '' };

const person = (email: string) => ({
  salutation: 'MS',
  firstName: 'Sita',
  lastName: 'Platzhalter',
  email,
  phone: '+43111222',
  accessibility: false,
  language: 'de',
});
interface Ticket {
  id: string;
  seat: { id: string; label: string } | null;
}
interface Booking {
  ownerId: string;
  bookingNumber: string;
  tickets: Ticket[];
}

/** How long a read model or the webhook reactor may take, on a busy machine too. */
const CATCH_UP = { timeout: budget(10_000) };

/** The seat label the read model gives a ticket (what the visitor's booking page shows). */
async function seatInReadModel(ticketId: string): Promise<string | null> {
  let label: string | null = null;
  await expect
    .poll(async () => {
      const r = await suite.db.pool.query<{ seat_label: string | null; status: string }>(
        'SELECT seat_label, status FROM rm_tickets WHERE id = $1',
        [ticketId],
      );
      label = r.rows[0]?.seat_label ?? null;
      return r.rows[0]?.status;
    }, CATCH_UP)
    .toBe('BOOKED');
  return label;
}

interface Delivery {
  eventType: string;
  data: Record<string, unknown>;
}

/** The payloads' data of the endpoint's deliveries of one type. */
async function deliveries(eventType: string): Promise<Delivery['data'][]> {
  const list = await suite.admin.get(`/api/admin/webhooks/${endpointId}/deliveries`);
  return ((await list.json()) as { eventType: string; payload: string }[])
    .filter((d) => d.eventType === eventType)
    .map((d) => (JSON.parse(d.payload) as { data: Delivery['data'] }).data);
}

/** The seats `booking.created` names for the booking of a cart (its delivery's payload). */
async function createdSeats(transactionId: string): Promise<Ticket['seat'][]> {
  let payload: { data: { tickets: Ticket[] } } | undefined;
  await expect
    .poll(async () => {
      const list = await suite.admin.get(`/api/admin/webhooks/${endpointId}/deliveries`);
      const all = (await list.json()) as { payload: string }[];
      payload = all
        .map((d) => JSON.parse(d.payload) as { data: { bookingId: string; tickets: Ticket[] } })
        .find((p) => p.data.bookingId === transactionId);
      return payload !== undefined;
    }, CATCH_UP)
    .toBe(true);
  return payload!.data.tickets.map((t) => t.seat);
}

beforeAll(async () => {
  suite = await openMailSuite(clock, {
    env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  });
  roomId = await createRoom(suite.admin, 'Platzsaal', OPEN_FROM_TODAY);
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { reminderHoursBefore: 24 },
  });
  expect(services.status).toBe(200);
  const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: { seats: ['A', 'B', 'C'].map((label, i) => ({ label, x: 10 + 20 * i, y: 10 })) },
  });
  expect(plan.status).toBe(200);
  for (const s of ((await plan.json()) as { seats: { id: string; label: string }[] }).seats)
    seats.set(s.label, s.id);
  // A receiver that takes every delivery: an endpoint failing since before the reminder's day,
  // to which the clock moves below, would be disabled then, and the moves after it not told.
  receiver = await startReceiver();
  const endpoint = await suite.admin.request('POST', '/api/admin/webhooks', {
    json: {
      url: receiver.url,
      eventTypes: ['booking.created', 'ticket.seat_changed'],
    },
  });
  expect(endpoint.status, await endpoint.clone().text()).toBe(201);
  endpointId = ((await endpoint.json()) as { id: string }).id;
});
afterAll(async () => {
  await suite.close();
  await receiver.close();
});

describe('the seat a booking names', () => {
  it('is the one its hold was moved to when staff took the seat out of service before the booking', async () => {
    const slotId = await createSlot(suite.admin, roomId, DAY, '10:00', '12:00', 3);
    const visitor = new Client(suite.app.baseUrl);
    const held = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: slotId, seatId: seats.get('C') },
    });
    expect(held.status).toBe(201);
    const cart = (await held.json()) as { transactionId: string; ticket: Ticket };
    expect(cart.ticket.seat?.label).toBe('C');
    const out = await suite.admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/${seats.get('C')}/out-of-service`,
      { json: { from: DAY, until: DAY, reason: 'Lampe kaputt' } },
    );
    expect(await out.json()).toMatchObject({ moved: 1, cancelled: 0 });

    const res = await visitor.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
      json: person('sita.vorher@example.at'),
    });
    expect(res.status).toBe(200);
    const booking = (await res.json()) as Booking;
    const ticket = booking.tickets[0]!;
    moved.hold = ticket.id;
    const label = await seatInReadModel(ticket.id);
    expect(label).not.toBe('C');
    expect(ticket.seat).toEqual({ id: seats.get(label!), label });

    const [mail] = await sendPendingMails(suite, 1);
    expect(mail!.text).toContain(`Platzsaal, 30.11.2026, 10:00–12:00 Uhr, Platz ${label}`);
    expect(mail!.text).not.toContain('Platz C');

    // The webhook names the seat the ticket held when it was booked: the one its hold moved to.
    expect(await createdSeats(cart.transactionId)).toEqual([{ id: seats.get(label!), label }]);
  });

  it('is the one a booked ticket was moved to since, in the reminder mail and its push; the webhook of the booking names the seat it was booked on', async () => {
    const slotId = await createSlot(suite.admin, roomId, REMINDED_DAY, '09:00', '11:00', 3);
    const visitor = new Client(suite.app.baseUrl);
    const held = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: slotId, seatId: seats.get('A') },
    });
    const { transactionId } = (await held.json()) as { transactionId: string };
    const res = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: person('sita.nachher@example.at'),
    });
    const booking = (await res.json()) as Booking;
    const ticketId = booking.tickets[0]!.id;
    moved.booked = ticketId;
    expect(booking.tickets[0]!.seat?.label).toBe('A');
    await sendPendingMails(suite, 1); // the confirmation
    const change = await visitor.request(
      'PUT',
      `/api/owners/${booking.ownerId}/tickets/${ticketId}/seat`,
      { json: { seatId: seats.get('B') } },
    );
    expect(change.status, await change.clone().text()).toBe(200);
    // The change's own mail names the new seat (seat-change-mail.int.test.ts tells the rest).
    const [changed] = await sendPendingMails(suite, 1);
    expect(changed!.subject).toBe(`Neuer Platz in Ihrer Buchung ${booking.bookingNumber}`);
    expect(changed!.text).toContain('Platzsaal, 26.11.2026, 09:00–11:00 Uhr, Platz B');
    expect(await createdSeats(transactionId)).toEqual([{ id: seats.get('A'), label: 'A' }]);
    // The visitor's booking page shows the new seat.
    const view = () =>
      suite.db.pool.query<{ label: string }>(
        'SELECT seat_label AS label FROM rm_tickets WHERE id = $1',
        [ticketId],
      );
    await expect.poll(async () => (await view()).rows[0]?.label, CATCH_UP).toBe('B');

    // 09:00 in Vienna the day before, 24 hours before the slot: the reminder.
    clock.set(new Date('2026-11-25T08:00:00Z'));
    try {
      const enqueued = await enqueueDueReminders({
        pool: suite.db.pool,
        clock,
        logger: createLogger('silent'),
        timeZone: 'Europe/Vienna',
      });
      expect(enqueued).toBe(1);
      const [reminder] = await sendPendingMails(suite, 1);
      expect(reminder!.subject).toBe(`Erinnerung an Ihre Buchung ${booking.bookingNumber}`);
      expect(reminder!.text).toContain('Platzsaal, 26.11.2026, 09:00–11:00 Uhr, Platz B');
      expect(reminder!.text).not.toContain('Platz A');

      const push = await composeReminderPush({
        pool: suite.db.pool,
        store: suite.app.deps.store,
        clock,
        timeZone: 'Europe/Vienna',
        baseUrl: 'https://library.example/reserve/',
      })({ ownerId: booking.ownerId, ticketIds: [ticketId] });
      expect(push?.body).toBe('Platzsaal, 26.11.2026, 09:00–11:00 Uhr, Platz B');
    } finally {
      clock.set(START);
    }
  });

  it('is filled in from the log by the migration that keeps the moved seats', async () => {
    const moved = () =>
      suite.db.pool.query<{ label: string }>(
        `SELECT moved_seat_label AS label FROM ticket_state WHERE moved_seat_id IS NOT NULL
          ORDER BY label`,
      );
    const before = (await moved()).rows;
    // The tickets moved above: the hold from C, the booked ticket from A to B.
    expect(before).toHaveLength(2);
    expect(before.map((r) => r.label)).toContain('B');
    await suite.db.pool.query(
      'UPDATE ticket_state SET moved_seat_id = NULL, moved_seat_label = NULL',
    );
    const db = knex({ client: 'pg', connection: suite.db.url, pool: { min: 0, max: 1 } });
    try {
      await keepMovedSeats(db);
    } finally {
      await db.destroy();
    }
    expect((await moved()).rows).toEqual(before);
  });
});

describe('the webhook of a booked ticket moved to another seat', () => {
  const seat = (label: string) => ({ id: seats.get(label), label });

  it('tells the move of a booked ticket by the visitor, the desk and a seat out of service, with the seat it left; a hold moved before its booking is not told', async () => {
    const DESK_DAY = '2026-12-01';
    const slotId = await createSlot(suite.admin, roomId, DESK_DAY, '13:00', '15:00', 3);
    const visitor = new Client(suite.app.baseUrl);
    const held = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: slotId, seatId: seats.get('A') },
    });
    const { transactionId } = (await held.json()) as { transactionId: string };
    const res = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: person('sita.umgesetzt@example.at'),
    });
    const ticketId = ((await res.json()) as Booking).tickets[0]!.id;
    const desk = await suite.admin.request('PUT', `/api/admin/tickets/${ticketId}/seat`, {
      json: { seatId: seats.get('B'), reason: 'Wunsch von Frau Platzhalter am Schalter' },
    });
    expect(desk.status, await desk.clone().text()).toBe(200);
    const out = await suite.admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/${seats.get('B')}/out-of-service`,
      { json: { from: DESK_DAY, until: DESK_DAY, reason: 'Stuhl wackelt' } },
    );
    expect(await out.json()).toMatchObject({ moved: 1, cancelled: 0 });

    await expect
      .poll(async () => (await deliveries('ticket.seat_changed')).length, CATCH_UP)
      .toBe(3);
    const told = await deliveries('ticket.seat_changed');
    expect(told).toHaveLength(3);
    expect(told).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ticketId: moved.booked, seat: seat('B'), seatBefore: seat('A') }),
        expect.objectContaining({
          ticketId,
          timeSlotId: slotId,
          roomId,
          roomName: 'Platzsaal',
          date: DESK_DAY,
          startTime: '13:00',
          endTime: '15:00',
          seat: seat('B'),
          seatBefore: seat('A'),
        }),
        // Out of service, B's ticket goes to the first free seat of the plan (none has attributes).
        expect.objectContaining({ ticketId, seat: seat('A'), seatBefore: seat('B') }),
      ]),
    );
    // Neither the hold's move nor staff's words (they may name the visitor) are told.
    expect(told.map((d) => d.ticketId)).not.toContain(moved.hold);
    expect(JSON.stringify(told)).not.toMatch(/Platzhalter|wackelt|Lampe/);
  });
});
