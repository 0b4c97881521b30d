// Over 300 lines: one property (batch apply equals per-event apply); most of the file is the random
// log it needs.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  roomStreamId,
  timeSlotStreamId,
  transactionStreamId,
  type AppendOptions,
  type AppendRequest,
  type NewEvent,
  type Projection,
  type RecordedEvent,
} from '@rr/events';
import { inTransaction } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { applyEvents } from './projection.ts';
import { rebuildReadModels } from './rebuild.ts';
import { ticketsProjection } from './tickets.ts';
import { timeSlotsProjection } from './timeslots.ts';
import { waitlistProjection } from './waitlist.ts';
import { insightLeadProjection, insightSeatsProjection, insightsProjection } from '@rr/insights';
import { seededRandom } from '../../tests/support/random.ts';
import { readVisible } from '../../tests/support/visible.ts';
import { budget } from '../../tests/support/time-budget.ts';

/**
 * A waitlist event on a slot: an entry joins, or its newest entry is offered a seat, takes it (a
 * cart's ticket, which a later booking books) or lets it lapse, is passed over, or leaves.
 */
function waitlistEvent(
  slot: { id: string; waitlist?: { entries: string[]; n: number } },
  ticket: { id: string } | null,
  push: (streamId: string, e: NewEvent) => void,
): void {
  const w = (slot.waitlist ??= { entries: [], n: 0 });
  const step = w.n++ % 6;
  const stream = timeSlotStreamId(slot.id);
  const timeSlotId = slot.id;
  const entryId = w.entries[w.entries.length - 1];
  const offerId = randomBytes(16).toString('hex');
  const at = (day: number) => new Date(Date.UTC(2031, 0, day)).toISOString();
  if (!entryId || step === 0) {
    const id = randomUUID();
    w.entries.push(id);
    push(stream, {
      type: 'WaitlistJoined',
      data: {
        entryId: id,
        timeSlotId,
        visitorKey: 'b'.repeat(40),
        language: 'de',
        joinedAt: at(1),
      },
    });
  } else if (step === 1)
    push(stream, {
      type: 'SeatOffered',
      data: { entryId, timeSlotId, offerId, expiresAt: at(2) },
    });
  else if (step === 2 && ticket) {
    const data = { entryId, timeSlotId, offerId, ticketId: ticket.id, transactionId: randomUUID() };
    push(stream, { type: 'SeatOfferTaken', data });
  } else if (step === 2)
    push(stream, { type: 'SeatOfferLapsed', data: { entryId, timeSlotId, offerId } });
  else if (step === 3)
    push(stream, { type: 'WaitlistEntryPassedOver', data: { entryId, timeSlotId } });
  else if (step === 4)
    push(stream, { type: 'WaitlistEntryBackInLine', data: { entryId, timeSlotId } });
  else push(stream, { type: 'WaitlistLeft', data: { entryId, timeSlotId } });
}

const options: AppendOptions = { metadata: { actor: { kind: 'system', job: 'batch-test' } } };

/**
 * A random history of slots and carts, edge cases included: slots changed, deleted (with tickets
 * on them) and created twice, rooms deleted, events about tickets, carts and slots that do not
 * exist (or no longer), ids in upper case, several events on one row inside one transaction.
 */
