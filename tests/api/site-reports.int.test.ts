import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { addUser, Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot } from '../support/fixtures.ts';
import { createJura } from '../support/site-roles.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Reports and insights per site and across sites (docs/product.md#sites): the site filter
 * `site={slug}` of the insights (and their CSVs) and the reservations list, refused (403) for a
 * site not among a site-limited user's sites, and the column "Standort" of every CSV export of
 * reports, insights and reservations, only in a library of several sites.
 */

// Monday 23 Nov 2026, 10:00 in Vienna. Rooms open from today + 2 days.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const DAY = '2026-12-01';
const PERIOD = `fromDate=${DAY}&untilDate=2026-12-31`;

let suite: AdminSuite;
let admin: Client;
let juraReports: Client;
let mainRoom: string;
let lawRoom: string;

/** A CSV's lines, split into cells (UTF-8 with BOM, semicolons, CRLF). */
async function csv(c: Client, path: string): Promise<string[][]> {
  const res = await c.get(path);
  expect(res.status, path).toBe(200);
  return (await res.text())
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(';').map((cell) => cell.replace(/^"|"$/g, '')));
}

type Insights = { weeks: { bookedSeats: number }[] };
async function bookedSeats(c: Client, query: string): Promise<number> {
  const res = await c.get(`/api/admin/insights?${PERIOD}${query}`);
  expect(res.status, query).toBe(200);
  return ((await res.json()) as Insights).weeks.reduce((n, w) => n + w.bookedSeats, 0);
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, { env: { LIBRARY_NAME: 'Hauptbibliothek' } });
  admin = suite.admin;
  mainRoom = await createRoom(admin, 'Hauptlesesaal');
  const mainSlot = await createSlot(admin, mainRoom, DAY, '09:00', '10:00', 5);
  await bookAsNewVisitor(suite.app.baseUrl, [mainSlot]);
  await addUser(suite.db, 'jura-reports', 'correct horse', ['reports@jura']);
});
afterAll(async () => {
  await suite?.close();
});

