import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, isWeekend, localDateTime } from '@rr/domain';
import { defaultTimeZone, ManualClock } from '@rr/platform';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { createJura, FIRST_SITE_ID } from '../support/site-roles.ts';

/**
 * Holidays, closures and the booking window per site (docs/product.md#sites): a holiday of one
 * site applies to that site's rooms only; the admin of a branch (`admin@jura`) changes her
 * site's holidays and closes her site's rooms, never the whole system's or another site's; a site
 * sets the booking window of its rooms that set none.
 */
let db: TestDatabase;
let app: TestApp;
let boss: Client;
let branch: Client;
let juraId: string;
// A Monday: the working days ahead are plain to count.
const clock = new ManualClock(new Date('2031-03-03T08:00:00Z'));
const today = localDateTime(clock.now(), defaultTimeZone).date;
/** The n-th working day (Monday to Friday) after today, without holidays. */
const workingDay = (n: number) => {
  let d = today;
  for (let left = n; left > 0;) {
    d = addDays(d, 1);
    if (!isWeekend(d)) left -= 1;
  }
  return d;
};
/** Open from today until the third working day. */
const SHORT_WINDOW = {
  openStartValue: 0,
  openStartType: 'DAY',
  openEndValue: 3,
  openEndType: 'WORKING_DAY',
} as const;
let mainRoom: string;
let juraRoom: string;