async function writeRandomLog(db: TestDatabase, seed: number, commands: number): Promise<number> {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const rooms = [randomUUID(), randomUUID(), randomUUID()];
  const slots: { id: string; roomId: string; date: string; start: string }[] = [];
  const carts: { id: string; tickets: { id: string; slot: string }[] }[] = [];
  const owner = () => randomBytes(16).toString('hex');
  const later = () => new Date(Date.UTC(2031, 0, 1) + Math.floor(rnd() * 1e9)).toISOString();
  let count = 0;
  for (const roomId of rooms) {
    await db.store.appendToStream(
      roomStreamId(roomId),
      'room',
      'any',
      [
        {
          type: 'RoomCreated',
          data: {
            roomId,
            name: 'r',
            description: '',
            capacity: 5,
            openStart: { type: 'DAY', value: 1 },
            openEnd: { type: 'DAY', value: 30 },
          },
        },
      ],
      options,
    );
    count += 1;
  }
  for (let c = 0; c < commands; c++) {
    const requests = new Map<string, AppendRequest>();
    const push = (streamId: string, e: NewEvent) => {
      const type = streamId.split('-')[0]!;
      const r = requests.get(streamId) ?? {
        streamId,
        streamType: type,
        expectedVersion: 'any',
        events: [],
      };
      r.events.push(e);
      requests.set(streamId, r);
      count += 1;
    };
    const ops = 1 + Math.floor(rnd() * 4);
    for (let o = 0; o < ops; o++) {
      const x = rnd();
      const slot = slots.length ? pick(slots) : null;
      const cart = carts.length ? pick(carts) : null;
      const ticket = cart?.tickets.length ? pick(cart.tickets) : null;
      const maybeUpper = (id: string) => (rnd() < 0.1 ? id.toUpperCase() : id);
      if (x < 0.12 || !slot) {
        const s = {
          id: randomUUID(),
          roomId: pick(rooms),
          date: `2031-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`,
          start: pick(['08:00', '12:00']),
        };
        slots.push(s);
        const created = {
          timeSlotId: s.id,
          roomId: s.roomId,
          date: s.date,
          startTime: s.start,
          endTime: '18:00',
          capacity: Math.floor(rnd() * 6),
        };
        push(timeSlotStreamId(s.id), { type: 'TimeSlotCreated', data: created });
        // Created twice: the second insert does nothing.
        if (rnd() < 0.1)
          push(timeSlotStreamId(s.id), {
            type: 'TimeSlotCreated',
            data: { ...created, capacity: 99 },
          });
      } else if (x < 0.16) {
        // Now and then moved to another day.
        if (rnd() < 0.3) slot.date = `2031-0${1 + Math.floor(rnd() * 9)}-2${Math.floor(rnd() * 9)}`;
        push(timeSlotStreamId(slot.id), {
          type: 'TimeSlotUpdated',
          data: {
            timeSlotId: maybeUpper(slot.id),
            roomId: slot.roomId,
            date: slot.date,
            startTime: '09:00',
            endTime: '17:00',
            capacity: Math.floor(rnd() * 8),
          },
        });
      } else if (x < 0.2) {
        push(timeSlotStreamId(slot.id), {
          type: 'TimeSlotCapacityChanged',
          data: { timeSlotId: slot.id, roomId: slot.roomId, capacity: Math.floor(rnd() * 8) },
        });
      } else if (x < 0.23) {
        push(timeSlotStreamId(slot.id), {
          type: 'TimeSlotDeleted',
          data: { timeSlotId: slot.id, roomId: slot.roomId },
        });
      } else if (x < 0.235) {
        const roomId = pick(rooms);
        push(roomStreamId(roomId), { type: 'RoomDeleted', data: { roomId } });
      } else if (x < 0.45 || !cart) {
        // A new cart, or another ticket in one, on any slot (deleted ones too).
        const target = cart && rnd() < 0.5 ? cart : { id: randomUUID(), tickets: [] };
        const expiresAt = later();
        if (target !== cart) {
          carts.push(target);
          push(transactionStreamId(target.id), {
            type: 'TransactionStarted',
            data: { transactionId: target.id, expiresAt },
          });
        }
        const ticketId = randomUUID();
        target.tickets.push({ id: ticketId, slot: slot.id });
        push(transactionStreamId(target.id), {
          type: 'TicketAddedToTransaction',
          data: {
            ticketId,
            timeSlotId: slot.id,
            roomId: slot.roomId,
            date: slot.date,
            startTime: slot.start,
            endTime: '18:00',
            expiresAt,
          },
        });
        push(timeSlotStreamId(slot.id), {
          type: 'TicketHeld',
          data: { ticketId, timeSlotId: slot.id, transactionId: target.id, expiresAt },
        });
      } else if (x < 0.5) {
        const expiresAt = later();
        push(transactionStreamId(cart.id), { type: 'TransactionTouched', data: { expiresAt } });
        for (const t of cart.tickets)
          push(timeSlotStreamId(t.slot), {
            type: 'TicketHoldExtended',
            data: { ticketId: t.id, expiresAt },
          });
      } else if (x < 0.58 && ticket) {
        push(transactionStreamId(cart.id), {
          type: 'TicketRemovedFromTransaction',
          data: { ticketId: maybeUpper(ticket.id) },
        });
        push(timeSlotStreamId(ticket.slot), {
          type: 'TicketReleased',
          data: { ticketId: ticket.id, reason: 'removed' },
        });
      } else if (x < 0.75) {
        const ownerId = owner();
        const ids = cart.tickets.map((t) => t.id);
        if (rnd() < 0.2) ids.push(randomUUID()); // a ticket that does not exist
        push(transactionStreamId(cart.id), {
          type: 'TransactionBooked',
          data: {
            transactionId: maybeUpper(cart.id),
            ownerId,
            bookingNumber: `R-${Math.floor(rnd() * 1e6)}`,
            visitorKey: 'a'.repeat(40),
            language: 'de',
            ticketIds: ids,
          },
        });
        for (const t of cart.tickets)
          push(timeSlotStreamId(t.slot), {
            type: 'TicketBooked',
            data: { ticketId: maybeUpper(t.id), ownerId },
          });
      } else if (x < 0.85 && ticket) {
        push(timeSlotStreamId(ticket.slot), {
          type: 'TicketCancelled',
          // Now and then a rebooking's cancellation, naming the ticket that took its place.
          data: {
            ticketId: ticket.id,
            ownerId: owner(),
            ...(rnd() < 0.3 ? { movedTo: pick(cart.tickets).id } : {}),
          },
        });
      } else if (x < 0.9) {
        push(transactionStreamId(cart.id), {
          type: 'TransactionExpired',
          data: { transactionId: cart.id },
        });
        for (const t of cart.tickets)
          push(timeSlotStreamId(t.slot), {
            type: 'TicketReleased',
            data: { ticketId: t.id, reason: 'expired' },
          });
      } else if (x < 0.95) {
        push(transactionStreamId(cart.id), {
          type: 'TransactionRemoved',
          data: { transactionId: cart.id },
        });
      } else if (x < 0.975) {
        waitlistEvent(slot, ticket, push);
      } else {
        // Events about rows that never existed.
        const ghost = randomUUID();
        push(timeSlotStreamId(ghost), {
          type: 'TicketReleased',
          data: { ticketId: ghost, reason: 'expired' },
        });
        push(transactionStreamId(ghost), {
          type: 'TransactionTouched',
          data: { expiresAt: later() },
        });
      }
    }
    await db.store.appendMany([...requests.values()], options);
  }
  return count;
}

