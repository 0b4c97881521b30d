import { randomUUID } from 'node:crypto';
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueTransactions, releaseNoShows } from '@rr/command-service';
import { addDays } from '@rr/domain';
import { checkInCodes, ManualClock } from '@rr/platform';
import { up as ticketStateMigration } from '../../platform/migrations/025_ticket_state.ts';
import { openCartsProjection } from '../../command-service/src/inline/open-carts.ts';
import { Client, openAdminSuite, TEST_KEY_SECRET, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * What check-in and the no-show release decide on is found on the write side, never on the
 * read models: a walk-in booked by staff is checked in the moment the booking answered (the
 * tickets projection may not have caught up yet), and the release job finds every due ticket
 * however many tickets not due yet are booked.
 */
const BASE = new Date('2026-11-23T08:00:00Z'); // 09:00 in Vienna (UTC+1 in November)
const clock = new ManualClock(BASE);
const TODAY = BASE.toISOString().slice(0, 10);
const local = (time: string) => new Date(`${TODAY}T${time}:00+01:00`);
const open = { openStartValue: 0, openStartType: 'DAY', openEndValue: 365, openEndType: 'DAY' };
const codes = checkInCodes(TEST_KEY_SECRET);

let suite: AdminSuite;
beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite.close();
});

async function services(roomId: string, body: Record<string, number | null>) {
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: body,
  });
  expect(res.status).toBe(200);
}

let walkIns = 0;
/** A staff booking of one person into a slot; answers its ticket and booking number. */
async function walkIn(roomId: string, timeSlotId: string) {
  const res = await suite.admin.request(
    'POST',
    `/api/admin/rooms/${roomId}/timeslots/${timeSlotId}/booking`,
    { json: { firstName: 'Walter', lastName: `Gast${++walkIns}`, language: 'de' } },
  );
  expect(res.status).toBe(201);
  return (await res.json()) as { ticketId: string; bookingNumber: string };
}

describe('check-in right after a staff booking', () => {
  it('finds each of 20 walk-ins at once: by id, by QR reference and by booking number', async () => {
    clock.set(BASE);
    const roomId = await createRoom(suite.admin, 'Walk-in room', open);
    await services(roomId, { checkInMinutesBefore: 15, noShowReleaseMinutes: 30 });
    const slotId = await createSlot(suite.admin, roomId, TODAY, '09:10', '12:00', 100);
    const ways = {
      id: (t: { ticketId: string }) =>
        suite.admin.request('POST', `/api/admin/tickets/${t.ticketId}/check-in`),
      reference: (t: { ticketId: string }) =>
        suite.admin.request('POST', '/api/admin/check-in', {
          json: { code: codes.codeOf(t.ticketId) },
        }),
      bookingNumber: (t: { bookingNumber: string }) =>
        suite.admin.request('POST', '/api/admin/check-in', { json: { code: t.bookingNumber } }),
    };
    const checkedIn = { id: 0, reference: 0, bookingNumber: 0 };
    for (const way of ['id', 'reference', 'bookingNumber'] as const)
      for (let i = 0; i < 20; i++) {
        const t = await walkIn(roomId, slotId);
        const res = await ways[way](t);
        const body = (await res.json()) as { ticketId?: string; checkedInAt?: string };
        if (res.status === 200 && body.ticketId === t.ticketId && body.checkedInAt)
          checkedIn[way] += 1;
      }
    expect(checkedIn).toEqual({ id: 20, reference: 20, bookingNumber: 20 });
  });
});

describe('the no-show release', () => {
  it('releases the due no-shows in the next round, with 520 tickets not due yet ahead of them', async () => {
    // Booked early in the morning: 520 tickets from 07:00 in a room releasing after a day (its
    // four slots booked side by side), and 3 at 08:00 in a room releasing after 20 minutes.
    clock.set(local('05:00'));
    const later = await createRoom(suite.admin, 'Releases after a day', open);
    await services(later, { checkInMinutesBefore: 15, noShowReleaseMinutes: 1440 });
    const soon = await createRoom(suite.admin, 'Releases after 20 minutes', open);
    await services(soon, { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 });
    const lanes = [];
    for (const [start, end] of [
      ['07:00', '07:15'],
      ['07:15', '07:30'],
      ['07:30', '07:45'],
      ['07:45', '08:00'],
    ] as const)
      lanes.push(await createSlot(suite.admin, later, TODAY, start, end, 130));
    await Promise.all(
      lanes.map(async (slotId) => {
        for (let i = 0; i < 130; i++) await walkIn(later, slotId);
      }),
    );
    const dueSlot = await createSlot(suite.admin, soon, TODAY, '08:00', '09:00', 10);
    const due = [];
    for (let i = 0; i < 3; i++) due.push((await walkIn(soon, dueSlot)).ticketId);

    // 09:00: the 3 are due since 08:20, the 520 only tomorrow at 07:00.
    clock.set(local('09:00'));
    expect(await releaseNoShows(suite.app.deps)).toBe(3);
    const states = await suite.db.pool.query<{ status: string; n: string }>(
      `SELECT status, count(*)::text AS n FROM ticket_state
        WHERE time_slot_id = ANY($1::uuid[]) GROUP BY status`,
      [lanes],
    );
    expect(states.rows).toEqual([{ status: 'BOOKED', n: '520' }]);
    const released = await suite.db.pool.query<{ status: string }>(
      'SELECT status FROM ticket_state WHERE ticket_id = ANY($1::uuid[])',
      [due],
    );
    expect(released.rows.map((r) => r.status)).toEqual(['INVALID', 'INVALID', 'INVALID']);
    expect(await releaseNoShows(suite.app.deps)).toBe(0);
    clock.set(BASE);
  });
});

