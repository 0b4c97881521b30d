import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import { Client } from '../support/app.ts';
import { calendarOfMail as calendarOf, calendarOfText } from '../support/calendar.ts';
import {
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  type MailSuite,
} from '../support/fixtures.ts';

/**
 * Rebooking (docs/product.md#rebooking): a booked ticket moves to another slot of its room in one
 * step; the new ticket keeps the booking number and a mail confirms it; a refusal (another room,
 * a full slot) leaves everything as it was; racing a cart for the new slot's last seat, exactly
 * one gets it and a losing move keeps its old seat.
 */
const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
const DAY = addDays('2026-11-23', 4);

type Problem = { error: string; payload: string[] };
interface OwnerTicket {
  id: string;
  status: string;
  timeSlotId: string;
  bookingNumber: string | null;
}

let suite: MailSuite;
let roomId: string;
let otherRoomId: string;
let hour = 6;

/** A slot of the test room (each at its own hour, so a visitor's tickets never overlap). */
const slot = (capacity: number, room = roomId) => {
  hour += 1;
  const h = String(hour).padStart(2, '0');
  return createSlot(suite.admin, room, DAY, `${h}:00`, `${h}:30`, capacity);
};

async function book(slotId: string, email: string) {
  const c = new Client(suite.app.baseUrl);
  const cart = await c.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  expect(cart.status, await cart.clone().text()).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const res = await c.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: { salutation: 'MS', firstName: 'Mia', lastName: 'Move', email, phone: '+4311' },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const b = (await res.json()) as {
    ownerId: string;
    bookingNumber: string;
    tickets: { id: string }[];
  };
  return {
    client: c,
    ownerId: b.ownerId,
    bookingNumber: b.bookingNumber,
    ticketId: b.tickets[0]!.id,
  };
}

const move = (c: Client, ownerId: string, ticketId: string, timeSlotId: string) =>
  c.request('POST', `/api/owners/${ownerId}/tickets/${ticketId}/move`, { json: { timeSlotId } });

async function ticketsOf(c: Client, ownerId: string): Promise<OwnerTicket[]> {
  return (await (await c.get(`/api/owners/${ownerId}/tickets`)).json()) as OwnerTicket[];
}

