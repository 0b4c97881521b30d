import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, createLogger, isWeekend, ManualClock, todayIn } from '@rr/platform';
import { demoHoliday, demoRooms, seedDemoData } from '../../server/src/seed.ts';
import { readModelNames } from '../../server/src/runtime.ts';
import { openAdminSuite, Client, type AdminSuite } from '../support/app.ts';
import { createRoom, testMailSender } from '../support/fixtures.ts';

const ZONE = 'Europe/Vienna';
// A Monday; the demo follows the clock, so its dates are derived from it below.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const today = todayIn(clock.now(), ZONE);
const logger = createLogger('silent');

interface Slot {
  id: string;
  date: string;
  startTime: string;
  capacity: number;
  ticketCount: number;
  failedRules: string[];
}

const seed = (suite: AdminSuite) =>
  seedDemoData(suite.app.deps, suite.app.config, logger, readModelNames);
const eventCount = async (suite: AdminSuite) =>
  Number((await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

describe('the demo seed on an empty database', () => {
  let suite: AdminSuite;
  let rooms: {
    id: string;
    name: string;
    description: string;
    nameEn?: string;
    descriptionEn?: string;
  }[];
  const visitor = () => new Client(suite.app.baseUrl);

  beforeAll(async () => {
    suite = await openAdminSuite(clock);
    const made = await seed(suite);
    expect(made).toMatchObject({ rooms: 3, holidays: 1, cancelled: 2 });
    expect(made!.timeSlots).toBeGreaterThan(150);
    expect(made!.bookings).toBeGreaterThan(50);
    rooms = ((await (await visitor().get('/api/rooms')).json()) as { content: typeof rooms })
      .content;
  });
  afterAll(async () => {
    await suite.close();
  });

  it('makes German rooms whose calendars have bookable slots for the next four weeks', async () => {
    expect(rooms.map((r) => [r.name, r.description])).toEqual(
      demoRooms.map((r) => [r.name, r.description]),
    );
    for (const r of rooms) expect(r.description).toMatch(/[äöüß]|Arbeitsplätze|Lesen/);
    // With English texts, which the English interface shows.
    expect(rooms.map((r) => [r.nameEn, r.descriptionEn])).toEqual(
      demoRooms.map((r) => [r.nameEn, r.descriptionEn]),
    );
    for (const r of rooms) expect(r.nameEn).toMatch(/^[A-Z][a-z]+ /);
    for (const room of rooms) {
      const slots = (await (
        await visitor().get(
          `/api/rooms/${room.id}/booking?fromDate=${today}&untilDate=${addDays(today, 28)}`,
        )
      ).json()) as Slot[];
      const bookable = slots.filter((s) => s.failedRules.length === 0);
      // Every week of the four has bookable slots, from two days ahead (the booking window).
      for (let week = 0; week < 4; week++) {
        const from = addDays(today, 7 * week);
        const until = addDays(from, 6);
        expect(
          bookable.some((s) => s.date >= from && s.date <= until),
          `${room.name}, week ${week + 1}`,
        ).toBe(true);
      }
      expect(bookable.every((s) => s.date >= addDays(today, 2))).toBe(true);
    }
  });

  it('has free, nearly full, fully booked and empty days, and an overbooked slot', async () => {
    const all: Slot[] = [];
    for (const room of rooms)
      all.push(
        ...(
          (await (
            await suite.admin.get(
              `/api/admin/rooms/${room.id}/timeslots?fromDate=${today}&untilDate=${addDays(today, 42)}&limit=999`,
            )
          ).json()) as { content: Slot[] }
        ).content,
      );
    const nearlyFull = all.filter(
      (s) => s.ticketCount < s.capacity && s.ticketCount >= s.capacity * 0.8,
    );
    expect(nearlyFull.length).toBeGreaterThan(0);
    const full = all.filter((s) => s.ticketCount === s.capacity && s.capacity > 0);
    // A whole day of a room fully booked (its calendar shows it full).
    const fullDays = new Set(full.map((s) => s.date));
    expect(fullDays.size).toBeGreaterThan(0);
    expect(all.filter((s) => s.ticketCount > s.capacity)).toHaveLength(1);
    expect(all.filter((s) => s.ticketCount === 0).length).toBeGreaterThan(100);
    // Weekends and the closing day have no slots: empty days.
    const holidays = (await (
      await suite.admin.get(
        `/api/admin/holidays?fromDate=${today}&untilDate=${addDays(today, 42)}&limit=999`,
      )
    ).json()) as {
      content: { name: string; nameEn?: string; descriptionEn?: string; date: string }[];
    };
    expect(holidays.content.map((h) => [h.name, h.nameEn, h.descriptionEn])).toEqual([
      [demoHoliday.name, expect.stringMatching(/^Closed /), expect.stringMatching(/stocktaking/)],
    ]);
    const closing = holidays.content[0]!.date;
    expect(isWeekend(closing)).toBe(false);
    expect(all.filter((s) => s.date === closing || isWeekend(s.date))).toEqual(
      all.filter((s) => s.date === today && isWeekend(today)),
    );
    const overbooked = (await (
      await suite.admin.get(`/api/admin/rooms/timeslots?fromDate=${today}&status=OVERBOOKED`)
    ).json()) as { totalCount: number };
    expect(overbooked.totalCount).toBe(1);
    // One room shows the reading-room services; the others use none.
    const roomPage = (await (await suite.admin.get('/api/admin/rooms')).json()) as {
      content: { name: string; services: Record<string, number | null> }[];
    };
    const served = roomPage.content.filter((r) =>
      Object.values(r.services).some((v) => v !== null),
    );
    expect(served.map((r) => r.name)).toEqual(['Rara-Lesesaal']);
    expect(Object.values(served[0]!.services).every((v) => v !== null)).toBe(true);
  });

  it('gives the staff screens rows: reservations, cancellations, daily and occupancy reports', async () => {
    const booked = (await (
      await suite.admin.get(`/api/admin/tickets?fromDate=${today}&limit=20`)
    ).json()) as { totalCount: number; content: { lastName: string }[] };
    expect(booked.totalCount).toBeGreaterThan(50);
    expect(booked.content.every((t) => t.lastName.length > 0)).toBe(true);
    const cancelled = (await (
      await suite.admin.get(`/api/admin/tickets?fromDate=${today}&status=CANCELED_ONLY`)
    ).json()) as { totalCount: number };
    expect(cancelled.totalCount).toBe(2);
    const daily = (await (
      await suite.admin.get(`/api/admin/rooms/${rooms[0]!.id}/daily-report?date=${today}`)
    ).json()) as { content: { lastName: string }[] };
    expect(daily.content.length).toBe(6);
    const report = (await (
      await suite.admin.get(
        `/api/admin/tickets/report?roomId=${rooms[0]!.id}&fromDate=${addDays(today, -30)}&untilDate=${today}&status=BOOKED`,
      )
    ).json()) as { count: number }[];
    expect(report.some((row) => row.count > 0)).toBe(true);
  });

  it('lets a visitor book a demo slot at once, and sends no mail for the invented people', async () => {
    const slots = (await (
      await visitor().get(
        `/api/rooms/${rooms[0]!.id}/booking?fromDate=${today}&untilDate=${addDays(today, 14)}`,
      )
    ).json()) as Slot[];
    const free = slots.find((s) => s.failedRules.length === 0)!;
    const v = visitor();
    const cart = (await (
      await v.request('POST', '/api/transactions', { json: { timeSlotId: free.id } })
    ).json()) as { transactionId: string };
    const booked = await v.request('PUT', `/api/transactions/${cart.transactionId}/booking`, {
      json: {
        salutation: 'MS',
        firstName: 'Neu',
        lastName: 'Gierig',
        email: 'neu.gierig@example.at',
        phone: '+43111',
        accessibility: false,
        language: 'de',
      },
    });
    expect(booked.status).toBe(200);
    // The mail sender (writing .eml files, as without SMTP_URL) sends the visitor's mail only.
    const mailDir = await mkdtemp(path.join(os.tmpdir(), 'rr-seed-mail-'));
    const sender = testMailSender(suite.db, clock, { mailDir });
    try {
      // The outbox reactor works in commit order: once the visitor's mail is queued, so are the
      // seed's (which the sender skips: nobody to write to).
      const { ownerId } = (await booked.json()) as { ownerId: string };
      await expect
        .poll(
          async () =>
            (await suite.db.pool.query('SELECT 1 FROM mail_outbox WHERE owner_id = $1', [ownerId]))
              .rowCount,
        )
        .toBe(1);
      expect(await sender.sendDue(1000)).toBe(1);
      const files = await readdir(mailDir);
      expect(files).toHaveLength(1);
      expect(await readFile(path.join(mailDir, files[0]!), 'utf8')).toContain(
        'neu.gierig@example.at',
      );
    } finally {
      await sender.stop();
      await rm(mailDir, { recursive: true, force: true });
    }
  });

  it('is idempotent: a second run (or one racing it) changes nothing', async () => {
    const before = await eventCount(suite);
    expect(await Promise.all([seed(suite), seed(suite)])).toEqual([null, null]);
    expect(await eventCount(suite)).toBe(before);
  });
});

describe('the demo seed elsewhere', () => {
  it('never touches a database that has data', async () => {
    const suite = await openAdminSuite(clock);
    try {
      await createRoom(suite.admin, 'Eigener Saal');
      const before = await eventCount(suite);
      expect(await seed(suite)).toBeNull();
      expect(await eventCount(suite)).toBe(before);
    } finally {
      await suite.close();
    }
  });

  it('seeds exactly once when two processes start on the same empty database at once', async () => {
    const suite = await openAdminSuite(clock);
    try {
      const results = await Promise.all([seed(suite), seed(suite)]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      const names = (await (await new Client(suite.app.baseUrl).get('/api/rooms')).json()) as {
        content: { name: string }[];
      };
      expect(names.content.map((r) => r.name)).toEqual(demoRooms.map((r) => r.name));
    } finally {
      await suite.close();
    }
  });
});
