// The webhook reactor looks up a payload (the cart's tickets, the seats each held, the slot, the
// booking before a seat change or a move) only for an event that some endpoint takes: most
// libraries have no endpoint, or none for most types, and each of those look-ups reads the log;
// and a booked seat comes from the ticket's cart, not from a walk through its slot's events. Its
// handler is applied here to events of the log in a transaction of the test's own, whose reads
// PostgreSQL's per-transaction statistics count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEventType } from '@rr/contracts';
import { webhookReactor } from '@rr/integrations';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { bookAsNewVisitor, createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: AdminSuite;
let roomId: string;
/** The last seat of the room's plan: a booked ticket changes to it. */
let lastSeat: string;
/** How long the running reactor may take, on a busy machine too. */
const CATCH_UP = { timeout: budget(10_000) };

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  });
  roomId = await createRoom(suite.admin, 'Lesesaal Ost', OPEN_FROM_TODAY);
  const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: {
      seats: ['A', 'B', 'C', 'D', 'E'].map((label, i) => ({ label, x: 10 + 20 * i, y: 10 })),
    },
  });
  expect(plan.status, await plan.clone().text()).toBe(200);
  lastSeat = ((await plan.json()) as { seats: { id: string }[] }).seats.at(-1)!.id;
});
afterAll(() => suite.close());

/** The event of `type` the log holds for the ticket or cart (its data names it). */
async function eventOf(type: string, key: 'ticketId' | 'transactionId', id: string) {
  const r = await suite.db.pool.query<{ stream_id: string; stream_version: string }>(
    `SELECT stream_id, stream_version FROM events WHERE event_type = $1 AND data->>$2 = $3`,
    [type, key, id],
  );
  const at = r.rows[0]!;
  const { events } = await suite.app.deps.store.readStream(at.stream_id);
  return events.find((e) => e.streamVersion === Number(at.stream_version))!;
}

/**
 * Waits until the running reactor has applied the log up to `event` (its checkpoint, which moves
 * with the deliveries it writes): it then writes nothing beside the test's transactions.
 */
async function reactorPast(event: Awaited<ReturnType<typeof eventOf>>) {
  await expect
    .poll(async () => {
      const r = await suite.db.pool.query(
        `SELECT 1 FROM projection_checkpoints
          WHERE name = 'webhook-outbox' AND (last_tx, last_gp) >= ($1::text::xid8, $2::bigint)`,
        [event.position.tx.toString(), event.position.gp.toString()],
      );
      return r.rowCount;
    }, CATCH_UP)
    .toBe(1);
}

/**
 * Applies the reactor to `event` in a transaction that is rolled back, with the deliveries the
 * running reactor wrote out of its way: how often it read the log (scans of `events`) and the
 * deliveries it wrote.
 */
