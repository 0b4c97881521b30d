// A holiday added on a day with bookings: the closure dialog shows the counts and asks whether
// to cancel or keep the bookings, with neither chosen beforehand (closing without a choice is
// refused, the choice marked and focused); staff close the day's slots and cancel the bookings,
// the visitor can no longer book the day and every booking's cancellation mail states the reason
// (docs/product.md#closures). At 375×740, 768×1024 and 1280×900, German and English, the browser
// in UTC, axe clean.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { freePort } from '../support/ports.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { iso, weekdaysAhead } from './dates.ts';
import {
  eventually,
  expectAccessible,
  LANG_SIZE_RUNS,
  watchPage,
  type Lang,
  type RunningServer,
} from './harness.ts';
import { openStaffPage, signInAs, visitorBooks } from './staff-ux-support.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import { dialog, main } from './visitor-pages.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let sink: SmtpSink;
let admin: Client;
let roomId: string;

/** One day per run, each with a slot and three bookings. */
const days = weekdaysAhead(LANG_SIZE_RUNS.length);

const TEXTS = {
  de: {
    submit: 'Feiertag anlegen',
    title: 'Zeitfenster schließen?',
    counts: /1 Zeitfenster \(1 davon offen\), 3 Reservierungen, 0 Einträge/,
    reason: /^Grund/,
    choice: 'Was geschieht mit den Reservierungen?',
    cancel: 'Reservierungen stornieren (3)',
    keep: 'Reservierungen behalten',
    choose: 'Bitte wählen Sie, ob die Reservierungen storniert oder behalten werden.',
    confirm: 'Zeitfenster schließen',
    popups: 'Mitteilungen',
    result: '1 Zeitfenster geschlossen, 3 Reservierungen storniert.',
    closed: (name: string) => `geschlossen: ${name}`,
  },
  en: {
    submit: 'Create holiday',
    title: 'Close the time slots?',
    counts: /1 time slot \(1 of them open\), 3 reservations, 0 waitlist entries/,
    reason: /^Reason/,
    choice: 'What happens to the reservations?',
    cancel: 'Cancel the reservations (3)',
    keep: 'Keep the reservations',
    choose: 'Please choose whether the reservations are cancelled or kept.',
    confirm: 'Close the time slots',
    popups: 'Notifications',
    result: '1 time slot closed, 3 reservations cancelled.',
    closed: (name: string) => `closed: ${name}`,
  },
} satisfies Record<Lang, unknown>;
const slotIds: string[] = [];
const LIBRARY = 'Stadtbibliothek Testhausen';

const readerOf = (v: number, n: number) => `closure.reader${v}${n}@example.at`;

beforeAll(async () => {
  sink = new SmtpSink(await freePort());
  await sink.start();
  const rooms = await startWithTestRooms({
    TIME_ZONE: 'Europe/Vienna',
    SMTP_URL: sink.url,
    MAIL_INTERVAL_MS: '200',
    LIBRARY_NAME: LIBRARY,
  });
  ({ server, browser, admin, stop } = rooms);
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
  await stop?.();
  await sink?.stop();
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
  for (const [v, { lang, viewport }] of LANG_SIZE_RUNS.entries()) {
    it(`adds a holiday, closes the day's slots with the bookings cancelled (${lang}, ${viewport.width}×${viewport.height})`, async () => {
      const t = TEXTS[lang];
      const day = days[v]!;
      const name = `Betriebsausflug ${v + 1}`;
      expect(await offered(day)).toEqual([slotIds[v]]);

      const page = await openStaffPage(browser, viewport, lang, 'UTC');
      const watch = watchPage(page);
      await signInAs(page, server.baseUrl, lang);
      await page.goto(`${server.baseUrl}/admin/holiday-add`);
      await page.locator('#holiday-name').fill(name);
      await page.locator('#holiday-date').fill(iso(day));
      await main(page).getByRole('button', { name: t.submit, exact: true }).click();

      // The dialog: the day's counts, the holiday's name as the reason, and the choice what
      // happens to the bookings, with neither chosen.
      const ask = dialog(page);
      await ask.getByRole('heading', { name: t.title }).waitFor();
      await ask.getByText(t.counts).waitFor();
      expect(await ask.getByLabel(t.reason).inputValue()).toBe(name);
      const choice = ask.getByRole('group', { name: t.choice });
      const cancel = choice.getByRole('radio', { name: t.cancel });
      const keep = choice.getByRole('radio', { name: t.keep });
      expect([await cancel.isChecked(), await keep.isChecked()]).toEqual([false, false]);
      await expectAccessible(page, `closure dialog (${lang}, ${viewport.width}px)`);
      // Closing without a choice is refused: the choice is marked, described and focused.
      await ask.getByRole('button', { name: t.confirm, exact: true }).click();
      await ask.getByText(t.choose).waitFor();
      await eventually(() => cancel.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await cancel.getAttribute('aria-invalid')).toBe('true');
      expect(await cancel.getAttribute('aria-describedby')).toBe('closure-bookings-error');
      await expectAccessible(page, `closure dialog refusing (${lang}, ${viewport.width}px)`);
      expect(await offered(day)).toEqual([slotIds[v]]);
      await cancel.check();
      await ask.getByRole('button', { name: t.confirm, exact: true }).click();
      await page.getByRole('status', { name: t.popups }).getByText(t.result).waitFor();
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
      await main(page).getByText(t.closed(name)).waitFor();

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
