import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseUnconfirmed } from '@rr/command-service';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  type MailSuite,
  type NewVisitorBooking,
  sendPendingMails,
} from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';

/**
 * A confirmation after the deadline (docs/product.md#confirmed-addresses) is refused with
 * `booking__confirmation_lapsed`, unless another ticket of the booking was confirmed already: the
 * booking was confirmed, so the confirmation is no error (200, nothing confirmed), and the late
 * ticket is not confirmed by it (the release job releases it). A booking gets such a late ticket
 * when a ticket of a room that did not ask moves after its room began to ask: it is asked as a
 * booking now is, while the booking's other ticket stays confirmed.
 */
const BASE = new Date('2026-11-23T08:00:00Z'); // 09:00 in Vienna
const clock = new ManualClock(BASE);
const DAY = addDays(BASE.toISOString().slice(0, 10), 3);
const MINUTE = 60_000;

let suite: MailSuite;
let confirming: string;
let plain: string;

interface OwnerTicket {
  id: string;
  status: string;
  confirmBy: string | null;
  unconfirmed: boolean;
}

async function ownerTickets(b: NewVisitorBooking): Promise<OwnerTicket[]> {
  const res = await b.client.get(`/api/owners/${b.ownerId}/tickets`);
  expect(res.status).toBe(200);
  return (await res.json()) as OwnerTicket[];
}

const confirm = (b: NewVisitorBooking, token: string) =>
  b.client.request('POST', `/api/owners/${b.ownerId}/confirm`, { json: { token } });

/** The token of the confirmation link in the booking's confirmation mail. */
function tokenOf(text: string | undefined, ownerId: string): string {
  const link = new RegExp(
    `https://library\\.example/reserve/reservation-confirmation/${ownerId}\\?lang=de#confirm=([A-Za-z0-9_-]+)`,
  ).exec(text ?? '');
  expect(link, 'the confirmation link in the mail').not.toBeNull();
  return link![1]!;
}

const services = (roomId: string, body: Record<string, unknown>) =>
  suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, { json: body });

beforeAll(async () => {
  suite = await openMailSuite(clock);
  confirming = await createRoom(suite.admin, 'Großer Lesesaal', OPEN_FROM_TODAY);
  plain = await createRoom(suite.admin, 'Zeitschriftenraum', OPEN_FROM_TODAY);
  expect((await services(confirming, { confirmBookingMinutes: 30 })).status).toBe(200);
});
afterAll(() => suite?.close());

describe('a confirmation after the deadline', () => {
  it('is no error when another ticket of the booking was confirmed already; the late ticket stays unconfirmed', async () => {
    const asked = await createSlot(suite.admin, confirming, DAY, '10:00', '12:00', 5);
    const notAsked = await createSlot(suite.admin, plain, DAY, '13:00', '14:00', 5);
    const later = await createSlot(suite.admin, plain, DAY, '15:00', '16:00', 5);
    const b = await bookAsNewVisitor(suite.app.baseUrl, [asked, notAsked], 'de');
    const [mail] = await sendPendingMails(suite, 1);
    const token = tokenOf(mail!.text, b.ownerId);
    const first = await confirm(b, token);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ confirmed: 1 });

    // The other room begins to ask; its ticket moves and is asked as a booking now is.
    clock.set(new Date(BASE.getTime() + 10 * MINUTE));
    expect((await services(plain, { confirmBookingMinutes: 30 })).status).toBe(200);
    const moved = await b.client.request(
      'POST',
      `/api/owners/${b.ownerId}/tickets/${b.ticketIds[1]}/move`,
      { json: { timeSlotId: later } },
    );
    expect(moved.status, await moved.clone().text()).toBe(200);
    const lateTicket = ((await moved.json()) as { id: string }).id;
    await sendPendingMails(suite, 1); // the move's mail
    const deadline = new Date(BASE.getTime() + 40 * MINUTE);
    expect(await ownerTickets(b)).toMatchObject([
      { id: b.ticketIds[0], status: 'BOOKED', confirmBy: null },
      { id: b.ticketIds[1], status: 'CANCELLED' },
      { id: lateTicket, status: 'BOOKED', confirmBy: deadline.toISOString() },
    ]);

    // At the late ticket's deadline, before the job ran: accepted, nothing confirmed.
    clock.set(deadline);
    const late = await confirm(b, token);
    expect(late.status, await late.clone().text()).toBe(200);
    expect(await late.json()).toMatchObject({ confirmed: 0 });
    const confirmations = await suite.db.pool.query(
      `SELECT 1 FROM events WHERE event_type = 'TicketConfirmed' AND data->>'ticketId' = $1`,
      [lateTicket],
    );
    expect(confirmations.rowCount).toBe(0);

    // The release job releases the late ticket; the confirmed one stays booked.
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(1);
    await expect
      .poll(async () => (await ownerTickets(b)).map((t) => [t.id, t.status, t.unconfirmed]), {
        timeout: budget(5000),
      })
      .toEqual([
        [b.ticketIds[0], 'BOOKED', false],
        [b.ticketIds[1], 'CANCELLED', false],
        [lateTicket, 'INVALID', true],
      ]);
    // Confirming once more after the release: still no error.
    const again = await confirm(b, token);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ confirmed: 0 });
  });
});
