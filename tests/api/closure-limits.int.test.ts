import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * The bounds of a closure (docs/product.md#closures): its reason required and at most 500
 * characters (its English text too), its date range at most CLOSURE_MAX_DAYS days, here set to 7
 * so the server's setting, not its default of 366, is what refuses. A refusal names the field
 * (`validation__error`) and stores nothing. Every date is the injected clock's.
 */
const MAX_DAYS = 7;
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: AdminSuite;
let roomId: string;

/** A reason of exactly `n` characters, with no blank at either end for the trim to take. */
const reasonOf = (n: number) => 'Sanierung der Heizung '.repeat(30).slice(0, n - 1) + '.';

interface Problem {
  error: string;
  errors?: { field: string; rule: string }[];
}

const close = (json: Record<string, unknown>) =>
  suite.admin.request('POST', '/api/admin/closures', { json });
const preview = (fromDate: string, untilDate: string) =>
  suite.admin.get(
    `/api/admin/closures/preview?fromDate=${fromDate}&untilDate=${untilDate}&roomIds=${roomId}`,
  );
const eventCount = async () =>
  Number((await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

/** The reasons of the closures recorded on the slot's stream. */
async function closedReasons(slotId: string): Promise<string[]> {
  const r = await suite.db.pool.query<{ reason: string }>(
    `SELECT data->>'reason' AS reason FROM events
      WHERE stream_id = $1 AND event_type = 'TimeSlotClosed' ORDER BY stream_version`,
    [`timeslot-${slotId}`],
  );
  return r.rows.map((row) => row.reason);
}

async function expectRefused(res: Response, field: string, rule: string, label: string) {
  expect(res.status, label).toBe(400);
  const problem = (await res.json()) as Problem;
  expect(problem.error, label).toBe('validation__error');
  expect(problem.errors, label).toEqual([expect.objectContaining({ field, rule })]);
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, { env: { CLOSURE_MAX_DAYS: String(MAX_DAYS) } });
  roomId = await createRoom(suite.admin, 'Bounded closure room');
});
afterAll(async () => {
  await suite.close();
});

describe('the reason of a closure', () => {
  it('is required and at most 500 characters, its English text too; 500 are kept whole', async () => {
    const date = day(4);
    const slot = await createSlot(suite.admin, roomId, date, '09:00', '12:00', 5);
    const range = { roomIds: [roomId], fromDate: date, untilDate: date };
    const before = await eventCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...range }, 'reason', 'invalid_type'],
      [{ ...range, reason: '  ' }, 'reason', 'too_small'],
      [{ ...range, reason: reasonOf(501) }, 'reason', 'too_big'],
      [{ ...range, reason: 'Heizung', reasonEn: reasonOf(501) }, 'reasonEn', 'too_big'],
    ];
    for (const [body, field, rule] of cases)
      await expectRefused(await close(body), field, rule, JSON.stringify(body).slice(0, 90));
    expect(await eventCount()).toBe(before);
    expect(await closedReasons(slot)).toEqual([]);

    const reason = reasonOf(500);
    const closed = await close({ ...range, reason, reasonEn: reasonOf(500) });
    expect(closed.status).toBe(200);
    expect(await closed.json()).toMatchObject({ closedSlots: 1 });
    expect(await closedReasons(slot)).toEqual([reason]);
  });
});

describe('the date range of a closure', () => {
  it('is at most CLOSURE_MAX_DAYS days, in the preview as in the closure', async () => {
    const from = day(10);
    const last = addDays(from, MAX_DAYS - 1);
    const first = await createSlot(suite.admin, roomId, from, '09:00', '12:00', 5);
    const end = await createSlot(suite.admin, roomId, last, '09:00', '12:00', 5);
    const before = await eventCount();

    // One day more than the setting: refused on untilDate, nothing closed.
    const tooLong = { roomIds: [roomId], fromDate: from, untilDate: addDays(last, 1) };
    await expectRefused(await preview(from, addDays(last, 1)), 'untilDate', 'too_big', 'preview');
    await expectRefused(
      await close({ ...tooLong, reason: 'Umbau' }),
      'untilDate',
      'too_big',
      'closure',
    );
    expect(await eventCount()).toBe(before);
    expect(await closedReasons(first)).toEqual([]);

    // Exactly the setting's days: previewed and closed, its first and last day included.
    const p = await preview(from, last);
    expect(p.status).toBe(200);
    expect(await p.json()).toMatchObject({ slots: 2, closed: 0 });
    const closed = await close({
      roomIds: [roomId],
      fromDate: from,
      untilDate: last,
      reason: 'Umbau',
    });
    expect(closed.status).toBe(200);
    expect(await closed.json()).toMatchObject({ closedSlots: 2 });
    expect(await closedReasons(first)).toEqual(['Umbau']);
    expect(await closedReasons(end)).toEqual(['Umbau']);
  });
});
