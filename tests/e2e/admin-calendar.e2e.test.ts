// Over 300 lines: one browser journey; its steps build on each other and share one server process
// and one Chromium.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  eventually,
  expectAccessible,
  launchBrowser,
  openPage,
  pressUntilVisible,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { iso, longDate, shown } from './dates.ts';
import { createTestRooms, FIRST_ROOM, TEST_ROOMS } from './test-rooms.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let tmp: string;
let admin: Page;
let adminLog: { errors: string[] };

/** The test rooms' first (test-rooms.ts): the room whose time slots the test manages. */
const ROOM = FIRST_ROOM;

/* ---- Dates of the test: a month two months ahead, so every slot lies in the future ---- */

const now = new Date();
const first = new Date(now.getFullYear(), now.getMonth() + 2, 1);
const last = new Date(first.getFullYear(), first.getMonth() + 1, 0);
const year = first.getFullYear();
const month = first.getMonth() + 1;
const days = Array.from({ length: last.getDate() }, (_, i) => new Date(year, month - 1, i + 1));
const firstOf = (weekday: number) => days.find((d) => d.getDay() === weekday)!;
/** The holiday is the month's first Wednesday; the checked working day its first Thursday. */
const holiday = firstOf(3);
const thursday = firstOf(4);
const saturday = firstOf(6);
const sunday = firstOf(0);
const workingDays = days.filter((d) => d.getDay() >= 1 && d.getDay() <= 5).length - 1;

/** An Austrian-style holiday file for next year: CRLF, a folded line, a multi-day event. */
const importYear = now.getFullYear() + 1;
const ics = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Feiertage Österreich//E2E//DE',
  'CALSCALE:GREGORIAN',
  'BEGIN:VEVENT',
  `UID:neujahr-${importYear}@e2e.test`,
  'DTSTAMP:20250101T000000Z',
  `DTSTART;VALUE=DATE:${importYear}0101`,
  `DTEND;VALUE=DATE:${importYear}0102`,
  'SUMMARY:Neujahr',
  'DESCRIPTION:Gesetzlicher Feiertag',
  'END:VEVENT',
  'BEGIN:VEVENT',
  `UID:dreikoenig-${importYear}@e2e.test`,
  'DTSTAMP:20250101T000000Z',
  `DTSTART;VALUE=DATE:${importYear}0106`,
  `DTEND;VALUE=DATE:${importYear}0107`,
  'SUMMARY:Heilige Drei K',
  ' önige',
  'END:VEVENT',
  'BEGIN:VEVENT',
  `UID:weihnachten-${importYear}@e2e.test`,
  'DTSTAMP:20250101T000000Z',
  `DTSTART;VALUE=DATE:${importYear}1224`,
  `DTEND;VALUE=DATE:${importYear}1227`,
  'SUMMARY:Weihnachtsferien',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

/* ---- Helpers ---- */

/** Client-side navigations fire no load event: wait only for the new URL. */
const SAME_DOCUMENT = { waitUntil: 'commit' } as const;

const main = () => admin.getByRole('main');
const h1 = (name: string) => admin.getByRole('heading', { level: 1, name, exact: true });
/** An info popup (the notifications live region) with this text. */
const popup = (text: string | RegExp) =>
  admin.getByRole('status', { name: 'Mitteilungen' }).getByText(text);
const dashboardLink = (name: string) =>
  admin
    .getByRole('navigation', { name: 'Bereiche der Verwaltung' })
    .getByRole('link', { name, exact: true });
const siteNav = (name: string) =>
  admin
    .getByRole('navigation', { name: 'Hauptnavigation' })
    .getByRole('link', { name, exact: true });
const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
const focusedId = () => admin.evaluate(() => document.activeElement?.id ?? '');
const dayButton = (d: Date, status: string) =>
  main().getByRole('button', { name: `${longDate(d)}, ${status}`, exact: true });
