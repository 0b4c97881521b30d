// Over 300 lines: one file per API area; the cases share one app and database (with small import
// limits).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldHolidays } from '@rr/domain';
import { asStreamEvents, HOLIDAYS_STREAM, type HolidayEvent } from '@rr/events';
import { ManualClock, migrate } from '@rr/platform';
import { SCHEMA_MIGRATION_DIRS } from '@rr/server/schema';
import type { TestDatabase } from '../support/db.ts';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom } from '../support/fixtures.ts';

// Monday 23 Nov 2026 in Vienna: the import window is 2025-01-01..2031-12-31 (one year back, five
// ahead). The import limits are small here, so the tests can cross them.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const IMPORT_LIMITS = {
  HOLIDAY_IMPORT_MAX_EVENTS: '20',
  HOLIDAY_IMPORT_MAX_OCCURRENCES: '400',
  HOLIDAY_IMPORT_MAX_DAYS: '100',
};

let db: TestDatabase;
let admin: Client;

type Holiday = { id: string; version: number; name: string; description?: string; date: string };
const events = async () =>
  Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
const year = async (y: number) =>
  (await (
    await admin.get(`/api/admin/holidays?fromDate=${y}-01-01&untilDate=${y}-12-31&limit=999`)
  ).json()) as { content: Holiday[]; totalCount: number };