beforeAll(async () => {
  db = await createTestDatabase(clock);
  app = await startTestApp(db, clock);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  boss = new Client(app.baseUrl);
  expect((await boss.login('boss', 'correct horse')).status).toBe(200);
  juraId = await createJura(boss);
  mainRoom = await createRoom(boss, 'Lesesaal Haupthaus', SHORT_WINDOW);
  juraRoom = await createRoom(boss, 'Lesesaal Juridicum', { ...SHORT_WINDOW, siteId: juraId });
  await addUser(db, 'branch', 'correct horse', ['admin@jura']);
  branch = new Client(app.baseUrl);
  expect((await branch.login('branch', 'correct horse')).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** The room's calendar, read by `reader` (a read waits for the reader's own writes). */
const calendarOf = async (roomId: string, reader = boss) => {
  const res = await reader.get(
    `/api/rooms/${roomId}/calendar?fromDate=${today}&untilDate=${addDays(today, 30)}`,
  );
  expect(res.status).toBe(200);
  return (await res.json()) as {
    bookableFrom: string;
    bookableUntil: string;
    holidays: { date: string; name: string }[];
  };
};

const holiday = (siteId: string | undefined, date: string, name = 'Fakultätstag') => ({
  name,
  date,
  ...(siteId ? { siteId } : {}),
});

describe('holidays of one site', () => {
  it("shift the working days of that site's rooms only, in the calendar and in the cart", async () => {
    expect((await calendarOf(juraRoom)).bookableUntil).toBe(workingDay(3));
    // A slot on the fourth working day: outside the window until a holiday of its site comes.
    const slot = await createSlot(boss, juraRoom, workingDay(4), '10:00', '12:00', 5);
    const tooEarly = await new Client(app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: slot },
    });
    expect(tooEarly.status).toBe(409);

    const created = await branch.request('POST', '/api/admin/holidays', {
      json: holiday(juraId, workingDay(1)),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const jura = await calendarOf(juraRoom, branch);
    expect(jura.bookableUntil).toBe(workingDay(4));
    expect(jura.holidays.map((h) => h.name)).toEqual(['Fakultätstag']);
    const main = await calendarOf(mainRoom);
    expect(main.bookableUntil).toBe(workingDay(3));
    expect(main.holidays).toEqual([]);

    const booked = await new Client(app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: slot },
    });
    expect(booked.status, await booked.clone().text()).toBe(201);

    const listed = await boss.get(`/api/admin/holidays?siteId=${juraId}`);
    expect(
      ((await listed.json()) as { content: { id: string; siteId: string | null }[] }).content,
    ).toEqual([expect.objectContaining({ id, siteId: juraId })]);
    const ofMain = await boss.get(`/api/admin/holidays?siteId=${FIRST_SITE_ID}`);
    expect(((await ofMain.json()) as { content: unknown[] }).content).toEqual([]);

    // Her own holiday she changes and deletes.
    const renamed = await branch.request('PUT', `/api/admin/holidays/${id}`, {
      json: { ...holiday(juraId, workingDay(1), 'Tag der Fakultät'), version: 1 },
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    expect((await branch.request('DELETE', `/api/admin/holidays/${id}`)).status).toBe(200);
    expect((await calendarOf(juraRoom, branch)).bookableUntil).toBe(workingDay(3));
  });

  it('of the whole system still apply to every site', async () => {
    const created = await boss.request('POST', '/api/admin/holidays', {
      json: holiday(undefined, workingDay(2), 'Landesfeiertag'),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await calendarOf(juraRoom)).bookableUntil).toBe(workingDay(4));
    expect((await calendarOf(mainRoom)).bookableUntil).toBe(workingDay(4));
    const one = await boss.get(`/api/admin/holidays/${id}`);
    expect(((await one.json()) as { siteId: string | null }).siteId).toBeNull();
    expect((await boss.request('DELETE', `/api/admin/holidays/${id}`)).status).toBe(200);
  });

  it("are skipped by a slot series of that site's rooms only", async () => {
    const created = await boss.request('POST', '/api/admin/holidays', {
      json: holiday(juraId, workingDay(7), 'Tag der Rechtswissenschaft'),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const series = {
      startTime: '08:00',
      endTime: '09:00',
      startDate: workingDay(6),
      repeatUntil: workingDay(8),
      daysOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'],
      includeHolidays: false,
      capacity: 5,
    };
    const datesOf = async (roomId: string) => {
      const made = await boss.request('POST', `/api/admin/rooms/${roomId}/timeslots`, {
        json: series,
      });
      expect(made.status, await made.clone().text()).toBe(201);
      const list = await boss.get(
        `/api/admin/rooms/${roomId}/timeslots?fromDate=${workingDay(6)}&untilDate=${workingDay(8)}`,
      );
      return ((await list.json()) as { content: { date: string; startTime: string }[] }).content
        .filter((s) => s.startTime === '08:00')
        .map((s) => s.date);
    };
    expect(await datesOf(juraRoom)).toEqual([workingDay(6), workingDay(8)]);
    expect(await datesOf(mainRoom)).toEqual([workingDay(6), workingDay(7), workingDay(8)]);
    expect((await boss.request('DELETE', `/api/admin/holidays/${id}`)).status).toBe(200);
  });

  it("refuse a branch admin the whole system's and another site's holidays (403)", async () => {
    const countBefore = await eventCount();
    for (const json of [holiday(undefined, workingDay(5)), holiday(FIRST_SITE_ID, workingDay(5))])
      expect((await branch.request('POST', '/api/admin/holidays', { json })).status).toBe(403);
    expect(
      (
        await branch.request('POST', '/api/admin/holidays', {
          json: { ...holiday(juraId, workingDay(5)), siteId: null },
        })
      ).status,
    ).toBe(403);
    expect(await eventCount()).toBe(countBefore);

    const system = await boss.request('POST', '/api/admin/holidays', {
      json: holiday(undefined, addDays(today, 60), 'Staatsfeiertag'),
    });
    const systemId = ((await system.json()) as { id: string }).id;
    const main = await boss.request('POST', '/api/admin/holidays', {
      json: holiday(FIRST_SITE_ID, addDays(today, 61), 'Haustag'),
    });
    const mainId = ((await main.json()) as { id: string }).id;
    const mine = await branch.request('POST', '/api/admin/holidays', {
      json: holiday(juraId, addDays(today, 62)),
    });
    const mineId = ((await mine.json()) as { id: string }).id;
    const before = await eventCount();
    for (const otherId of [systemId, mainId]) {
      const put = await branch.request('PUT', `/api/admin/holidays/${otherId}`, {
        json: { ...holiday(juraId, addDays(today, 61)), version: 1 },
      });
      expect(put.status).toBe(403);
      expect((await branch.request('DELETE', `/api/admin/holidays/${otherId}`)).status).toBe(403);
    }
    // Nor may she hand her own holiday to another site, or to every site.
    for (const siteId of [FIRST_SITE_ID, null]) {
      const put = await branch.request('PUT', `/api/admin/holidays/${mineId}`, {
        json: { ...holiday(juraId, addDays(today, 62)), siteId, version: 1 },
      });
      expect(put.status).toBe(403);
    }
    const upload = new FormData();
    upload.append(
      'file',
      new Blob(['BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'], { type: 'text/calendar' }),
      'f.ics',
    );
    expect(
      (await branch.request('POST', '/api/admin/holidays/ical', { form: upload })).status,
    ).toBe(403);
    expect(await eventCount()).toBe(before);
    // The all-sites admin may change any.
    const moved = await boss.request('PUT', `/api/admin/holidays/${mineId}`, {
      json: { ...holiday(FIRST_SITE_ID, addDays(today, 62)), version: 1 },
    });
    expect(moved.status).toBe(200);
  });

  it('are imported for one site with ?siteId=, by its admin too, and are duplicates per site', async () => {
    const day = addDays(today, 90).replaceAll('-', '');
    const next = addDays(today, 91).replaceAll('-', '');
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Reading rooms tests//EN',
      'BEGIN:VEVENT',
      'UID:fakultaet@test',
      'DTSTAMP:20260101T000000Z',
      `DTSTART;VALUE=DATE:${day}`,
      `DTEND;VALUE=DATE:${next}`,
      'SUMMARY:Dies academicus',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const upload = () => {
      const f = new FormData();
      f.append('file', new Blob([ics], { type: 'text/calendar' }), 'jura.ics');
      return f;
    };
    const refused = await branch.request(
      'POST',
      `/api/admin/holidays/ical?siteId=${FIRST_SITE_ID}`,
      { form: upload() },
    );
    expect(refused.status).toBe(403);
    const mine = await branch.request('POST', `/api/admin/holidays/ical?siteId=${juraId}`, {
      form: upload(),
    });
    expect(mine.status, await mine.clone().text()).toBe(200);
    expect(((await mine.json()) as { imported: number }).imported).toBe(1);
    // The same day and name for the whole system is no duplicate of the site's.
    const system = await boss.request('POST', '/api/admin/holidays/ical', { form: upload() });
    expect(((await system.json()) as { imported: number }).imported).toBe(1);
    const again = await branch.request('POST', `/api/admin/holidays/ical?siteId=${juraId}`, {
      form: upload(),
    });
    expect(((await again.json()) as { duplicates: number }).duplicates).toBe(1);
    const date = addDays(today, 90);
    const listed = await boss.get(`/api/admin/holidays?fromDate=${date}&untilDate=${date}`);
    const sites = ((await listed.json()) as { content: { siteId: string | null }[] }).content
      .map((h) => h.siteId)
      .sort();
    expect(sites).toEqual([juraId, null].sort());
  });

  it('must name a site that exists', async () => {
    const res = await boss.request('POST', '/api/admin/holidays', {
      json: holiday('5b0d1f3e-0000-4000-8000-00000000abcd', workingDay(5)),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; errors?: { field: string }[] };
    expect(body.error).toBe('validation__error');
    expect(body.errors?.map((e) => e.field)).toEqual(['siteId']);
    // An import names its site too, even a calendar without a holiday: refused, not "0 imported".
    const empty = () => {
      const f = new FormData();
      const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Reading rooms tests//EN'];
      f.append('file', new Blob([[...ics, 'END:VCALENDAR', ''].join('\r\n')]), 'leer.ics');
      return f;
    };
    const unknown = await boss.request(
      'POST',
      '/api/admin/holidays/ical?siteId=5b0d1f3e-0000-4000-8000-00000000abcd',
      { form: empty() },
    );
    expect(unknown.status, await unknown.clone().text()).toBe(400);
    expect(((await unknown.json()) as { errors?: { field: string }[] }).errors?.[0]?.field).toBe(
      'siteId',
    );
    const known = await boss.request('POST', `/api/admin/holidays/ical?siteId=${juraId}`, {
      form: empty(),
    });
    expect(known.status, await known.clone().text()).toBe(200);
    expect(((await known.json()) as { imported: number }).imported).toBe(0);
  });
});

describe('closures by the admin of a branch', () => {
  it("close all rooms of her sites, never another site's", async () => {
    const day = workingDay(2);
    const mainSlot = await createSlot(boss, mainRoom, day, '14:00', '16:00', 5);
    const juraSlot = await createSlot(boss, juraRoom, day, '14:00', '16:00', 5);
    const refused = await branch.request('POST', '/api/admin/closures', {
      json: { roomIds: [mainRoom], fromDate: day, untilDate: day, reason: 'Wasserschaden' },
    });
    expect(refused.status).toBe(403);
    const preview = await branch.get(
      `/api/admin/closures/preview?fromDate=${day}&untilDate=${day}`,
    );
    expect(preview.status).toBe(200);
    expect(((await preview.json()) as { slots: number }).slots).toBe(1);
    const closed = await branch.request('POST', '/api/admin/closures', {
      json: { fromDate: day, untilDate: day, reason: 'Wasserschaden' },
    });
    expect(closed.status, await closed.clone().text()).toBe(200);
    expect(((await closed.json()) as { closedSlots: number }).closedSlots).toBe(1);
    // Read first by her (her read waits for her closure), then the other site's by the boss.
    const slotOf = async (reader: Client, roomId: string, slotId: string) => {
      const res = await reader.get(
        `/api/admin/rooms/${roomId}/timeslots?fromDate=${day}&untilDate=${day}`,
      );
      const page = (await res.json()) as {
        content: { id: string; closedReason?: string | null }[];
      };
      return page.content.find((s) => s.id === slotId);
    };
    expect((await slotOf(branch, juraRoom, juraSlot))?.closedReason).toBe('Wasserschaden');
    expect((await slotOf(boss, mainRoom, mainSlot))?.closedReason).toBeNull();
  });
});

describe('the booking window of a site', () => {
  it('applies to its rooms that set none; a room sets its own; else 2 days and 30 working days', async () => {
    const site = (await (await boss.get(`/api/admin/sites/${juraId}`)).json()) as Record<
      string,
      unknown
    >;
    expect(site.openStart).toBeNull();
    const set = await boss.request('PUT', `/api/admin/sites/${juraId}`, {
      json: {
        name: site.name,
        slug: site.slug,
        contactEmail: site.contactEmail,
        openStartValue: 1,
        openStartType: 'DAY',
        openEndValue: 5,
        openEndType: 'DAY',
        version: site.version,
      },
    });
    expect(set.status, await set.clone().text()).toBe(200);
    const after = (await (await boss.get(`/api/admin/sites/${juraId}`)).json()) as Record<
      string,
      unknown
    >;
    expect(after.openEnd).toEqual({ type: 'DAY', value: 5 });

    const bare = {
      openStartValue: null,
      openStartType: null,
      openEndValue: null,
      openEndType: null,
    };
    const inherits = await createRoom(boss, 'Gruppenraum Juridicum', { ...bare, siteId: juraId });
    expect(await calendarOf(inherits)).toMatchObject({
      bookableFrom: addDays(today, 1),
      bookableUntil: addDays(today, 5),
    });
    const room = (await (await boss.get(`/api/admin/rooms/${inherits}`)).json()) as Record<
      string,
      unknown
    >;
    expect(room.openStart).toBeUndefined();
    // Its own end, the site's start.
    const own = await createRoom(boss, 'Kojen Juridicum', {
      openStartValue: null,
      openStartType: null,
      openEndValue: 9,
      openEndType: 'DAY',
      siteId: juraId,
    });
    expect(await calendarOf(own)).toMatchObject({
      bookableFrom: addDays(today, 1),
      bookableUntil: addDays(today, 9),
    });
    // A room of a site without a window: the product's default.
    const plain = await createRoom(boss, 'Gruppenraum Haupthaus', bare);
    expect((await calendarOf(plain)).bookableFrom).toBe(addDays(today, 2));

    // A slot of the inheriting room beyond the site's window is not open in the cart either.
    const late = await createSlot(boss, inherits, addDays(today, 6), '10:00', '12:00', 5);
    const add = await new Client(app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: late },
    });
    expect(add.status).toBe(409);
    const inside = await createSlot(boss, inherits, addDays(today, 5), '10:00', '12:00', 5);
    const ok = await new Client(app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: inside },
    });
    expect(ok.status, await ok.clone().text()).toBe(201);
  });

  it('wants a value and its type together', async () => {
    const res = await boss.request('POST', '/api/admin/sites', {
      json: {
        name: 'Fachbibliothek Medizin',
        slug: 'medizin',
        contactEmail: 'med@library.example',
        openEndValue: 5,
      },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors?: { field: string }[] };
    expect(body.errors?.map((e) => e.field)).toEqual(['openEndType']);
  });
});

async function eventCount(): Promise<number> {
  const r = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events');
  return Number(r.rows[0]!.n);
}
