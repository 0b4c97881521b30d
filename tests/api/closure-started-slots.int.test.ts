import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantOf, ManualClock, todayIn } from '@rr/platform';
import { readCheckpoint } from '@rr/projections';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  sendPendingMails,
  type MailSuite,
} from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * A closure of today made while a slot is under way (docs/product.md#closures): "cancel the
 * reservations" cancels the booked tickets whose slot has not started; a ticket of the slot
 * already running stays booked, and its booking gets no cancellation mail for it. The running
 * slot is closed all the same (it takes no more carts). Every time is the injected clock's.
 */
const TZ = 'Europe/Vienna';
// 07:00 in Vienna: both of today's slots are still ahead when the visitors book.
const clock = new ManualClock(new Date('2026-11-23T06:00:00Z'));
const today = todayIn(clock.now(), TZ);
let suite: MailSuite;
let roomId: string;

/** The ticket's status and the cancellations the log holds for it. */
async function ticket(ticketId: string) {
  const state = await suite.db.pool.query<{ status: string }>(
    'SELECT status FROM ticket_state WHERE ticket_id = $1',
    [ticketId],
  );
  const cancelled = await suite.db.pool.query(
    `SELECT 1 FROM events WHERE event_type = 'TicketCancelled' AND data->>'ticketId' = $1`,
    [ticketId],
  );
  return { status: state.rows[0]?.status, cancellations: cancelled.rowCount };
}

/**
 * Waits until the mail reactor has read the whole log: every mail the events written so far
 * call for is in the outbox, so one missing there is not merely late.
 */
async function mailReactorCaughtUp(): Promise<void> {
  await waitFor(
    'the mail reactor at the head of the log',
    async () => {
      const after = await suite.db.store.readAfter(
        await readCheckpoint(suite.db.pool, 'mail-outbox'),
        1,
      );
      return after.events.length === 0 && !after.heldBack;
    },
    budget(5000),
  );
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
  roomId = await createRoom(suite.admin, 'Lesesaal Ost', OPEN_FROM_TODAY);
});
afterAll(() => suite.close());

describe('closing today with "cancel the reservations" while a slot is under way', () => {
  it('cancels only the tickets of the slot not yet started; the running slot keeps its tickets and sends no mail for them', async () => {
    const morning = await createSlot(suite.admin, roomId, today, '09:00', '12:00', 5);
    const afternoon = await createSlot(suite.admin, roomId, today, '13:00', '16:00', 5);
    // Anna booked the morning only; Ben the morning and the afternoon in one booking.
    const anna = await bookAsNewVisitor(suite.app.baseUrl, [morning], 'de', {
      email: 'anna.ost@example.at',
    });
    const ben = await bookAsNewVisitor(suite.app.baseUrl, [morning, afternoon], 'de', {
      email: 'ben.ost@example.at',
    });
    const [benMorning, benAfternoon] = ben.ticketIds;
    // The booking mails, out of the way.
    await sendPendingMails(suite, 2);

    // 10:00: the morning is under way when staff close the day.
    clock.set(instantOf(today, '10:00', TZ));
    const r = await suite.admin.request('POST', '/api/admin/closures', {
      json: {
        roomIds: [roomId],
        fromDate: today,
        untilDate: today,
        reason: 'Stromausfall',
        cancelBookings: true,
      },
    });
    expect(r.status, await r.clone().text()).toBe(200);
    // Both slots closed, one ticket cancelled: Ben's afternoon.
    expect(await r.json()).toMatchObject({ closedSlots: 2, cancelledTickets: 1 });

    expect(await ticket(benAfternoon!)).toEqual({ status: 'CANCELLED', cancellations: 1 });
    // The readers sitting in the room keep their tickets, in the log and for staff.
    for (const id of [anna.ticketId, benMorning!]) {
      expect(await ticket(id)).toEqual({ status: 'BOOKED', cancellations: 0 });
      await expect
        .poll(
          async () =>
            (
              (await (await suite.admin.get(`/api/admin/tickets/${id}`)).json()) as {
                status: string;
              }
            ).status,
          { timeout: budget(5000) },
        )
        .toBe('BOOKED');
    }
    // The running slot is closed all the same, with the reason.
    const staffSlot = (await (
      await suite.admin.get(`/api/admin/rooms/${roomId}/timeslots/${morning}`)
    ).json()) as { closedReason: string | null };
    expect(staffSlot.closedReason).toBe('Stromausfall');

    // One cancellation mail, Ben's, naming the afternoon only; none to Anna.
    await mailReactorCaughtUp();
    const [mail, ...more] = await sendPendingMails(suite, 1);
    expect(more).toEqual([]);
    expect((mail!.to as { text: string }).text).toBe('ben.ost@example.at');
    expect(mail!.subject).toBe(`Stornierung in Ihrer Buchung ${ben.bookingNumber}`);
    expect(mail!.text).toContain('Die Bibliothek hat Ihre Buchung storniert: Stromausfall');
    expect(mail!.text).toContain('13:00');
    expect(mail!.text).not.toContain('09:00');
    const toAnna = await suite.db.pool.query(
      `SELECT 1 FROM mail_outbox WHERE owner_id = $1 AND kind = 'cancellation'`,
      [anna.ownerId],
    );
    expect(toAnna.rowCount).toBe(0);
  });
});
