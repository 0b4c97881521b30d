import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseUnconfirmed } from '@rr/command-service';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * A booking whose address was not confirmed in time (docs/product.md#confirmed-addresses): its
 * release is told to webhooks as `booking.cancelled` with `unconfirmed: true`, the seat free again
 * as after a cancellation; a visitor's own cancellation is told without the mark. Every time is
 * the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: AdminSuite;
let hooks: WebhookReceiver;
let roomId: string;

interface Payload {
  type: string;
  data: Record<string, unknown>;
}

const received = (): Payload[] => hooks.received.map((r) => JSON.parse(r.body) as Payload);

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_INTERVAL_MS: '50',
    },
  });
  hooks = await startReceiver();
  roomId = await createRoom(suite.admin, 'Lesesaal mit Bestätigung', OPEN_FROM_TODAY);
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { confirmBookingMinutes: 30 },
  });
  expect(services.status).toBe(200);
});
afterAll(async () => {
  await hooks.close();
  await suite.close();
});

describe('a booking released unconfirmed', () => {
  it('gives booking.cancelled with unconfirmed: true and the seat free again; a cancellation gives it unmarked', async () => {
    const endpoint = await suite.admin.request('POST', '/api/admin/webhooks', {
      json: { url: hooks.url, eventTypes: ['booking.cancelled'] },
    });
    expect(endpoint.status, await endpoint.clone().text()).toBe(201);
    const lapsing = await createSlot(suite.admin, roomId, day(3), '09:00', '11:00', 1);
    const other = await createSlot(suite.admin, roomId, day(3), '13:00', '15:00', 2);
    // Neither visitor confirms; the second cancels her ticket before the deadline.
    const unconfirmed = await bookAsNewVisitor(suite.app.baseUrl, [lapsing], 'de', {
      email: 'nie.bestaetigt@example.at',
    });
    const cancelling = await bookAsNewVisitor(suite.app.baseUrl, [other], 'en', {
      email: 'cancels@example.at',
    });
    const cancelled = await cancelling.client.request(
      'DELETE',
      `/api/owners/${cancelling.ownerId}/tickets?ids=${cancelling.ticketId}`,
    );
    expect(cancelled.status).toBe(200);

    // The deadline: the release job's round releases the unconfirmed ticket.
    clock.advance(30 * 60_000);
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(1);

    await waitFor(
      'two booking.cancelled deliveries',
      () => hooks.received.length >= 2,
      budget(10_000),
    );
    const byTicket = new Map(received().map((p) => [p.data.ticketId, p]));
    expect(byTicket.get(unconfirmed.ticketId)).toEqual({
      type: 'booking.cancelled',
      timestamp: expect.any(String) as string,
      data: {
        ticketId: unconfirmed.ticketId,
        timeSlotId: lapsing,
        roomId,
        roomName: 'Lesesaal mit Bestätigung',
        date: day(3),
        startTime: '09:00',
        endTime: '11:00',
        capacity: 1,
        // The seat is free again, as after a cancellation.
        seatsBooked: 0,
        seatsFree: 1,
        seat: null,
        unconfirmed: true,
      },
    });
    const plain = byTicket.get(cancelling.ticketId);
    expect(plain).toMatchObject({
      type: 'booking.cancelled',
      data: { timeSlotId: other, seatsBooked: 0, seatsFree: 2 },
    });
    expect(plain!.data).not.toHaveProperty('unconfirmed');
    // Nothing of the visitor: neither the address nor the booking's own keys.
    for (const body of hooks.received.map((r) => r.body))
      for (const word of [
        'example.at',
        unconfirmed.ownerId,
        unconfirmed.bookingNumber,
        cancelling.ownerId,
      ])
        expect(body).not.toContain(word);
    expect(received().map((p) => p.type)).toEqual(['booking.cancelled', 'booking.cancelled']);
  });
});