const eventCount = async () =>
  Number((await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

beforeAll(async () => {
  suite = await openMailSuite(clock);
  roomId = await createRoom(suite.admin, 'Umbuchungssaal', OPEN_FROM_TODAY);
  otherRoomId = await createRoom(suite.admin, 'Anderer Saal', OPEN_FROM_TODAY);
});
afterAll(() => suite.close());

describe('rebooking', () => {
  it('moves a ticket in one step: the booking number stays, a mail confirms, the old seat is free', async () => {
    const from = await slot(1);
    const to = await slot(1);
    const b = await book(from, 'mia.move@example.at');
    const res = await move(b.client, b.ownerId, b.ticketId, to);
    expect(res.status, await res.clone().text()).toBe(200);
    const moved = (await res.json()) as {
      id: string;
      startTime: string;
      endTime: string;
      timeSlotId: string;
      bookingNumber: string;
      status: string;
    };
    expect(moved).toMatchObject({
      timeSlotId: to,
      bookingNumber: b.bookingNumber,
      status: 'BOOKED',
    });
    expect(moved.id).not.toBe(b.ticketId);

    const tickets = await ticketsOf(b.client, b.ownerId);
    expect(tickets.map((t) => [t.id, t.status, t.bookingNumber])).toEqual([
      [b.ticketId, 'CANCELLED', b.bookingNumber],
      [moved.id, 'BOOKED', b.bookingNumber],
    ]);
    // The old seat is free for a cart; the booked cart stays closed (no expiry to run).
    expect(
      (
        await new Client(suite.app.baseUrl).request('POST', '/api/transactions', {
          json: { timeSlotId: from },
        })
      ).status,
    ).toBe(201);
    const open = await suite.db.pool.query(
      `SELECT 1 FROM open_carts o JOIN bookings b ON b.transaction_id = o.transaction_id WHERE b.owner_id = $1`,
      [b.ownerId],
    );
    expect(open.rowCount).toBe(0);

    // One mail says so (no cancellation mail), naming the new slot and the booking number.
    await expect
      .poll(
        async () =>
          (
            await suite.db.pool.query(
              `SELECT 1 FROM mail_outbox WHERE owner_id = $1 AND kind = 'move'`,
              [b.ownerId],
            )
          ).rowCount,
      )
      .toBe(1);
    await suite.sender.sendDue();
    const mails = suite.sink.messages.filter((m) => JSON.stringify(m.to).includes('mia.move@'));
    expect(mails.map((m) => m.subject)).toEqual([
      `Ihre Buchung ${b.bookingNumber}`,
      `Änderung Ihrer Buchung ${b.bookingNumber}`,
    ]);
    expect(mails[1]!.text).toContain('Ihr neuer Termin');
    expect(mails[1]!.text).toContain(`${DAY.slice(8, 10)}.${DAY.slice(5, 7)}.${DAY.slice(0, 4)}`);
    // Staff's history of the old ticket says where it went, not "cancelled".
    const history = (await (
      await suite.admin.get(`/api/admin/tickets/${b.ticketId}/history`)
    ).json()) as { what: string; movedTo?: unknown }[];
    expect(history.filter((h) => h.what === 'cancelled')).toEqual([]);
    expect(history.find((h) => h.what === 'moved')?.movedTo).toEqual({
      date: DAY,
      startTime: moved.startTime,
      endTime: moved.endTime,
    });
  });

  it("the move mail's .ics updates the booking's calendar entry: same UID, a higher SEQUENCE", async () => {
    // A day of its own: the other tests take an hour of DAY each.
    const day = addDays(DAY, 1);
    const from = await createSlot(suite.admin, roomId, day, '08:00', '09:00', 3);
    const to = await createSlot(suite.admin, roomId, day, '10:00', '11:00', 3);
    const again = await createSlot(suite.admin, roomId, day, '12:00', '13:00', 3);
    const b = await book(from, 'ines.ics@example.at');
    const first = (await (await move(b.client, b.ownerId, b.ticketId, to)).json()) as {
      id: string;
    };
    const mailsOf = async (n: number) => {
      await expect
        .poll(async () => {
          await suite.sender.sendDue();
          return suite.sink.messages.filter((m) => JSON.stringify(m.to).includes('ines.ics@'))
            .length;
        })
        .toBe(n);
      return suite.sink.messages.filter((m) => JSON.stringify(m.to).includes('ines.ics@'));
    };
    const [confirmation, moveMail] = await mailsOf(2);
    const original = calendarOf(confirmation);
    expect(original.events).toMatchObject([
      { uid: `${b.ticketId}@reading-rooms`, sequence: 0, status: 'CONFIRMED' },
    ]);
    // One event, the original's UID, revision 1, at the new slot's time.
    const updated = calendarOf(moveMail);
    expect(updated.method).toBe('PUBLISH');
    expect(updated.events).toHaveLength(1);
    expect(updated.events[0]).toMatchObject({
      uid: `${b.ticketId}@reading-rooms`,
      sequence: 1,
      status: 'CONFIRMED',
    });
    expect(updated.events[0]!.start).not.toBe(original.events[0]!.start);
    expect(updated.events[0]!.start).toContain(`${day}T10:00`);

    // A second move is revision 2 of the same entry; its cancellation revision 3.
    const second = (await (await move(b.client, b.ownerId, first.id, again)).json()) as {
      id: string;
    };
    const [, , moveAgain] = await mailsOf(3);
    expect(calendarOf(moveAgain).events).toMatchObject([
      { uid: `${b.ticketId}@reading-rooms`, sequence: 2 },
    ]);
    // The booking's calendar feed names the appointment by the same UID and revision.
    await expect
      .poll(async () => {
        const feed = await b.client.get(`/api/owners/${b.ownerId}/tickets.ics`);
        return calendarOfText(await feed.text()).events.map((e) => [e.uid, e.sequence]);
      })
      .toEqual([[`${b.ticketId}@reading-rooms`, 2]]);
    const cancelled = await b.client.request(
      'DELETE',
      `/api/owners/${b.ownerId}/tickets?ids=${second.id}`,
    );
    expect(cancelled.status, await cancelled.clone().text()).toBeLessThan(300);
    const [, , , cancellation] = await mailsOf(4);
    expect(calendarOf(cancellation)).toMatchObject({
      method: 'CANCEL',
      events: [{ uid: `${b.ticketId}@reading-rooms`, sequence: 3, status: 'CANCELLED' }],
    });

    // The visitor's page names where each moved ticket went.
    const tickets = (await (await b.client.get(`/api/owners/${b.ownerId}/tickets`)).json()) as {
      id: string;
      cancellation: { by: string; movedTo: { timeSlotId: string } | null } | null;
    }[];
    expect(tickets.map((t) => [t.id, t.cancellation?.movedTo?.timeSlotId ?? null])).toEqual([
      [b.ticketId, to],
      [first.id, again],
      [second.id, null],
    ]);
  });

  it('refuses another room, a full slot and the same slot with the slot codes, changing nothing', async () => {
    const from = await slot(2);
    const full = await slot(1);
    const other = await slot(5, otherRoomId);
    await book(full, 'someone.else@example.at');
    const b = await book(from, 'nina.nochda@example.at');
    const before = await eventCount();
    for (const [to, rule] of [
      [other, 'timeslot_not_open'],
      [full, 'timeslot_no_tickets_left'],
      [from, 'timeslot_already_in_transaction'],
    ] as const) {
      const res = await move(b.client, b.ownerId, b.ticketId, to);
      expect(res.status).toBe(409);
      expect((await res.json()) as Problem).toMatchObject({
        error: 'ticket__validation_error',
        payload: [rule],
      });
    }
    const unknown = await move(
      b.client,
      b.ownerId,
      b.ticketId,
      '00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.status).toBe(404);
    const foreign = await move(b.client, '0123456789abcdef0123456789abcdef', b.ticketId, full);
    expect(foreign.status).toBe(404);
    expect(await eventCount()).toBe(before);
    expect((await ticketsOf(b.client, b.ownerId)).map((t) => t.status)).toEqual(['BOOKED']);
  });

  it('a move racing a cart for the last seat: exactly one holds it, a losing move keeps its old seat', async () => {
    for (let round = 0; round < 6; round += 1) {
      const from = await slot(1);
      const last = await slot(1);
      const b = await book(from, `race${round}@example.at`);
      const rival = new Client(suite.app.baseUrl);
      const [moved, cart] = await Promise.all([
        move(b.client, b.ownerId, b.ticketId, last),
        rival.request('POST', '/api/transactions', { json: { timeSlotId: last } }),
      ]);
      // Exactly one of them got the seat; the other was refused with the slot's code.
      expect([moved.status, cart.status].sort()).toEqual(
        moved.status === 200 ? [200, 409] : [201, 409],
      );
      const loser = moved.status === 200 ? cart : moved;
      expect(((await loser.json()) as Problem).payload).toEqual(['timeslot_no_tickets_left']);
      const taken = await suite.db.pool.query<{ status: string; ticket_id: string }>(
        `SELECT status, ticket_id FROM ticket_state WHERE time_slot_id = $1 AND status IN ('NEW', 'BOOKED')`,
        [last],
      );
      expect(taken.rowCount).toBe(1);
      const mine = await ticketsOf(b.client, b.ownerId);
      if (moved.status === 200) {
        expect(mine.filter((t) => t.status === 'BOOKED').map((t) => t.timeSlotId)).toEqual([last]);
      } else {
        // The lost move changed nothing: the old ticket is booked in its old slot.
        expect(mine.map((t) => [t.id, t.status, t.timeSlotId])).toEqual([
          [b.ticketId, 'BOOKED', from],
        ]);
      }
    }
  });
});