describe('reports and insights per site', () => {
  it('keeps every CSV without the site while the library has one site', async () => {
    await waitFor(
      'the booking in the insights',
      async () => (await bookedSeats(admin, '')) === 1,
      budget(10_000),
    );
    for (const path of [
      `/api/admin/tickets/export.csv?fromDate=${DAY}`,
      `/api/admin/insights.csv?part=weeks&${PERIOD}`,
      `/api/admin/tickets/report.csv?roomId=${mainRoom}&${PERIOD}&status=BOOKED`,
      `/api/admin/rooms/${mainRoom}/daily-report.csv?date=${DAY}`,
    ])
      expect((await csv(admin, path))[0], path).not.toContain('Standort');
  });

  it('filters the insights and the reservations by site, with the site in each CSV', async () => {
    await createJura(admin);
    const jura = (await (await admin.get('/api/admin/sites')).json()) as {
      content: { id: string; slug: string }[];
    };
    const siteId = jura.content.find((s) => s.slug === 'jura')!.id;
    lawRoom = await createRoom(admin, 'Jura-Lesesaal', { siteId });
    const lawSlot = await createSlot(admin, lawRoom, DAY, '11:00', '12:00', 5);
    await bookAsNewVisitor(suite.app.baseUrl, [lawSlot]);
    await bookAsNewVisitor(suite.app.baseUrl, [lawSlot]);
    await waitFor(
      'the law library’s bookings in the insights',
      async () => (await bookedSeats(admin, '')) === 3,
      budget(10_000),
    );
    expect(await bookedSeats(admin, '&site=jura')).toBe(2);
    expect(await bookedSeats(admin, '&site=bibliothek')).toBe(1);
    // A slug is read as the sites store it; a slug no site has counts nothing.
    expect(await bookedSeats(admin, '&site=%20JURA')).toBe(2);
    expect(await bookedSeats(admin, '&site=nirgends')).toBe(0);
    // The room and the site together: the room's figures when it is of the site, else none.
    expect(await bookedSeats(admin, `&site=jura&roomId=${lawRoom}`)).toBe(2);
    expect(await bookedSeats(admin, `&site=jura&roomId=${mainRoom}`)).toBe(0);

    // The reservations list by site.
    const list = await admin.get(`/api/admin/tickets?fromDate=${DAY}&site=jura`);
    expect(list.status).toBe(200);
    const page = (await list.json()) as { content: { roomName: string }[]; totalCount: number };
    expect(page.totalCount).toBe(2);
    expect(page.content.map((t) => t.roomName)).toEqual(['Jura-Lesesaal', 'Jura-Lesesaal']);

    // Every CSV names the site last ("Standort"), as the seat's "Platz" came where it applies.
    const tickets = await csv(admin, `/api/admin/tickets/export.csv?fromDate=${DAY}&sort=room:ASC`);
    expect(tickets[0]!.at(-1)).toBe('Standort');
    expect(tickets.slice(1).map((r) => [r[0], r.at(-1)])).toEqual([
      ['Hauptlesesaal', 'Hauptbibliothek'],
      ['Jura-Lesesaal', 'Juridicum'],
      ['Jura-Lesesaal', 'Juridicum'],
    ]);
    const juraOnly = await csv(admin, `/api/admin/tickets/export.csv?fromDate=${DAY}&site=jura`);
    expect(juraOnly.slice(1).map((r) => r.at(-1))).toEqual(['Juridicum', 'Juridicum']);

    const weeks = await csv(admin, `/api/admin/insights.csv?part=weeks&${PERIOD}&site=jura`);
    expect(weeks[0]!.at(-1)).toBe('Standort');
    expect(weeks.slice(1).every((r) => r.at(-1) === 'Juridicum')).toBe(true);
    const all = await csv(admin, `/api/admin/insights.csv?part=demand&${PERIOD}`);
    expect(all[1]!.at(-1)).toBe('Hauptbibliothek, Juridicum');
    const ofRoom = await csv(
      admin,
      `/api/admin/insights.csv?part=demand&${PERIOD}&roomId=${mainRoom}`,
    );
    expect(ofRoom[1]!.at(-1)).toBe('Hauptbibliothek');

    const occupancy = await csv(
      admin,
      `/api/admin/tickets/report.csv?roomId=${lawRoom}&${PERIOD}&status=BOOKED`,
    );
    expect(occupancy[0]!.at(-1)).toBe('Standort');
    expect(occupancy[1]!.at(-1)).toBe('Juridicum');
    const daily = await csv(admin, `/api/admin/rooms/${lawRoom}/daily-report.csv?date=${DAY}`);
    expect(daily[0]!.at(-1)).toBe('Standort');
    expect(daily.slice(1).map((r) => r.at(-1))).toEqual(['Juridicum', 'Juridicum']);
  });

  it('refuses a site not among a site-limited user’s sites (403), and filters to hers', async () => {
    juraReports = new Client(suite.app.baseUrl);
    expect((await juraReports.login('jura-reports', 'correct horse')).status).toBe(200);
    for (const path of [
      `/api/admin/insights?${PERIOD}&site=bibliothek`,
      `/api/admin/insights.csv?part=weeks&${PERIOD}&site=bibliothek`,
      `/api/admin/insights?${PERIOD}&site=nirgends`,
      `/api/admin/tickets?fromDate=${DAY}&site=bibliothek`,
      `/api/admin/tickets/export.csv?fromDate=${DAY}&site=bibliothek`,
    ]) {
      const res = await juraReports.get(path);
      expect(res.status, path).toBe(403);
    }
    // Her site, and without a filter: all of hers, which is the same.
    expect(await bookedSeats(juraReports, '&site=jura')).toBe(2);
    expect(await bookedSeats(juraReports, '')).toBe(2);
    const mine = await csv(juraReports, `/api/admin/tickets/export.csv?fromDate=${DAY}`);
    expect(mine.slice(1).map((r) => [r[0], r.at(-1)])).toEqual([
      ['Jura-Lesesaal', 'Juridicum'],
      ['Jura-Lesesaal', 'Juridicum'],
    ]);
    const hers = await csv(juraReports, `/api/admin/insights.csv?part=demand&${PERIOD}`);
    expect(hers[1]!.at(-1)).toBe('Juridicum');
  });
});
