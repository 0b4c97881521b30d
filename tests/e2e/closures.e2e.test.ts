// A holiday added on a day with bookings: the closure dialog shows the counts, staff close the
// day's slots and cancel the bookings, the visitor can no longer book the day and every booking's
// cancellation mail states the reason (docs/product.md#closures). On a phone and on a desktop.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/ports.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { iso, weekdaysAhead } from './dates.ts';
import {
  eventually,
  expectAccessible,
  launchBrowser,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { DESKTOP, PHONE, openStaffPage, signInAs, visitorBooks } from './staff-ux-support.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import { dialog, main } from './visitor-pages.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let sink: SmtpSink;
let admin: Client;
let roomId: string;

/** One day per viewport, each with a slot and three bookings. */
const days = weekdaysAhead(2);
const VIEWPORTS = [PHONE, DESKTOP] as const;
const slotIds: string[] = [];
const LIBRARY = 'Stadtbibliothek Testhausen';

const readerOf = (v: number, n: number) => `closure.reader${v}${n}@example.at`;

beforeAll(async () => {
  db = await createTestDatabase();
  sink = new SmtpSink(await freePort());
  await sink.start();
  server = await startServer(db, {
    SMTP_URL: sink.url,
    MAIL_INTERVAL_MS: '200',
    LIBRARY_NAME: LIBRARY,
  });
  browser = await launchBrowser();
  const rooms = await createTestRooms(server.baseUrl);
  admin = rooms.admin;
  roomId = rooms.idOf(FIRST_ROOM);
  for (const [v, day] of days.entries()) {
    const slotId = await createSlot(admin, roomId, day, '09:00', '12:00', 10);
    slotIds.push(slotId);
    let position: string | null = null;
    for (const n of [1, 2, 3])
      position = await visitorBooks(
        server.baseUrl,
        { firstName: 'Lena', lastName: `Leserin ${v}${n}`, email: readerOf(v, n) },
        [slotId],
      );
    await waitForReadModels(admin, position);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.stop();
  await db?.drop();
});

/** The slots the visitor calendar offers on a day (the visitor's read of the room). */
async function offered(day: Date): Promise<string[]> {
  const r = await new Client(server.baseUrl).get(
    `/api/rooms/${roomId}/booking?fromDate=${iso(day)}&untilDate=${iso(day)}`,
  );
  expect(r.status).toBe(200);
  return ((await r.json()) as { id: string }[]).map((s) => s.id);
}

describe('closing a holiday with bookings', () => {
  for (const [v, viewport] of VIEWPORTS.entries()) {
    it(`adds a holiday, closes the day's slots with the bookings cancelled (${viewport.width}×${viewport.height})`, async () => {
      const day = days[v]!;
      const name = `Betriebsausflug ${v + 1}`;
      expect(await offered(day)).toEqual([slotIds[v]]);

      const page = await openStaffPage(browser, viewport);
      const watch = watchPage(page);
      await signInAs(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/admin/holiday-add`);
      await page.locator('#holiday-name').fill(name);
      await page.locator('#holiday-date').fill(iso(day));
      await main(page).getByRole('button', { name: 'Feiertag anlegen', exact: true }).click();

      // The dialog: the day's counts, the holiday's name as the reason, the bookings to cancel.
      const ask = dialog(page);
      await ask.getByRole('heading', { name: 'Zeitfenster schließen?' }).waitFor();
      await ask
        .getByText(/1 Zeitfenster \(1 davon offen\), 3 Reservierungen, 0 Einträge/)
        .waitFor();
      expect(await ask.getByLabel(/^Grund/).inputValue()).toBe(name);
      await expectAccessible(page, `closure dialog at ${viewport.width}px`);
      await ask.getByLabel('Reservierungen stornieren (3)').check();
      await ask.getByRole('button', { name: 'Zeitfenster schließen', exact: true }).click();
      await page
        .getByRole('status', { name: 'Mitteilungen' })
        .getByText('1 Zeitfenster geschlossen, 3 Reservierungen storniert.')
        .waitFor();
      await page.waitForURL(/\/admin\/holiday-list/);

      // The visitor can no longer book the day; staff see the slot closed with the reason.
      await eventually(() => offered(day)).toEqual([]);
      const refused = await new Client(server.baseUrl).request('POST', '/api/transactions', {
        json: { timeSlotId: slotIds[v] },
      });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { payload: string[] }).payload).toEqual([
        'timeslot_not_open',
      ]);
      await page.goto(`${server.baseUrl}/admin/room/${roomId}/time-slot-edit/${slotIds[v]}`);
      await main(page).getByText(`geschlossen: ${name}`).waitFor();

      // Three cancellation mails, each stating the reason and signed by the library.
      await eventually(() =>
        Promise.resolve(
          sink.messages.filter(
            (m) =>
              [1, 2, 3].some((n) => JSON.stringify(m.to).includes(readerOf(v, n))) &&
              m.subject?.startsWith('Stornierung'),
          ).length,
        ),
      ).toBe(3);
      for (const n of [1, 2, 3]) {
        const mail = sink.messages.find(
          (m) =>
            JSON.stringify(m.to).includes(readerOf(v, n)) && m.subject?.startsWith('Stornierung'),
        );
        expect(mail?.text).toContain(`Die Bibliothek hat Ihre Buchung storniert: ${name}`);
        expect(mail?.text).toContain(LIBRARY);
      }
      expect(watch.errors).toEqual([]);
      await page.context().close();
    });
  }
});