describe('ticket_state and open_carts', () => {
  const rows = async () => ({
    tickets: (
      await suite.db.pool.query<{ status: string; checked_in: boolean }>(
        `SELECT ticket_id::text, time_slot_id::text, transaction_id::text, status, owner_id, checked_in
           FROM ticket_state ORDER BY ticket_id`,
      )
    ).rows,
    carts: (
      await suite.db.pool.query<{ transaction_id: string }>(
        'SELECT transaction_id::text, expires_at FROM open_carts ORDER BY transaction_id',
      )
    ).rows,
  });

  it('move every cart of a commit group: opened, extended, booked and removed at once', async () => {
    const ids = Array.from({ length: 6 }, () => randomUUID()).sort();
    const [booked, removed, extended, ...opened] = ids as [string, string, string, ...string[]];
    const at = (minutes: number) => new Date(BASE.getTime() + minutes * 60_000).toISOString();
    const cart = (id: string, type: string, data: object = {}) => ({
      streamId: `transaction-${id}`,
      event: { type, data },
    });
    const client = await suite.db.pool.connect();
    const tx = {
      client,
      send: async (statement: string | { name: string; text: string }, values?: unknown[]) => {
        await client.query(
          typeof statement === 'string' ? { text: statement, values } : { ...statement, values },
        );
      },
    };
    try {
      await client.query(
        'INSERT INTO open_carts (transaction_id, expires_at) SELECT unnest($1::uuid[]), $2',
        [[booked, removed, extended], at(15)],
      );
      await client.query('BEGIN');
      await openCartsProjection.apply(
        tx,
        [
          cart(booked, 'TransactionBooked'),
          cart(removed, 'TransactionRemoved'),
          cart(extended, 'TicketAddedToTransaction', { expiresAt: at(25) }),
          ...opened.map((id, i) => cart(id, 'TransactionStarted', { expiresAt: at(30 + i) })),
        ],
        BASE,
      );
      await client.query('COMMIT');
      const { rows } = await client.query<{ id: string; expires_at: Date }>(
        'SELECT transaction_id::text AS id, expires_at FROM open_carts WHERE transaction_id = ANY($1)',
        [ids],
      );
      expect(rows.map((r) => [r.id, r.expires_at.toISOString()]).sort()).toEqual(
        [[extended, at(25)], ...opened.map((id, i) => [id, at(30 + i)])].sort(),
      );
    } finally {
      await client.query('DELETE FROM open_carts WHERE transaction_id = ANY($1)', [ids]);
      client.release();
    }
  });

  it('are filled from the streams by migration 025 as the commands left them', async () => {
    clock.set(BASE);
    const roomId = await createRoom(suite.admin, 'Backfill room', open);
    await services(roomId, { checkInMinutesBefore: 15, noShowReleaseMinutes: 30 });
    const later = await createSlot(suite.admin, roomId, addDays(TODAY, 2), '10:00', '11:00', 10);
    const slotId = await createSlot(suite.admin, roomId, TODAY, '09:10', '09:20', 10);
    // Checked in, then undone; cancelled by staff; held in carts: one open, one expired.
    const undone = await walkIn(roomId, slotId);
    expect(
      (await suite.admin.request('POST', `/api/admin/tickets/${undone.ticketId}/check-in`)).status,
    ).toBe(200);
    expect(
      (await suite.admin.request('DELETE', `/api/admin/tickets/${undone.ticketId}/check-in`))
        .status,
    ).toBe(200);
    const cancelled = await walkIn(roomId, later);
    expect(
      (await suite.admin.request('DELETE', `/api/admin/tickets?ids=${cancelled.ticketId}`)).status,
    ).toBe(200);
    const visitor = new Client(suite.app.baseUrl);
    const expiring = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: later },
    });
    expect(expiring.status).toBe(201);
    clock.set(new Date(BASE.getTime() + 24 * 3600_000));
    expect(await expireDueTransactions(suite.app.deps)).toBeGreaterThanOrEqual(1);
    clock.set(BASE);
    const held = await new Client(suite.app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: later },
    });
    expect(held.status).toBe(201);
    const { transactionId } = (await held.json()) as { transactionId: string };

    const live = await rows();
    expect(live.carts.map((c) => c.transaction_id)).toEqual([transactionId]);
    const statuses = new Set(live.tickets.map((t) => `${t.status} ${String(t.checked_in)}`));
    for (const s of [
      'NEW false',
      'BOOKED true',
      'BOOKED false',
      'CANCELLED false',
      'INVALID false',
    ])
      expect(statuses).toContain(s);
    const k = knex({ client: 'pg', connection: suite.db.url });
    try {
      await k.raw('DROP TABLE ticket_state, open_carts');
      await ticketStateMigration(k);
    } finally {
      await k.destroy();
    }
    expect(await rows()).toEqual(live);
  });
});