/** An iCalendar file the way real publishers write them: CRLF, folded lines, all-day and multi-day events. */
function calendar(events: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Reading rooms tests//EN',
    'CALSCALE:GREGORIAN',
    ...events,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
const allDay = (uid: string, start: string, end: string, summary: string, description?: string) =>
  [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:20260101T000000Z`,
    `DTSTART;VALUE=DATE:${start}`,
    `DTEND;VALUE=DATE:${end}`,
    `SUMMARY:${summary}`,
    ...(description ? [`DESCRIPTION:${description}`] : []),
    'END:VEVENT',
  ].join('\r\n');

function upload(
  text: string | Buffer,
  filename = 'holidays.ics',
  type = 'text/calendar',
): FormData {
  const f = new FormData();
  f.append(
    'file',
    new Blob([typeof text === 'string' ? text : new Uint8Array(text)], { type }),
    filename,
  );
  return f;
}

let suite: AdminSuite;
beforeAll(async () => {
  suite = await openAdminSuite(clock, { env: IMPORT_LIMITS });
  ({ db, admin } = suite);
});
afterAll(async () => {
  await suite.close();
});

describe('holiday CRUD', () => {
  it('creates, lists by year, searches, updates with version, deletes', async () => {
    const created = await admin.request('POST', '/api/admin/holidays', {
      json: { name: 'Nationalfeiertag', description: '', date: '2026-10-26' },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await admin.request('POST', '/api/admin/holidays', {
      json: { name: 'Allerheiligen', description: 'All Saints', date: '2026-11-01' },
    });
    await admin.request('POST', '/api/admin/holidays', {
      json: { name: 'Neujahr', date: '2027-01-01' },
    });
    const y2026 = await year(2026);
    expect(y2026.content.map((h) => h.name)).toEqual(['Nationalfeiertag', 'Allerheiligen']);
    expect(y2026.content[0]).not.toHaveProperty('description');
    expect(y2026.content[1]!.description).toBe('All Saints');
    const search = (await (await admin.get('/api/admin/holidays?searchTerm=saints')).json()) as {
      content: Holiday[];
    };
    expect(search.content.map((h) => h.name)).toEqual(['Allerheiligen']);
    const sorted = (await (await admin.get('/api/admin/holidays?sort=name:ASC')).json()) as {
      content: Holiday[];
    };
    expect(sorted.content.map((h) => h.name)).toEqual([
      'Allerheiligen',
      'Nationalfeiertag',
      'Neujahr',
    ]);

    const one = (await (await admin.get(`/api/admin/holidays/${id}`)).json()) as Holiday;
    expect(one).toMatchObject({ id, version: 1, name: 'Nationalfeiertag', date: '2026-10-26' });
    const upd = await admin.request('PUT', `/api/admin/holidays/${id}`, {
      json: {
        name: 'Nationalfeiertag Österreich',
        description: 'Staatsfeiertag',
        date: '2026-10-26',
        version: 1,
      },
    });
    expect(upd.status).toBe(200);
    expect(((await upd.json()) as { version: number }).version).toBe(2);
    const stale = await admin.request('PUT', `/api/admin/holidays/${id}`, {
      json: { name: 'x', date: '2026-10-26', version: 1 },
    });
    expect(stale.status).toBe(409);
    expect(await (await admin.get(`/api/admin/holidays/${id}`)).json()).toMatchObject({
      version: 2,
      description: 'Staatsfeiertag',
    });
    expect((await admin.request('DELETE', `/api/admin/holidays/${id}`)).status).toBe(200);
    expect((await admin.get(`/api/admin/holidays/${id}`)).status).toBe(404);
    expect((await admin.request('DELETE', `/api/admin/holidays/${id}`)).status).toBe(404);
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['name missing', { name: ' ' }, 'name', 'Value is required'],
    ['name too long', { name: 'n'.repeat(101) }, 'name', 'The maximum length allowed is 100'],
    [
      'description too long',
      { description: 'd'.repeat(501) },
      'description',
      'The maximum length allowed is 500',
    ],
    ['date missing', { date: undefined }, 'date', 'Value is required'],
    ['date invalid', { date: '2026-13-01' }, 'date', 'Select a valid date'],
  ];
  for (const [title, change, field, message] of invalid) {
    it(`refuses: ${title}`, async () => {
      const before = await events();
      const r = await admin.request('POST', '/api/admin/holidays', {
        json: { name: 'Valid', date: '2026-05-01', ...change },
      });
      expect(r.status).toBe(400);
      const body = (await r.json()) as { errors: { field: string; message: string }[] };
      expect(body.errors.find((e) => e.field === field)?.message).toBe(message);
      expect(await events()).toBe(before);
    });
  }
});

describe('iCal import', () => {
  const file = calendar([
    allDay(
      'ny-2030@test',
      '20300101',
      '20300102',
      'Neujahr',
      "New Year's Day - Gesetzlicher Feiertag",
    ),
    // A folded line (continuation starts with a space) and a multi-day event (DTEND exclusive).
    [
      'BEGIN:VEVENT',
      'UID:xmas-break-2030@test',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;VALUE=DATE:20301224',
      'DTEND;VALUE=DATE:20301227',
      'SUMMARY:Weihnachts',
      ' ferien',
      'END:VEVENT',
    ].join('\r\n'),
    // A timed event is not a holiday.
    [
      'BEGIN:VEVENT',
      'UID:meeting@test',
      'DTSTAMP:20260101T000000Z',
      'DTSTART:20300315T100000Z',
      'DTEND:20300315T110000Z',
      'SUMMARY:Staff meeting',
      'END:VEVENT',
    ].join('\r\n'),
  ]);

  it('expands multi-day events, unfolds lines, skips timed events, and does not duplicate on re-import', async () => {
    const r = await admin.request('POST', '/api/admin/holidays/ical', { form: upload(file) });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ imported: 4, skipped: 1 });
    const y = await year(2030);
    expect(y.content.map((h) => [h.date, h.name])).toEqual([
      ['2030-01-01', 'Neujahr'],
      ['2030-12-24', 'Weihnachtsferien'],
      ['2030-12-25', 'Weihnachtsferien'],
      ['2030-12-26', 'Weihnachtsferien'],
    ]);
    expect(y.content[0]!.description).toBe("New Year's Day - Gesetzlicher Feiertag");
    const again = await admin.request('POST', '/api/admin/holidays/ical', { form: upload(file) });
    expect(await again.json()).toMatchObject({
      imported: 0,
      skipped: 5,
      duplicates: 4,
      ignored: 1,
      outOfWindow: 0,
    });
    expect((await year(2030)).totalCount).toBe(4);
  });

  it('accepts LF line ends and yearly recurrences (bounded)', async () => {
    const lf = calendar([
      [
        'BEGIN:VEVENT',
        'UID:may@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;VALUE=DATE:20290501',
        'DTEND;VALUE=DATE:20290502',
        'RRULE:FREQ=YEARLY;COUNT=3',
        'SUMMARY:Staatsfeiertag',
        'END:VEVENT',
      ].join('\r\n'),
    ]).replace(/\r\n/g, '\n');
    const r = await admin.request('POST', '/api/admin/holidays/ical', { form: upload(lf) });
    expect(await r.json()).toMatchObject({ imported: 3 });
    for (const y of [2029, 2030, 2031])
      expect(
        (await year(y)).content.filter((h) => h.name === 'Staatsfeiertag').map((h) => h.date),
      ).toEqual([`${y}-05-01`]);
  });

  it('refuses a file that is not iCal, one over 5 MB, and a missing file; stores nothing', async () => {
    const before = await events();
    const notIcal = await admin.request('POST', '/api/admin/holidays/ical', {
      form: upload('just some text, no calendar'),
    });
    expect(notIcal.status).toBe(400);
    expect(((await notIcal.json()) as { error: string }).error).toBe('calendar__invalid_file');
    const png = await admin.request('POST', '/api/admin/holidays/ical', {
      form: upload(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'x.png', 'image/png'),
    });
    expect(png.status).toBe(400);
    const big =
      calendar([allDay('big@test', '20350101', '20350102', 'Big', 'x'.repeat(100))]) +
      ' '.repeat(5 * 1024 * 1024);
    const tooBig = await admin.request('POST', '/api/admin/holidays/ical', { form: upload(big) });
    expect(tooBig.status).toBe(400);
    expect(((await tooBig.json()) as { error: string }).error).toBe('calendar__too_large');
    const none = await admin.request('POST', '/api/admin/holidays/ical', { form: new FormData() });
    expect(none.status).toBe(400);
    expect(await events()).toBe(before);
  });

  const post = (text: string) =>
    admin.request('POST', '/api/admin/holidays/ical', { form: upload(text) });
  const series = (uid: string, start: string, rule: string, summary: string, end?: string) =>
    [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `DTSTART;VALUE=DATE:${start}`,
      ...(end ? [`DTEND;VALUE=DATE:${end}`] : []),
      `RRULE:${rule}`,
      `SUMMARY:${summary}`,
      'END:VEVENT',
    ].join('\r\n');

  it('imports the window of years around today and reports the days outside it', async () => {
    const r = await post(
      calendar([
        allDay('edge@test', '20241231', '20250102', 'Jahreswechsel'), // one day before, one in
        allDay('far@test', '20320101', '20320102', 'Zu spät'),
        series('open@test', '20310601', 'FREQ=YEARLY', 'Sommerschluss'), // no end
      ]),
    );
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      imported: 2,
      skipped: 3,
      duplicates: 0,
      outOfWindow: 3,
      ignored: 0,
      window: { from: '2025-01-01', until: '2031-12-31' },
    });
    expect((await year(2025)).content.map((h) => h.name)).toContain('Jahreswechsel');
    expect((await year(2024)).content).toEqual([]);
    expect((await year(2031)).content.map((h) => h.date)).toContain('2031-06-01');
  });

  it('refuses files over the limits with a 400 naming the limit, and stores nothing', async () => {
    const before = await events();
    const refused = async (text: string) => {
      const r = await post(text);
      expect(r.status).toBe(400);
      return (await r.json()) as { error: string; payload: string[] };
    };
    const many = calendar(
      Array.from({ length: 21 }, (_, i) => allDay(`m${i}@test`, '20270301', '20270302', `M${i}`)),
    );
    expect(await refused(many)).toMatchObject({
      error: 'calendar__too_many_events',
      payload: ['20'],
    });
    // The amplification: a daily series whose every occurrence is a month long.
    const amplified = calendar([
      series('amp@test', '20270101', 'FREQ=DAILY;COUNT=200', 'Amp', '20270201'),
    ]);
    expect(await refused(amplified)).toMatchObject({
      error: 'calendar__too_many_days',
      payload: ['100'],
    });
    // A daily series since 2020: reading up to the window costs more occurrences than allowed.
    const old = calendar([series('old@test', '20200101', 'FREQ=DAILY', 'Alt')]);
    expect(await refused(old)).toMatchObject({
      error: 'calendar__too_many_occurrences',
      payload: ['400'],
    });
    expect(await events()).toBe(before);
  });
});

describe('holiday state of the write side', () => {
  type Row = {
    holiday_id: string;
    date: string;
    name: string;
    description: string | null;
    version: number;
  };
  const rows = async () =>
    (
      await db.pool.query<Row>(
        `SELECT holiday_id::text AS holiday_id, to_char(date, 'YYYY-MM-DD') AS date, name, description, version
           FROM holiday_state ORDER BY holiday_id`,
      )
    ).rows;

  it('is the fold of the holidays stream, and migration 018 builds it from the stream', async () => {
    // A history with every kind of change on top of the imports above.
    const a = (await (
      await admin.request('POST', '/api/admin/holidays', {
        json: { name: 'Tag A', date: '2027-04-01' },
      })
    ).json()) as { id: string };
    const b = (await (
      await admin.request('POST', '/api/admin/holidays', {
        json: { name: 'Tag B', description: 'B', date: '2027-04-02' },
      })
    ).json()) as { id: string };
    for (const version of [1, 2])
      expect(
        (
          await admin.request('PUT', `/api/admin/holidays/${a.id}`, {
            json: { name: `Tag A${version}`, date: '2027-04-03', version },
          })
        ).status,
      ).toBe(200);
    expect((await admin.request('DELETE', `/api/admin/holidays/${b.id}`)).status).toBe(200);

    const { events: stream } = await db.store.readStream(HOLIDAYS_STREAM);
    const folded = [...foldHolidays(asStreamEvents<HolidayEvent>(stream)).values()]
      .map((h) => ({
        holiday_id: h.id,
        date: h.date,
        name: h.name,
        description: h.description ?? null,
        version: h.version,
      }))
      .sort((x, y) => (x.holiday_id < y.holiday_id ? -1 : 1));
    const live = await rows();
    expect(live).toEqual(folded);
    expect(live.find((r) => r.holiday_id === a.id)).toMatchObject({ name: 'Tag A2', version: 3 });
    expect(live.find((r) => r.holiday_id === b.id)).toBeUndefined();

    // An installation from before 018: the table is made from the stream alone (and given the
    // holidays' sites by 079).
    await db.pool.query('DROP TABLE holiday_state');
    await db.pool.query(
      `DELETE FROM knex_migrations WHERE name IN ('018_holiday_state', '079_site_holidays_windows')`,
    );
    expect(await migrate(db.pool, SCHEMA_MIGRATION_DIRS)).toEqual([
      '018_holiday_state',
      '079_site_holidays_windows',
    ]);
    expect(await rows()).toEqual(live);
  });
});

describe("the visitor calendar's holidays and booking window (GET /rooms/{id}/calendar)", () => {
  it('names the holidays of the range and ends the window after the working days around them', async () => {
    const id = await createRoom(admin, 'Kalenderraum', {
      openStartValue: 0,
      openEndValue: 3,
      openEndType: 'WORKING_DAY',
    });
    // The admin's client waits for the read model to reach its own writes (the route is public).
    const calendar = async (from: string, until: string) =>
      admin.get(`/api/rooms/${id}/calendar?fromDate=${from}&untilDate=${until}`);

    // Monday 23 Nov: three working days are Tue 24, Wed 25 and Thu 26.
    const before = await calendar('2026-11-20', '2026-11-30');
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({
      bookableFrom: '2026-11-23',
      bookableUntil: '2026-11-26',
      holidays: [],
      closures: [],
      openDays: [],
      // Each day after the window, with the first day whose window reaches it (three working
      // days before it).
      laterDays: [
        { date: '2026-11-27', bookableFrom: '2026-11-24' },
        { date: '2026-11-28', bookableFrom: '2026-11-25' },
        { date: '2026-11-29', bookableFrom: '2026-11-25' },
        { date: '2026-11-30', bookableFrom: '2026-11-25' },
      ],
    });

    const holiday = await admin.request('POST', '/api/admin/holidays', {
      json: { name: 'Lesesaaltag', date: '2026-11-25' },
    });
    expect(holiday.status).toBe(201);
    const after = await calendar('2026-11-20', '2026-11-30');
    expect(await after.json()).toEqual({
      bookableFrom: '2026-11-23',
      bookableUntil: '2026-11-27',
      holidays: [{ date: '2026-11-25', name: 'Lesesaaltag' }],
      closures: [],
      openDays: [],
      // The holiday is no working day: the days after the window open a day earlier.
      laterDays: [
        { date: '2026-11-28', bookableFrom: '2026-11-24' },
        { date: '2026-11-29', bookableFrom: '2026-11-24' },
        { date: '2026-11-30', bookableFrom: '2026-11-24' },
      ],
    });
    const outside = (await (await calendar('2026-11-26', '2026-11-30')).json()) as {
      holidays: unknown[];
    };
    expect(outside.holidays).toEqual([]);

    expect((await calendar('2026-11-30', '2026-11-20')).status).toBe(400);
    const unknown = await new Client(suite.app.baseUrl).get(
      `/api/rooms/00000000-0000-4000-8000-000000000000/calendar?fromDate=2026-11-01&untilDate=2026-11-30`,
    );
    expect(unknown.status).toBe(404);
  });
});