const emptyDay = (d: Date) =>
  main().getByRole('gridcell', { name: `${longDate(d)}, keine Zeitfenster`, exact: true });

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  await createTestRooms(server.baseUrl);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rr-e2e-calendar-'));
  admin = await openPage(browser);
  adminLog = watchPage(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('admin time slots, holidays and blacklist, end to end in Chromium', () => {
  it('signs in and adds a holiday in the test month', async () => {
    await admin.goto(`${server.baseUrl}/admin/`);
    await h1('Anmelden').waitFor();
    await admin.getByLabel('Benutzername').fill('admin');
    await admin.getByLabel('Passwort').fill('e2e-admin-password');
    await admin.getByRole('button', { name: 'Anmelden' }).click();
    await h1('Verwaltung').waitFor();
    // The dashboard offers every admin screen; no slot is overbooked yet.
    await dashboardLink('Sperrliste').waitFor();
    await dashboardLink('Überbuchte Zeitfenster (0)').waitFor();

    await dashboardLink('Feiertage').click();
    await h1('Feiertage').waitFor();
    await main().getByRole('link', { name: 'Feiertag hinzufügen' }).click();
    await h1('Feiertag hinzufügen').waitFor();
    await expectAccessible(admin, 'holiday add');
    await admin.getByRole('button', { name: 'Feiertag anlegen' }).click();
    expect(await focusedId()).toBe('holiday-name');
    await admin.getByLabel(/^Name/).fill('Testfeiertag');
    await admin.getByLabel(/^Datum/).fill(iso(holiday));
    await admin.getByLabel(/^Beschreibung/).fill('Für den E2E-Test');
    await admin.getByRole('button', { name: 'Feiertag anlegen' }).click();
    await popup(`Der Feiertag „Testfeiertag“ am ${shown(holiday)} wurde angelegt.`).waitFor();
    await admin.getByRole('heading', { level: 2, name: `Feiertage ${year}` }).waitFor();
    await main().getByRole('cell', { name: 'Testfeiertag', exact: true }).waitFor();
    await expectAccessible(admin, 'holiday list');
  });

  it('creates a weekday series over the month and shows the days in the calendar', async () => {
    await siteNav('Räume').click();
    await h1('Räume').waitFor();
    await main()
      .getByRole('link', { name: `Zeitfenster konfigurieren ${ROOM}`, exact: true })
      .click();
    await h1(`Zeitfenster: ${ROOM}`).waitFor();
    await main().getByRole('grid').waitFor();
    await expectAccessible(admin, 'calendar (current month)');

    await main().getByRole('link', { name: 'Zeitfenster hinzufügen' }).click();
    await h1('Zeitfenster hinzufügen').waitFor();
    // Defaults of docs/product.md#validation (the whole day, the room's capacity); a one-off
    // slot hides the weekday options.
    expect(await admin.getByLabel(/^Startzeit/).inputValue()).toBe('00:00');
    expect(await admin.getByLabel(/^Endzeit/).inputValue()).toBe('23:59');
    expect(await admin.getByLabel(/^Kapazität/).inputValue()).toBe(
      String(TEST_ROOMS.find((r) => r.name === ROOM)!.capacity),
    );
    expect(await admin.getByRole('checkbox', { name: 'Montag' }).count()).toBe(0);
    await admin.getByLabel(/^Startzeit/).fill('12:00');
    await admin.getByLabel(/^Endzeit/).fill('08:00');
    await admin.getByRole('button', { name: 'Zeitfenster anlegen' }).click();
    await admin.getByText('Die Endzeit muss nach der Startzeit liegen.').waitFor();
    expect(await focusedId()).toBe('slot-add-endTime');

    await admin.getByLabel(/^Startzeit/).fill('08:00');
    await admin.getByLabel(/^Endzeit/).fill('12:00');
    await admin.getByLabel(/^Startdatum/).fill(iso(first));
    // Changing the start date sets repeat-until to it.
    expect(await admin.getByLabel(/^Wiederholen bis/).inputValue()).toBe(iso(first));
    await admin.getByLabel(/^Wiederholen bis/).fill(iso(last));
    await admin.getByRole('checkbox', { name: 'Montag' }).waitFor();
    for (const day of ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag']) {
      expect(await admin.getByRole('checkbox', { name: day }).isChecked()).toBe(true);
    }
    for (const day of ['Samstag', 'Sonntag']) {
      expect(await admin.getByRole('checkbox', { name: day }).isChecked()).toBe(false);
    }
    expect(
      await admin
        .getByRole('checkbox', { name: 'Auch an Feiertagen Zeitfenster anlegen' })
        .isChecked(),
    ).toBe(false);
    await admin.getByLabel(/^Kapazität/).fill('5');
    await expectAccessible(admin, 'time slot add (series)');
    await admin.getByRole('button', { name: 'Zeitfenster anlegen' }).click();

    await popup(`${workingDays} Zeitfenster wurden angelegt.`).waitFor();
    await h1(`Zeitfenster: ${ROOM}`).waitFor();
    expect(new URL(admin.url()).searchParams.get('month')).toBe(String(month));
    expect(new URL(admin.url()).searchParams.get('year')).toBe(String(year));
    await dayButton(thursday, 'frei').waitFor();
    expect(
      await main()
        .getByRole('button', { name: /, frei$/ })
        .count(),
    ).toBe(workingDays);
    expect(await emptyDay(holiday).count()).toBe(1);
    expect(await emptyDay(saturday).count()).toBe(1);
    expect(await emptyDay(sunday).count()).toBe(1);
    await expectAccessible(admin, 'calendar with slots');

    // Reload keeps the month (query parameters).
    await admin.reload();
    await dayButton(thursday, 'frei').waitFor();
  });

  it('opens a day in an accessible dialog and edits the slot', async () => {
    const day = dayButton(thursday, 'frei');
    await day.click();
    const dialog = admin.getByRole('dialog', { name: longDate(thursday) });
    await dialog.waitFor();
    const slot = dialog.getByRole('listitem').filter({ hasText: '08:00-12:00' });
    await slot.getByText('0 von 5 belegt').waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(1);
    expect(await slot.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
    await expectAccessible(admin, 'calendar day dialog');
    // Escape closes it and focus returns to the day.
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await isFocused(day)).toBe(true);
    // So does the cancel button. (Enter on the day itself, again if a refetch of the month
    // rendered the day anew between the focus and the key on a busy machine.)
    await pressUntilVisible(day, 'Enter', dialog);
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await isFocused(day)).toBe(true);

    await day.click();
    await dialog.getByRole('link', { name: 'Bearbeiten 08:00-12:00' }).click();
    await h1('Zeitfenster bearbeiten').waitFor();
    await main().getByText('Es wurden keine Reservierungen gefunden.').waitFor();
    expect(await admin.getByLabel(/^Startzeit/).inputValue()).toBe('08:00');
    await expectAccessible(admin, 'time slot edit');
    await admin.getByRole('button', { name: 'Zeitfenster löschen' }).click();
    await admin.getByRole('button', { name: 'Ja, Zeitfenster löschen' }).waitFor();
    await expectAccessible(admin, 'time slot delete confirmation');
    await admin.getByRole('button', { name: 'Abbrechen' }).click();
    await admin.getByLabel(/^Endzeit/).fill('13:00');
    await admin.getByLabel(/^Kapazität/).fill('6');
    await admin.getByRole('button', { name: 'Speichern' }).click();
    await popup(`Das Zeitfenster am ${shown(thursday)} wurde gespeichert.`).waitFor();
    await h1(`Zeitfenster: ${ROOM}`).waitFor();
    await dayButton(thursday, 'frei').click();
    await dialog
      .getByRole('listitem')
      .filter({ hasText: '08:00-13:00' })
      .getByText('0 von 6 belegt')
      .waitFor();
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('sets the capacity of the month and moves between months', async () => {
    await main().getByRole('link', { name: 'Kapazität mehrerer Zeitfenster ändern' }).click();
    await h1('Kapazität ändern').waitFor();
    // The calendar's month preselects the range.
    expect(await admin.getByLabel(/^Von/).inputValue()).toBe(iso(first));
    expect(await admin.getByLabel(/^Bis/).inputValue()).toBe(iso(last));
    await expectAccessible(admin, 'multi capacity');
    await admin.getByLabel(/^Kapazität/).fill('0');
    await admin.getByRole('button', { name: 'Kapazität setzen' }).click();
    await popup(new RegExp(`Die Kapazität von ${workingDays} Zeitfenstern vom`)).waitFor();
    await h1(`Zeitfenster: ${ROOM}`).waitFor();
    // No seats left: the working days are full now.
    await dayButton(thursday, 'ausgebucht').waitFor();
    expect(
      await main()
        .getByRole('button', { name: /, frei$/ })
        .count(),
    ).toBe(0);

    await main().getByRole('button', { name: 'Nächster Monat' }).click();
    await admin.waitForURL(
      (url) => url.searchParams.get('month') === String((month % 12) + 1),
      SAME_DOCUMENT,
    );
    await admin.goBack(SAME_DOCUMENT);
    await dayButton(thursday, 'ausgebucht').waitFor();
    await main().getByRole('button', { name: 'Aktueller Monat' }).click();
    await admin.waitForURL(
      (url) => url.searchParams.get('month') === String(now.getMonth() + 1),
      SAME_DOCUMENT,
    );
  });

  it('fits the calendar into a 375 px wide screen', async () => {
    const phone = await openPage(browser, { width: 375, height: 800 });
    await phone.context().addCookies(await admin.context().cookies());
    await phone.goto(admin.url().replace(/\?.*$/, `?year=${year}&month=${month}`));
    await phone
      .getByRole('button', { name: `${longDate(thursday)}, ausgebucht`, exact: true })
      .waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await expectAccessible(phone, 'calendar at 375 px');
    await phone.context().close();
  });

  it('imports a holiday file and shows the holidays in the year list', async () => {
    const file = path.join(tmp, 'feiertage-oesterreich.ics');
    await writeFile(file, ics, 'utf8');
    await siteNav('Feiertage').click();
    await h1('Feiertage').waitFor();
    await main().getByRole('link', { name: 'iCal-Datei importieren' }).click();
    await h1('Feiertage importieren').waitFor();
    await expectAccessible(admin, 'holiday import');
    // No file: the check before upload refuses and focuses the picker.
    await admin.getByRole('button', { name: 'Importieren' }).click();
    await admin.getByText('Bitte wählen Sie eine Kalenderdatei aus.').waitFor();
    expect(await focusedId()).toBe('holiday-import-file');
    await admin.getByLabel(/^Kalenderdatei/).setInputFiles(file);
    await admin.getByRole('button', { name: 'Importieren' }).click();
    await popup('Die Kalenderdatei wurde importiert.').waitFor();
    await popup('Importiert: 5, übersprungen: 0.').waitFor();
    // Imported holidays on days with open slots (the series above, when the test month is the
    // import year's January) are asked about one by one (docs/product.md#closures): they stay open.
    const keepOpen = admin
      .getByRole('dialog')
      .getByRole('button', { name: 'Nicht schließen', exact: true });
    for (;;) {
      await h1('Feiertage').or(keepOpen).first().waitFor();
      if (!(await keepOpen.isVisible())) break;
      await keepOpen.click();
    }
    await h1('Feiertage').waitFor();

    await main().getByRole('button', { name: 'Nächstes Jahr' }).click();
    await admin.getByRole('heading', { level: 2, name: `Feiertage ${importYear}` }).waitFor();
    await main().getByRole('cell', { name: 'Neujahr', exact: true }).waitFor();
    await main().getByRole('cell', { name: 'Heilige Drei Könige', exact: true }).waitFor();
    expect(await main().getByRole('cell', { name: 'Weihnachtsferien', exact: true }).count()).toBe(
      3,
    );
    for (const date of ['01.01', '06.01', '24.12', '25.12', '26.12']) {
      // .first(): the holiday added above may fall on the same day.
      await main()
        .getByRole('cell', { name: `${date}.${importYear}`, exact: true })
        .first()
        .waitFor();
    }
    expect(new URL(admin.url()).searchParams.get('year')).toBe(String(importYear));
    await expectAccessible(admin, 'holiday list of the imported year');

    // Delete asks for confirmation in a dialog.
    await main()
      .getByRole('button', { name: `Löschen Neujahr 01.01.${importYear}` })
      .click();
    const confirm = admin.getByRole('dialog', { name: 'Feiertag wirklich löschen?' });
    await confirm.waitFor();
    await expectAccessible(admin, 'holiday delete dialog');
    await confirm.getByRole('button', { name: 'Ja, Feiertag löschen' }).click();
    await popup(`Der Feiertag „Neujahr“ am 01.01.${importYear} wurde gelöscht.`).waitFor();
    await main().getByRole('cell', { name: 'Neujahr', exact: true }).waitFor({ state: 'detached' });

    // An empty year shows the no-holidays message.
    await main().getByRole('button', { name: 'Nächstes Jahr' }).click();
    await main().getByText('Für dieses Jahr sind keine Feiertage eingetragen.').waitFor();
  });

  it('adds a blacklist entry, finds it and edits it', async () => {
    const email = 'no-show@example.org';
    await siteNav('Sperrliste').click();
    await h1('Sperrliste').waitFor();
    await main().getByText('Keine Einträge vorhanden.').waitFor();
    await expectAccessible(admin, 'blacklist list (empty)');

    await main().getByRole('link', { name: 'Eintrag hinzufügen' }).click();
    await h1('Eintrag zur Sperrliste hinzufügen').waitFor();
    // One year from today; 29 February becomes 28 February (as date-fns addYears does).
    const nextYear = new Date(
      now.getFullYear() + 1,
      now.getMonth(),
      Math.min(now.getDate(), new Date(now.getFullYear() + 1, now.getMonth() + 1, 0).getDate()),
    );
    expect(await admin.getByLabel(/^Gesperrt bis/).inputValue()).toBe(iso(nextYear));
    await admin.getByLabel(/^E-Mail-Adresse/).fill('not an address');
    await admin.getByRole('button', { name: 'Eintrag hinzufügen' }).click();
    await admin.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.').waitFor();
    expect(await focusedId()).toBe('blacklist-email');
    await expectAccessible(admin, 'blacklist add with an error');
    await admin.getByLabel(/^E-Mail-Adresse/).fill(email);
    await admin.getByLabel(/^Notiz/).fill('Drei Termine nicht wahrgenommen');
    await admin.getByRole('button', { name: 'Eintrag hinzufügen' }).click();
    await popup(`${email} wurde zur Sperrliste hinzugefügt.`).waitFor();
    await h1('Sperrliste').waitFor();
    await main().getByRole('cell', { name: email, exact: true }).waitFor();
    await main()
      .getByRole('cell', { name: shown(nextYear), exact: true })
      .waitFor();

    // Sorting: the active column toggles; aria-sort tells which one is sorted.
    const emailHeader = main().getByRole('columnheader', { name: 'E-Mail-Adresse' });
    const expiryHeader = main().getByRole('columnheader', { name: 'Gesperrt bis' });
    expect(await emailHeader.getAttribute('aria-sort')).toBe('ascending');
    await expiryHeader.getByRole('button').click();
    await admin.waitForURL(
      (url) => url.searchParams.get('sortColumn') === 'expiredAt',
      SAME_DOCUMENT,
    );
    await eventually(() => expiryHeader.getAttribute('aria-sort')).toBe('ascending');
    await eventually(() => emailHeader.getAttribute('aria-sort')).toBeNull();
    await expiryHeader.getByRole('button').click();
    await admin.waitForURL((url) => url.searchParams.get('sortOrder') === 'DESC', SAME_DOCUMENT);
    await eventually(() => expiryHeader.getAttribute('aria-sort')).toBe('descending');

    // Search with Enter; the reset button appears only with a term.
    expect(await main().getByRole('button', { name: 'Suche zurücksetzen' }).count()).toBe(0);
    await admin.getByLabel('Suchbegriff').fill('nicht wahrgenommen');
    await admin.getByLabel('Suchbegriff').press('Enter');
    await main().getByText('1 Eintrag für „nicht wahrgenommen“').waitFor();
    await main().getByRole('button', { name: 'Suche zurücksetzen' }).waitFor();
    await expectAccessible(admin, 'blacklist list (search result)');

    await main()
      .getByRole('link', { name: `${email} bearbeiten` })
      .click();
    await h1('Sperrlisten-Eintrag bearbeiten').waitFor();
    expect(new URL(admin.url()).searchParams.get('fromSearch')).toBe('y');
    await admin.getByRole('heading', { level: 2, name: email }).waitFor();
    expect(await admin.getByLabel(/^Notiz/).inputValue()).toBe('Drei Termine nicht wahrgenommen');
    await expectAccessible(admin, 'blacklist edit');
    const until = new Date(now.getFullYear() + 2, 0, 31);
    await admin.getByLabel(/^Gesperrt bis/).fill(iso(until));
    await admin.getByLabel(/^Notiz/).fill('Vier Termine nicht wahrgenommen');
    await admin.getByRole('button', { name: 'Speichern' }).click();
    await popup(`Der Eintrag für ${email} wurde aktualisiert.`).waitFor();
    // Back in history: the search result again.
    await main().getByText('1 Eintrag für „nicht wahrgenommen“').waitFor();
    expect(new URL(admin.url()).searchParams.get('term')).toBe('nicht wahrgenommen');
    await main()
      .getByRole('cell', { name: shown(until), exact: true })
      .waitFor();
    await main().getByRole('cell', { name: 'Vier Termine nicht wahrgenommen' }).waitFor();

    // Resetting the search keeps focus in the search box.
    await main().getByRole('button', { name: 'Suche zurücksetzen' }).click();
    await main().getByText('1 Eintrag', { exact: true }).waitFor();
    expect(await focusedId()).toBe('blacklist-search-term');

    // The only console errors allowed: the first /me check before signing in (401).
    expect(adminLog.errors.filter((e) => !/401/.test(e))).toEqual([]);
  });
});