const projections = [
  ticketsProjection,
  timeSlotsProjection,
  waitlistProjection,
  insightsProjection,
  insightLeadProjection('Europe/Vienna'),
  insightSeatsProjection,
];
const TABLES = projections.flatMap((p) => p.tables).filter((t) => t !== 'rm_ticket_counts');

async function snapshot(db: TestDatabase): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES)
    out[t] = (await db.pool.query(`SELECT * FROM ${t} ORDER BY ${t}::text`)).rows;
  // The counts kept by the triggers (migration 013), beside the counts of the tickets themselves.
  const key = 'status, date::text AS date, room_id';
  out.kept_counts = (
    await db.pool.query(`SELECT ${key}, n::int FROM rm_ticket_counts WHERE n <> 0 ORDER BY 1, 2, 3`)
  ).rows;
  out.counted = (
    await db.pool.query(
      `SELECT ${key}, count(*)::int AS n FROM rm_tickets GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    )
  ).rows;
  expect(out.kept_counts).toEqual(out.counted);
  return out;
}

/** Replays the log into empty tables in batches of the given sizes (each a transaction). */
async function replay(
  db: TestDatabase,
  events: RecordedEvent[],
  ps: Projection[],
  nextSize: () => number,
): Promise<void> {
  await db.pool.query(`TRUNCATE ${TABLES.join(', ')}, rm_ticket_counts`);
  for (let i = 0; i < events.length;) {
    const batch = events.slice(i, i + nextSize());
    i += batch.length;
    await inTransaction(db.pool, async (client) => {
      for (const p of ps) await applyEvents(client, p, batch);
    });
  }
}

describe('batch apply and per-event apply', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it(
    'give identical tables for the same random log, whatever the batch sizes',
    { timeout: budget(120_000) },
    async () => {
      const written = await writeRandomLog(db, 4711, 700);
      const events = await readVisible(db.store, written);
      expect(events.length).toBe(written);

      // One event at a time through `apply` only: the reference.
      const perEvent = projections.map((p): Projection => ({
        name: p.name,
        tables: p.tables,
        handles: p.handles,
        apply: (client, event) => p.apply(client, event),
      }));
      await replay(db, events, perEvent, () => 1);
      const expected = await snapshot(db);
      expect(expected.rm_tickets!.length).toBeGreaterThan(200);
      expect(expected.rm_time_slots!.length).toBeGreaterThan(20);
      expect(expected.rm_waitlist!.length).toBeGreaterThan(5);
      expect(expected.rm_insight_hours!.length).toBeGreaterThan(20);
      expect(expected.rm_insight_lead_days!.length).toBeGreaterThan(20);
      expect((expected.rm_tickets as { status: string }[]).map((t) => t.status).sort()).toEqual(
        expect.arrayContaining(['NEW', 'BOOKED', 'CANCELLED', 'INVALID']),
      );

      // The same log through applyBatch, in batches of random sizes, in one batch, and one by one.
      const rnd = seededRandom(99);
      await replay(db, events, projections, () => 1 + Math.floor(rnd() * 60));
      expect(await snapshot(db)).toEqual(expected);
      await replay(db, events, projections, () => events.length);
      expect(await snapshot(db)).toEqual(expected);
      await replay(db, events, projections, () => 1);
      expect(await snapshot(db)).toEqual(expected);

      // And the rebuild (one read for all, applyBatch in its batches) ends in the same tables.
      // Also with the totals kept batch by batch and every index made with the tables.
      const results = await rebuildReadModels(db.pool, db.store, projections, 97);
      expect(results.map((r) => r.events)).toEqual(projections.map(() => written));
      expect(await snapshot(db)).toEqual(expected);
      await rebuildReadModels(db.pool, db.store, projections, 97, {
        totalsAfter: false,
        indexesAfter: false,
      });
      expect(await snapshot(db)).toEqual(expected);
    },
  );
});

describe('a ticket booked twice', () => {
  it('keeps its first booking in the insights, in one batch as event by event', async () => {
    const db = await createTestDatabase();
    try {
      const roomId = randomUUID();
      const tickets = Array.from({ length: 300 }, () => ({
        id: randomUUID(),
        slot: randomUUID(),
      }));
      const requests = (upper: boolean): AppendRequest[] =>
        tickets.map((t) => ({
          streamId: timeSlotStreamId(t.slot),
          streamType: 'timeslot',
          expectedVersion: 'any',
          events: [
            {
              type: 'TicketBooked',
              data: { ticketId: upper ? t.id.toUpperCase() : t.id, ownerId: 'a'.repeat(32) },
            },
          ],
        }));
      await db.store.appendMany(
        tickets.map((t, i) => ({
          streamId: timeSlotStreamId(t.slot),
          streamType: 'timeslot',
          expectedVersion: 'any',
          events: [
            {
              type: 'TimeSlotCreated',
              data: {
                timeSlotId: t.slot,
                roomId,
                date: `2031-0${1 + (i % 9)}-1${i % 10}`,
                startTime: '08:00',
                endTime: '18:00',
                capacity: 4,
              },
            },
          ],
        })),
        options,
      );
      await db.store.appendMany(requests(false), options);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await db.store.appendMany(requests(true), options);
      const events = await readVisible(db.store, tickets.length * 3);
      const insights = [insightsProjection, insightLeadProjection('Europe/Vienna')];
      const bookedAt = async () =>
        (
          await db.pool.query<{ what: string; n: number }>(
            `SELECT 'bookings' AS what, count(DISTINCT booked_at)::int AS n FROM rm_insight_bookings
             UNION ALL
             SELECT 'lead', count(DISTINCT booked_at)::int FROM rm_insight_lead_tickets`,
          )
        ).rows;
      const first = events.find((e) => e.type === 'TicketBooked')!.createdAt;
      const firsts = async () =>
        (
          await db.pool.query<{ n: number }>(
            `SELECT (SELECT count(*) FROM rm_insight_bookings WHERE booked_at = $1)
                  + (SELECT count(*) FROM rm_insight_lead_tickets WHERE booked_at = $1) AS n`,
            [first],
          )
        ).rows[0]!.n;
      for (const size of [1, events.length]) {
        await db.pool.query(`TRUNCATE ${TABLES.join(', ')}, rm_ticket_counts`);
        for (let i = 0; i < events.length; i += size)
          await inTransaction(db.pool, async (client) => {
            // Whatever join the planner picks: a hash join returns a key's rows in any order.
            await client.query('SET LOCAL enable_nestloop = off');
            await client.query('SET LOCAL enable_mergejoin = off');
            for (const p of insights) await applyEvents(client, p, events.slice(i, i + size));
          });
        // Every booking row holds the first booking's time (one append: one time).
        expect(await bookedAt()).toEqual([
          { what: 'bookings', n: 1 },
          { what: 'lead', n: 1 },
        ]);
        expect(Number(await firsts())).toBe(tickets.length * 2);
      }
    } finally {
      await db.drop();
    }
  });
});
