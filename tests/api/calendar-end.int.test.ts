import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * The last date there is, 9999-12-31, as a client may send it: a slot on it and periods that end
 * on it. The day after it has no `YYYY-MM-DD`, so nothing may reckon with that day as a date
 * string: a period's length is counted in days, and the day its personal data goes is counted
 * by the database (10000-01-01).
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const LAST = '9999-12-31';
let suite: AdminSuite;
let roomId: string;

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  roomId = await createRoom(suite.admin, 'Last room');
});
afterAll(() => suite.close());

const staffBooking = (slotId: string, json: Record<string, unknown>) =>
  suite.admin.request('POST', `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`, { json });

describe('a slot on the last date there is', () => {
  it('takes staff bookings with and without an address; the personal data goes the day after', async () => {
    const slotId = await createSlot(suite.admin, roomId, LAST, '09:00', '10:00', 1);
    const withAddress = await staffBooking(slotId, {
      salutation: 'MS',
      firstName: 'Lena',
      lastName: 'Leserin',
      accessibility: false,
      email: 'lena@example.at',
      language: 'de',
    });
    expect(withAddress.status).toBe(201);
    const { ownerId } = (await withAddress.json()) as { ownerId: string };
    const walkIn = await staffBooking(slotId, {
      firstName: 'Walter',
      lastName: 'Gast',
      language: 'de',
      confirmOverbooking: true,
    });
    expect(walkIn.status).toBe(201);
    const { rows } = await suite.db.pool.query<{ erase_after: string }>(
      'SELECT erase_after::text FROM personal_data WHERE owner_id = $1',
      [ownerId],
    );
    expect(rows).toEqual([{ erase_after: '10000-01-01' }]);
  });
});

describe('a period that ends on the last date there is', () => {
  it('is measured by its days: a closure and its preview, and the visitor calendar', async () => {
    const preview = await suite.admin.get(
      `/api/admin/closures/preview?fromDate=9999-12-30&untilDate=${LAST}`,
    );
    expect(preview.status).toBe(200);
    expect(await preview.json()).toMatchObject({ slots: 1, closed: 0 });
    const closed = await suite.admin.request('POST', '/api/admin/closures', {
      json: { fromDate: '9999-12-30', untilDate: LAST, reason: 'Jahrtausendwende' },
    });
    expect(closed.status).toBe(200);
    expect(await closed.json()).toMatchObject({ closedSlots: 1 });
    // The visitor's calendar reads at most 400 days at once.
    for (const [from, status] of [
      ['9999-12-01', 200],
      ['9998-11-26', 200],
      ['9998-11-25', 400],
    ] as const)
      for (const part of ['booking', 'calendar'])
        expect(
          (await suite.admin.get(`/api/rooms/${roomId}/${part}?fromDate=${from}&untilDate=${LAST}`))
            .status,
          `${part} from ${from}`,
        ).toBe(status);
  });
});