async function applied(event: Awaited<ReturnType<typeof eventOf>>) {
  const client = await suite.db.pool.connect();
  // The counts of the connection's statistics not yet reported (PostgreSQL reports them now and
  // then, so they may include earlier transactions'): read before and after, in one transaction.
  const counts = async () => {
    const r = await client.query<{
      relname: string;
      reads: string;
      rows: string;
      inserted: string;
    }>(
      `SELECT relname, seq_scan + coalesce(idx_scan, 0) AS reads,
              seq_tup_read + coalesce(idx_tup_fetch, 0) AS rows, n_tup_ins AS inserted
         FROM pg_stat_xact_user_tables WHERE relname IN ('events', 'webhook_deliveries')`,
    );
    const of = (table: string) => r.rows.find((x) => x.relname === table);
    return {
      logReads: Number(of('events')?.reads ?? 0),
      logRows: Number(of('events')?.rows ?? 0),
      deliveries: Number(of('webhook_deliveries')?.inserted ?? 0),
    };
  };
  try {
    await client.query('BEGIN');
    await client.query('DELETE FROM webhook_deliveries');
    const before = await counts();
    await webhookReactor.apply(client, event);
    const after = await counts();
    return {
      logReads: after.logReads - before.logReads,
      logRows: after.logRows - before.logRows,
      deliveries: after.deliveries - before.deliveries,
    };
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

async function endpoint(eventTypes: WebhookEventType[]) {
  const res = await suite.admin.request('POST', '/api/admin/webhooks', {
    json: { url: 'http://127.0.0.1:9/hooks', eventTypes },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('the webhook reactor', () => {
  let visitors = 0;
  /**
   * A visitor books a seat, changes it, moves the booking to another slot and cancels it; the
   * reactor applied to each of those events, with what it read and wrote.
   */
  async function visitorsEvents() {
    visitors += 1;
    const first = await createSlot(suite.admin, roomId, day(2 * visitors), '09:00', '11:00', 5);
    const second = await createSlot(
      suite.admin,
      roomId,
      day(2 * visitors + 1),
      '09:00',
      '11:00',
      5,
    );
    const b = await bookAsNewVisitor(suite.app.baseUrl, [first]);
    const change = await b.client.request(
      'PUT',
      `/api/owners/${b.ownerId}/tickets/${b.ticketId}/seat`,
      { json: { seatId: lastSeat } },
    );
    expect(change.status, await change.clone().text()).toBe(200);
    const move = await b.client.request(
      'POST',
      `/api/owners/${b.ownerId}/tickets/${b.ticketId}/move`,
      { json: { timeSlotId: second } },
    );
    expect(move.status, await move.clone().text()).toBe(200);
    const movedTo = ((await move.json()) as { id: string }).id;
    const cancel = await b.client.request(
      'DELETE',
      `/api/owners/${b.ownerId}/tickets?ids=${movedTo}`,
    );
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    const tx = await suite.db.pool.query<{ id: string }>(
      `SELECT data->>'transactionId' AS id FROM events
        WHERE event_type = 'TransactionBooked' AND data->'ticketIds' ? $1`,
      [b.ticketId],
    );
    const events = {
      'booking.created': await eventOf('TransactionBooked', 'transactionId', tx.rows[0]!.id),
      'ticket.seat_changed': await eventOf('TicketSeatChanged', 'ticketId', b.ticketId),
      'booking.moved': await eventOf('TicketBooked', 'ticketId', movedTo),
      'booking.cancelled': await eventOf('TicketCancelled', 'ticketId', movedTo),
    };
    await reactorPast(events['booking.cancelled']);
    return {
      'booking.created': await applied(events['booking.created']),
      'ticket.seat_changed': await applied(events['ticket.seat_changed']),
      'booking.moved': await applied(events['booking.moved']),
      'booking.cancelled': await applied(events['booking.cancelled']),
    };
  }

  it('reads nothing of the log for an event no endpoint takes, and the payload for one that does', async () => {
    // No endpoint at all, then one of other types only.
    const none = { logReads: 0, logRows: 0, deliveries: 0 };
    const untold = {
      'booking.created': none,
      'ticket.seat_changed': none,
      'booking.moved': none,
      'booking.cancelled': none,
    };
    expect(await visitorsEvents()).toEqual(untold);
    await endpoint(['ticket.checked_in', 'timeslot.deleted']);
    expect(await visitorsEvents()).toEqual(untold);

    // An endpoint for them: each event's payload is looked up in the log and delivered to it.
    await endpoint([
      'booking.created',
      'ticket.seat_changed',
      'booking.moved',
      'booking.cancelled',
    ]);
    const told = await visitorsEvents();
    for (const [type, r] of Object.entries(told)) {
      expect(r.deliveries, type).toBe(1);
      expect(r.logReads, type).toBeGreaterThan(0);
    }
  });

  it("names a booked ticket's seat from its cart's few events, not by walking back through its slot's", async () => {
    await endpoint(['booking.created']);
    const slotId = await createSlot(suite.admin, roomId, day(40), '09:00', '11:00', 5);
    const visitor = new Client(suite.app.baseUrl);
    const cart = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: slotId },
    });
    expect(cart.status).toBe(201);
    const { transactionId, tickets } = (await cart.json()) as {
      transactionId: string;
      tickets: { id: string; seat?: { id: string; label: string } }[];
    };
    // Others hold a seat of the slot and give it back, 30 times: 60 events after the hold.
    for (let i = 0; i < 30; i++) {
      const other = new Client(suite.app.baseUrl);
      const held = await other.request('POST', '/api/transactions', {
        json: { timeSlotId: slotId },
      });
      const o = (await held.json()) as { transactionId: string; tickets: { id: string }[] };
      const removed = await other.request(
        'DELETE',
        `/api/transactions/${o.transactionId}/tickets/${o.tickets[0]!.id}`,
      );
      expect(removed.status).toBe(200);
    }
    const booked = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: {
        salutation: 'MS',
        title: '',
        firstName: 'Sitz',
        lastName: 'Gemerkt',
        organisation: '',
        email: 'sitz.gemerkt@example.at',
        phone: '+43 1 1',
        accessibility: false,
        language: 'de',
      },
    });
    expect(booked.status, await booked.clone().text()).toBe(200);
    const event = await eventOf('TransactionBooked', 'transactionId', transactionId);
    await reactorPast(event);
    const delivered = await suite.db.pool.query<{ payload: string }>(
      `SELECT payload FROM webhook_deliveries WHERE payload LIKE '%' || $1 || '%' LIMIT 1`,
      [transactionId],
    );
    const payload = JSON.parse(delivered.rows[0]!.payload) as {
      data: { tickets: { seat: { id: string; label: string } | null }[] };
    };
    expect(payload.data.tickets.map((t) => t.seat)).toEqual([tickets[0]!.seat]);

    const created = await applied(event);
    expect(created.deliveries).toBeGreaterThan(0);
    // The cart's events, its tickets' bookings and the seat's one look-up: far from the slot's 60.
    expect(created.logRows).toBeLessThan(20);
  });
});
