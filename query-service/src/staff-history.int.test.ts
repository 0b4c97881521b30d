import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore, formatPosition, timeSlotStreamId, Upcasters } from '@rr/events';
import { ManualClock } from '@rr/platform';
import { Client, openAdminSuite, type AdminSuite } from '../../tests/support/app.ts';
import { createRoom, createSlot } from '../../tests/support/fixtures.ts';

/**
 * The audit histories read the log through the event store, so old event shapes are upcast as
 * for every other reader. The test writes a `TicketReleased` of a made-up older shape (version 0:
 * `{ ticket, expired }` instead of `{ ticketId, reason }`) and gives the app an upcaster for it:
 * read as raw rows, the ticket's history would miss the event (no `ticketId`) and the slot's
 * would call it `released` (no `reason`).
 */
describe('audit history of upcast events', () => {
  const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
  const upcasters = new Upcasters().register('TicketReleased', 0, (data) => {
    const { ticket, expired, ...rest } = data as { ticket: string; expired: boolean };
    return { ...rest, ticketId: ticket, reason: expired ? 'expired' : 'removed' };
  });
  const legacy = { ticket: '', expired: true };
  let suite: AdminSuite;
  let roomId: string;
  let slotId: string;
  let ticketId: string;
  let position: string;

  beforeAll(async () => {
    suite = await openAdminSuite(clock, { upcasters });
    roomId = await createRoom(suite.admin, 'History room');
    slotId = await createSlot(suite.admin, roomId, '2026-11-26', '09:00', '12:00', 5);
    const visitor = new Client(suite.app.baseUrl);
    const res = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: slotId },
    });
    expect(res.status).toBe(201);
    const cart = (await res.json()) as { ticket: { id: string }; position: string };
    ticketId = cart.ticket.id;
    legacy.ticket = ticketId;
    // An event as an older version wrote it: appended without the catalogue's check.
    const result = await new EventStore(suite.db.pool, { clock }).appendToStream(
      timeSlotStreamId(slotId),
      'timeslot',
      'any',
      [{ type: 'TicketReleased', data: legacy, metadata: { schemaVersion: 0 } }],
      { metadata: { actor: { kind: 'system', job: 'cart-expiry' } } },
    );
    position = formatPosition(result.position);
  });

  afterAll(() => suite?.close());

  type Entry = { at: string; event: string; what: string; actor: Record<string, string> };
  const historyOf = async (path: string) => {
    // Read-your-writes up to the legacy event, so the ticket's read-model row has taken it too.
    suite.admin.lastPosition = position;
    const res = await suite.admin.get(path);
    expect(res.status).toBe(200);
    return (await res.json()) as Entry[];
  };

  it("a ticket's history shows the old event in its current shape", async () => {
    const history = await historyOf(`/api/admin/tickets/${ticketId}/history`);
    expect(history.map((h) => h.what)).toEqual(['held', 'expired']);
    expect(history[1]).toEqual({
      at: '2026-11-23T09:00:00.000Z',
      event: 'TicketReleased',
      what: 'expired',
      actor: { kind: 'system', job: 'cart-expiry' },
    });
  });

  it("a time slot's history shows it upcast too, in commit order", async () => {
    const history = await historyOf(`/api/admin/rooms/${roomId}/timeslots/${slotId}/history`);
    expect(history.map((h) => h.what)).toEqual(['slot-created', 'held', 'expired']);
  });

  it('the stored row keeps its old shape (upcast on read, never rewritten)', async () => {
    const raw = await suite.db.pool.query<{ data: unknown; metadata: { schemaVersion: number } }>(
      `SELECT data, metadata FROM events WHERE stream_id = $1 AND event_type = 'TicketReleased'`,
      [timeSlotStreamId(slotId)],
    );
    expect(raw.rows.map((r) => [r.data, r.metadata.schemaVersion])).toEqual([[legacy, 0]]);
  });
});
