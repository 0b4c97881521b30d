import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TicketHeld, timeSlotStreamId } from '@rr/events';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { readModelNames } from '../../server/src/runtime.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The server's event loop goes on while a what-if replay reads and replays a large history
 * (docs/product.md#insights): the worker reads it from PostgreSQL itself, so this process (the
 * server, in the test's own process) neither reads nor replays it. A history just under the cap
 * replays. Every time is the injected clock's.
 */
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const today = () => todayIn(clock.now(), 'Europe/Vienna');
const SLOTS = 60;
const HOLDS_PER_SLOT = 250;
const EVENTS = SLOTS * (HOLDS_PER_SLOT + 1);
let suite: AdminSuite;

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: { WHAT_IF_MAX_EVENTS: String(EVENTS + 1), WHAT_IF_BATCH_SIZE: '500' },
  });
});
afterAll(async () => {
  await suite.close();
});

describe('a large what-if replay', () => {
  it(`leaves the event loop free while it replays ${EVENTS} events`, async () => {
    const roomId = await createRoom(suite.admin, 'Large history room', { openStartValue: 0 });
    const first = addDays(today(), 2);
    const slots: string[] = [];
    for (let d = 0; d < SLOTS / 6; d++)
      for (let h = 8; h < 20; h += 2)
        slots.push(
          await createSlot(
            suite.admin,
            roomId,
            addDays(first, d),
            `${String(h).padStart(2, '0')}:00`,
            `${String(h + 2).padStart(2, '0')}:00`,
            50,
          ),
        );
    // The holds of many carts, written through the store as the cart command writes them (one
    // append per slot), a second apart: what a busy room records over its days.
    for (const [i, slot] of slots.entries()) {
      const events = Array.from({ length: HOLDS_PER_SLOT }, (_, n) =>
        TicketHeld.create({
          ticketId: randomUUID(),
          timeSlotId: slot,
          transactionId: randomUUID(),
          expiresAt: new Date(clock.now().getTime() + (n + 600) * 1000).toISOString(),
        }),
      );
      await suite.app.deps.store.appendToStream(timeSlotStreamId(slot), 'timeslot', 1, events, {
        metadata: { actor: { kind: 'visitor' } },
      });
      if (i % 10 === 9) clock.advance(60_000);
    }
    // The read models take the holds first: their projections run in this process too.
    const end = (
      await suite.db.pool.query<{ tx: string; gp: string }>(
        `SELECT transaction_id::text AS tx, global_position::text AS gp FROM events
          ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
      )
    ).rows[0]!;
    await waitFor(
      'the projections caught up',
      async () =>
        (
          await suite.db.pool.query<{ behind: string }>(
            `SELECT count(*) AS behind FROM projection_checkpoints
              WHERE name = ANY($3) AND (last_tx, last_gp) < ($1::text::xid8, $2::bigint)`,
            [end.tx, end.gp, readModelNames],
          )
        ).rows[0]!.behind === '0',
      budget(60_000),
    );
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const r = await suite.admin.request('POST', '/api/admin/insights/what-if', {
      json: { roomId, fromDate: first, untilDate: addDays(first, 30), change: { capacity: 10 } },
    });
    delay.disable();
    expect(r.status).toBe(200);
    const got = (await r.json()) as { actual: { served: number }; whatIf: { served: number } };
    expect(got.actual.served).toBe(SLOTS * HOLDS_PER_SLOT);
    expect(got.whatIf.served).toBe(SLOTS * 10);
    // The longest the loop stood still during the replay: a turn's work, never the history's.
    const longestMs = delay.max / 1e6;
    console.log(`event loop: longest delay ${longestMs.toFixed(0)} ms during the replay`);
    expect(longestMs).toBeLessThan(budget(250));
  });
});
