import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot, OPEN_FROM_TODAY } from '../support/fixtures.ts';

/**
 * Lists sorted by a name sort in German order whatever the database's collation (the test
 * databases are made with the machine's, C.UTF-8 here, which puts umlauts after "Z"): the
 * reservations list by name in both directions and page by page, the check-in list, the daily
 * report, the rooms and the holidays by name.
 */
const BASE = new Date('2026-11-23T08:00:00Z'); // 09:00 in Vienna
const clock = new ManualClock(BASE);
const TODAY = BASE.toISOString().slice(0, 10);

/** Last names as a visitor gives them; the expected order is German's (DIN 5007, variant 1). */
const NAMES = ['Zach', 'Öhlinger', 'ohm', 'Oberer', 'Ärztin', 'Abel', 'Muller', 'Mueller'];
const GERMAN = ['Abel', 'Ärztin', 'Mueller', 'Muller', 'Oberer', 'Öhlinger', 'ohm', 'Zach'];

let suite: AdminSuite;
let roomId: string;
let slotId: string;

async function getJson<T>(path: string): Promise<T> {
  const res = await suite.admin.get(path);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
}

const listed = async (query: string) =>
  (
    await getJson<{ content: { lastName: string | null; roomId: string }[] }>(
      `/api/admin/tickets?fromDate=${TODAY}&roomId=${roomId}&${query}`,
    )
  ).content.map((t) => t.lastName);

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  roomId = await createRoom(suite.admin, 'Öffentlicher Lesesaal', OPEN_FROM_TODAY);
  const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 15 },
  });
  expect(services.status, await services.clone().text()).toBe(200);
  slotId = await createSlot(suite.admin, roomId, TODAY, '14:00', '16:00', 10);
  // First names and addresses the search below does not match.
  for (const [i, lastName] of NAMES.entries())
    await bookAsNewVisitor(suite.app.baseUrl, [slotId], 'de', {
      lastName,
      firstName: 'Lena',
      email: `${i}@lesesaal.example`,
    });
});
afterAll(() => suite?.close());

describe('names in German order', () => {
  it('in the reservations list by name, both ways and page by page', async () => {
    expect(await listed('sort=name:ASC')).toEqual(GERMAN);
    expect(await listed('')).toEqual(GERMAN);
    expect(await listed('sort=name:DESC')).toEqual([...GERMAN].reverse());
    const pages = [];
    for (let page = 0; page < 3; page++)
      pages.push(...(await listed(`limit=3&offset=${page * 3}`)));
    expect(pages).toEqual(GERMAN);
    // A search sorts its matches whole, in the same order.
    expect(await listed('searchTerm=er&sort=name:ASC')).toEqual(
      GERMAN.filter((n) => n.includes('er')),
    );
  });

  it('in the check-in list and the daily report', async () => {
    const checkIn = await getJson<{ rooms: { roomId: string; tickets: { lastName: string }[] }[] }>(
      '/api/admin/check-in',
    );
    expect(checkIn.rooms.find((r) => r.roomId === roomId)!.tickets.map((t) => t.lastName)).toEqual(
      GERMAN,
    );
    const report = await getJson<{ content: { lastName: string }[] }>(
      `/api/admin/rooms/${roomId}/daily-report?date=${TODAY}`,
    );
    expect(report.content.map((t) => t.lastName)).toEqual(GERMAN);
  });

  it('in the rooms and the holidays by name', async () => {
    const others = ['Zeitschriftensaal', 'Ärztebibliothek', 'Orangerie'];
    for (const name of others) await createRoom(suite.admin, name, OPEN_FROM_TODAY);
    const rooms = await getJson<{ content: { name: string }[] }>('/api/admin/rooms?sort=name:ASC');
    expect(rooms.content.map((r) => r.name)).toEqual([
      'Ärztebibliothek',
      'Öffentlicher Lesesaal',
      'Orangerie',
      'Zeitschriftensaal',
    ]);
    for (const [i, name] of ['Zusatztag', 'Österreichtag', 'Ostertag', 'Allerheiligen'].entries()) {
      const res = await suite.admin.request('POST', '/api/admin/holidays', {
        json: { name, date: addDays(TODAY, 40 + i) },
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const holidays = await getJson<{ content: { name: string }[] }>(
      '/api/admin/holidays?sort=name:ASC',
    );
    expect(holidays.content.map((h) => h.name)).toEqual([
      'Allerheiligen',
      'Österreichtag',
      'Ostertag',
      'Zusatztag',
    ]);
  });
});
