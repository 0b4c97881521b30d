import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  seatsTakenApart,
  slotTickets,
  waitingCount,
  type HeldTicket,
  type WaitlistEntry,
} from '@rr/domain';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { seatsTakenLateral, waitlistLateral } from './seats-taken.ts';

/**
 * "Seats taken" has two spellings: the domain's (`seatsTakenApart` and `waitingCount`, over a
 * folded slot stream: what the slot's decisions count) and the SQL of the read models
 * (`seatsTakenLateral` and `waitlistLateral`: what the calendars, the display and the staff
 * screens count). Generated slots, written into the read models' tables, must count the same on
 * both sides, or a visitor would see a seat the decision then refuses.
 */

const NOW = new Date('2026-11-23T09:00:00.000Z');
const at = (minutes: number | null) =>
  minutes === null ? null : new Date(NOW.getTime() + minutes * 60_000).toISOString();

const ticketArb = fc.record({
  status: fc.constantFrom('NEW', 'BOOKED', 'CANCELLED', 'INVALID' as const),
  // Around the clock's instant, the instant itself included (a hold ending now holds no more).
  expiresIn: fc.option(fc.integer({ min: -30, max: 30 }), { nil: null }),
});
const entryArb = fc.record({
  status: fc.constantFrom('waiting', 'offered', 'lapsed', 'taken', 'left', 'removed' as const),
  passedOver: fc.boolean(),
  offerExpiresIn: fc.option(fc.integer({ min: -30, max: 30 }), { nil: null }),
});

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('seats taken, in the domain and in SQL', () => {
  it('count the same for any slot', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ticketArb, { maxLength: 8 }),
        fc.array(entryArb, { maxLength: 6 }),
        async (tickets, entries) => {
          const slotId = randomUUID();
          const held: Record<string, HeldTicket> = {};
          for (const t of tickets) {
            const id = randomUUID();
            const transactionId = randomUUID();
            held[id] = {
              status: t.status,
              transactionId,
              expiresAt: at(t.expiresIn),
              ownerId: null,
            };
            await db.pool.query(
              `INSERT INTO rm_transactions (id, status, expires_at, created_at)
               VALUES ($1, 'NEW', $2, $3)`,
              [transactionId, at(t.expiresIn), NOW.toISOString()],
            );
            await db.pool.query(
              `INSERT INTO rm_tickets (id, transaction_id, time_slot_id, room_id, date, start_time,
                 end_time, status, created_at)
               VALUES ($1, $2, $3, $4, '2026-11-30', '09:00', '10:00', $5, $6)`,
              [id, transactionId, slotId, randomUUID(), t.status, NOW.toISOString()],
            );
          }
          const waitlist: WaitlistEntry[] = [];
          for (const [i, e] of entries.entries()) {
            const entryId = randomUUID();
            waitlist.push({
              entryId,
              visitorKey: `visitor-${i}`,
              personKey: `visitor-${i}`,
              language: 'de',
              joinedAt: NOW.toISOString(),
              status: e.status,
              offerId: null,
              offerExpiresAt: at(e.offerExpiresIn),
              ...(e.passedOver ? { passedOver: true as const } : {}),
            });
            await db.pool.query(
              `INSERT INTO rm_waitlist (entry_id, time_slot_id, line_position, language, status,
                 joined_at, offer_expires_at, passed_over)
               VALUES ($1, $2, $3, 'de', $4, $5, $6, $7)`,
              [entryId, slotId, i, e.status, NOW.toISOString(), at(e.offerExpiresIn), e.passedOver],
            );
          }
          const r = await db.pool.query<{
            booked_count: number;
            held_count: number;
            offered: number;
            waiting: number;
          }>(
            `SELECT c.booked_count, c.held_count, w.offered, w.waiting
               FROM (SELECT $1::uuid AS id) s,
                    ${seatsTakenLateral('t.time_slot_id = s.id', '$2::timestamptz')} c,
                    ${waitlistLateral('$2::timestamptz')}`,
            [slotId, NOW.toISOString()],
          );
          const sql = r.rows[0]!;
          const domain = seatsTakenApart(
            { tickets: slotTickets(Object.entries(held)), waitlist },
            NOW,
          );
          expect({
            booked: sql.booked_count,
            // The domain counts an outstanding waitlist offer as a hold; the SQL apart.
            held: sql.held_count + sql.offered,
            waiting: sql.waiting,
          }).toEqual({ booked: domain.booked, held: domain.held, waiting: waitingCount(waitlist) });
        },
      ),
      { numRuns: 200 },
    );
  });
});
