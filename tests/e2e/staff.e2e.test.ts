// Over 300 lines: one browser journey; its steps build on each other and share one server process,
// one Chromium and one SMTP sink.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@rr/identity';
import { Client } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/ports.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import {
  eventually,
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { iso, shown, weekdaysAhead } from './dates.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let sink: SmtpSink;
let admin: Page;
let adminLog: { errors: string[] };
/** Anna's ticket of day A, cancelled in the test (its history is checked later). */
let annaTicketPath = '';

/** The first of the test rooms (test-rooms.ts): the reports' first room. */
const ROOM = FIRST_ROOM;
/** 34 characters: the list shows the first 18 plus ' ...'. Created after the test rooms. */
const LONG_ROOM = 'Lesesaal der Handschriftensammlung';

/* ---- Dates: weekdays 3 to 10 days ahead (rooms open from today + 2 days) ---- */

const [dayA, dayB] = weekdaysAhead(2) as [Date, Date];
const today = new Date();
const monthAgo = new Date(today.getFullYear(), today.getMonth() - 1, today.getDate());

/* ---- Helpers ---- */

const main = (page: Page = admin) => page.getByRole('main');
const h1 = (name: string, page: Page = admin) =>
  page.getByRole('heading', { level: 1, name, exact: true });
const popup = (text: string | RegExp) =>
  admin.getByRole('status', { name: 'Mitteilungen' }).getByText(text);
const dashboardLink = (name: string | RegExp) =>
  admin
    .getByRole('navigation', { name: 'Bereiche der Verwaltung' })
    .getByRole('link', { name, exact: typeof name === 'string' });
const siteNav = (page: Page) => page.getByRole('navigation', { name: 'Hauptnavigation' });
const focusedId = () => admin.evaluate(() => document.activeElement?.id ?? '');
const rowsOf = (page: Page = admin) => main(page).locator('table tbody tr');
const cellTexts = async (row: Locator) =>
  (await row.locator('td').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
const tab = (name: RegExp) =>
  main()
    .getByRole('navigation', { name: 'Reservierungen nach Status' })
    .getByRole('link', { name });
const noHorizontalScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/`);
  await h1('Anmelden', page).waitFor();
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort').fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
}

/* ---- Test data over HTTP: rooms, slots and visitor bookings ---- */

interface Person {
  firstName: string;
  lastName: string;
  email: string;
}

/** A visitor books the slots in one transaction (one booking, so the tickets are related). */
async function visitorBooks(person: Person, slotIds: string[]): Promise<string | null> {
  const visitor = new Client(server.baseUrl);
  const [first, ...more] = slotIds;
  const cart = await visitor.request('POST', '/api/transactions', {
    json: { timeSlotId: first },
  });
  expect(cart.status, await cart.clone().text()).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  for (const timeSlotId of more) {
    const added = await visitor.request('POST', `/api/transactions/${transactionId}/tickets`, {
      json: { timeSlotId },
    });
    expect(added.status, await added.clone().text()).toBeLessThan(300);
  }
  const booked = await visitor.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: {
      salutation: 'MS',
      ...person,
      organisation: 'Testinstitut',
      phone: '+43123',
      accessibility: false,
      language: 'de',
    },
  });
  expect(booked.status, await booked.clone().text()).toBe(200);
  return visitor.lastPosition;
}

async function createTestData(): Promise<void> {
  const { admin: staff, idOf } = await createTestRooms(server.baseUrl, [
    { name: LONG_ROOM, description: 'Handschriften und Nachlässe', capacity: 8 },
  ]);
  const morningA = await createSlot(staff, idOf(ROOM), dayA, '09:00', '12:00', 2);
  const afternoonA = await createSlot(staff, idOf(ROOM), dayA, '14:00', '16:00', 1);
  const morningB = await createSlot(staff, idOf(ROOM), dayB, '09:00', '12:00', 2);
  const longRoom = await createSlot(staff, idOf(LONG_ROOM), dayA, '10:00', '11:00', 3);

  await visitorBooks({ firstName: 'Anna', lastName: 'Huber', email: 'anna.huber@example.org' }, [
    morningA,
    morningB,
  ]);
  await visitorBooks({ firstName: 'Dora', lastName: 'Koch', email: 'dora@example.org' }, [
    morningA,
  ]);
  // The afternoon slot has one seat: Bernd fills it.
  await visitorBooks({ firstName: 'Bernd', lastName: 'Maier', email: 'bernd@example.org' }, [
    afternoonA,
  ]);
  const last = await visitorBooks(
    { firstName: 'Emil', lastName: 'Wagner', email: 'emil@example.org' },
    [longRoom],
  );
  // The browser is another client: wait until the read models have caught up with the last write.
  await waitForReadModels(staff, last);
}

beforeAll(async () => {
  db = await createTestDatabase();
  sink = new SmtpSink(await freePort());
  await sink.start();
  server = await startServer(db, { SMTP_URL: sink.url });
  browser = await launchBrowser();
  await createTestData();
  admin = await openPage(browser);
  adminLog = watchPage(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.stop();
  await db?.drop();
});

describe('staff screens, end to end in Chromium', () => {
  it('finds a ticket by e-mail in the sortable, filterable reservations list', async () => {
    await signIn(admin, 'admin', 'e2e-admin-password');
    await h1('Verwaltung').waitFor();
    await dashboardLink('Reservierungen').waitFor();
    await dashboardLink('Berichte').waitFor();
    // Nothing is overbooked yet.
    await dashboardLink('Überbuchte Zeitfenster (0)').waitFor();
    await expectAccessible(admin, 'dashboard');

    await dashboardLink('Reservierungen').click();
    await h1('Reservierungen').waitFor();
    // From today on, sorted by date and time ascending (a slot's tickets by name); each tab shows
    // its count.
    await tab(/^Gebucht \(5\)$/).waitFor();
    await tab(/^Storniert \(0\)$/).waitFor();
    await main().getByText('5 gebuchte Reservierungen').waitFor();
    expect(await main().getByLabel('Datum von').inputValue()).toBe(iso(today));
    const names = async () =>
      (await rowsOf().locator('td:nth-child(2)').allInnerTexts()).map((t) => t.trim());
    expect(await names()).toEqual([
      'Huber, Anna',
      'Koch, Dora',
      'Wagner, Emil',
      'Maier, Bernd',
      'Huber, Anna',
    ]);
    const dateHeader = main().getByRole('columnheader', { name: /^Datum/ });
    expect(await dateHeader.getAttribute('aria-sort')).toBe('ascending');
    const nameHeader = main().getByRole('columnheader', { name: /^Name/ });
    await nameHeader.getByRole('button').click();
    await eventually(() => nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await eventually(names).toEqual([
      'Huber, Anna',
      'Huber, Anna',
      'Koch, Dora',
      'Maier, Bernd',
      'Wagner, Emil',
    ]);
    // The long room name is cut at 18 characters.
    await main().getByText('Lesesaal der Hands ...', { exact: true }).waitFor();
    // No filter differs from the default: no reset button.
    expect(await main().getByRole('button', { name: 'Suche zurücksetzen' }).count()).toBe(0);
    await expectAccessible(admin, 'reservations (booked)');

    await nameHeader.getByRole('button').click();
    await eventually(() => nameHeader.getAttribute('aria-sort')).toBe('descending');
    await eventually(names).toEqual([
      'Wagner, Emil',
      'Maier, Bernd',
      'Koch, Dora',
      'Huber, Anna',
      'Huber, Anna',
    ]);
    expect(new URL(admin.url()).searchParams.get('sortOrder')).toBe('DESC');

    // An invalid range is refused before searching, with focus on the until date.
    await main().getByLabel('Datum bis').fill(iso(monthAgo));
    await main().getByRole('button', { name: 'Suchen', exact: true }).click();
    await main().getByText('Das Datum ist ungültig oder liegt VOR dem Startdatum.').waitFor();
    expect(await focusedId()).toBe('reservations-until');
    await main().getByLabel('Datum bis').fill('');

    await main().getByLabel('Suchbegriff').fill('anna.huber@example.org');
    await main().getByRole('button', { name: 'Suchen', exact: true }).click();
    await tab(/^Gebucht \(2\)$/).waitFor();
    const url = new URL(admin.url());
    expect(url.searchParams.get('searchTerm')).toBe('anna.huber@example.org');
    expect(url.searchParams.get('searchType')).toBe('booked');
    expect(url.searchParams.get('offset')).toBe('0');
    expect(await rowsOf().count()).toBe(2);
    await main().getByRole('button', { name: 'Suche zurücksetzen' }).waitFor();

    // The CSV export has the same filters.
    const csv = main().getByRole('link', { name: 'Als CSV herunterladen' });
    const href = (await csv.getAttribute('href'))!;
    expect(href).toContain('/api/admin/tickets/export.csv?');
    expect(href).toContain('searchTerm=anna.huber%40example.org');
    const exported = await admin.request.get(new URL(href, server.baseUrl).toString());
    expect(exported.status()).toBe(200);
    const lines = (await exported.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('Huber');
  });

  it('edits the owner and cancels the ticket together with its related ticket', async () => {
    await main()
      .getByRole('link', { name: `Reservierung von Huber, Anna am ${shown(dayA)} bearbeiten` })
      .click();
    await h1('Reservierung').waitFor();
    annaTicketPath = new URL(admin.url()).pathname;
    await main().getByText(`${ROOM}`, { exact: true }).waitFor();
    expect(
      await main()
        .getByLabel(/^Nachname/)
        .inputValue(),
    ).toBe('Huber');
    await expectAccessible(admin, 'reservation edit');

    // Validation before submit: focus moves to the first invalid control.
    await main()
      .getByLabel(/^Nachname/)
      .fill('');
    await main()
      .getByLabel(/^Telefonnummer/)
      .fill('0664 12x');
    await main().getByRole('button', { name: 'Speichern' }).click();
    expect(await focusedId()).toBe('reservation-lastName');
    await main().getByText('Bitte füllen Sie dieses Feld aus.').waitFor();
    await main()
      .getByText('Bitte geben Sie eine Telefonnummer nur mit Ziffern und einem Plus am Anfang ein.')
      .waitFor();
    await main()
      .getByLabel(/^Nachname/)
      .fill('Huber-Schmidt');
    await main()
      .getByLabel(/^Telefonnummer/)
      .fill('+4366412');
    await main()
      .getByLabel(/^Organisation/)
      .fill('Universität Wien');
    await main().getByRole('button', { name: 'Speichern' }).click();
    await popup('Die Daten von Huber-Schmidt, Anna wurden gespeichert.').waitFor();

    // Cancel: the dialog offers the other ticket of the same booking.
    await main().getByRole('button', { name: 'Reservierung stornieren' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Reservierung wirklich stornieren?' });
    await dialog.waitFor();
    const related = dialog.getByRole('checkbox', {
      name: `${ROOM} am ${shown(dayB)} 09:00-12:00`,
    });
    expect(await related.isChecked()).toBe(false);
    await expectAccessible(admin, 'cancel dialog');
    await related.check();
    await dialog.getByRole('button', { name: 'Ja, 2 Reservierungen stornieren' }).click();
    await popup('2 Reservierungen wurden storniert.').waitFor();

    // Back on the list with the same search: nothing booked left, two cancelled.
    await h1('Reservierungen').waitFor();
    expect(new URL(admin.url()).searchParams.get('searchTerm')).toBe('anna.huber@example.org');
    await main().getByText('Es wurden keine Reservierungen gefunden.').waitFor();
    await tab(/^Storniert \(2\)$/).click();
    await main().getByText('2 stornierte Reservierungen').waitFor();
    expect(new URL(admin.url()).searchParams.get('searchType')).toBe('cancelled');
    expect(await rowsOf().count()).toBe(2);
    expect(await cellTexts(rowsOf().first())).toEqual([
      ROOM,
      'Huber-Schmidt, Anna',
      'Universität Wien',
      'anna.huber@example.org',
      `${shown(dayA)} 09:00-12:00`,
      expect.stringMatching(/^R-[2-9A-HJ-NP-Z]{6}$/),
      'Von der Bibliothek storniert',
    ]);
    // No action column on the cancelled tab.
    expect(await main().getByRole('columnheader', { name: 'Aktionen' }).count()).toBe(0);
    await expectAccessible(admin, 'reservations (cancelled)');

    // Reset: back to the defaults of the booked tab's filters. The tab and the row were shown
    // before the reset too: the search field is read until the reset has reached it.
    await main().getByRole('button', { name: 'Suche zurücksetzen' }).click();
    await eventually(() => main().getByLabel('Suchbegriff').inputValue()).toBe('');
    expect(new URL(admin.url()).searchParams.get('searchTerm')).toBeNull();
    await tab(/^Storniert \(2\)$/).waitFor();
    await main().getByText('Huber-Schmidt, Anna').first().waitFor();
  });

  it('books a person into a full slot, which then shows as overbooked', async () => {
    await tab(/^Gebucht/).click();
    await main().getByLabel('Suchbegriff').fill('bernd@example.org');
    await main().getByRole('button', { name: 'Suchen', exact: true }).click();
    await tab(/^Gebucht \(1\)$/).waitFor();
    await main()
      .getByRole('link', { name: `Reservierung von Maier, Bernd am ${shown(dayA)} bearbeiten` })
      .click();
    await h1('Reservierung').waitFor();
    await main().getByRole('link', { name: 'Zum Zeitfenster' }).click();
    await h1('Zeitfenster bearbeiten').waitFor();
    // The slot lists its reservations.
    const reservations = main().getByRole('table', { name: /in diesem Zeitfenster/ });
    await reservations.getByRole('cell', { name: 'Maier, Bernd', exact: true }).waitFor();
    await main().getByText('1 von 1 belegt').waitFor();
    await expectAccessible(admin, 'time slot edit with reservations');

    await main().getByRole('link', { name: 'Person in dieses Zeitfenster einbuchen' }).click();
    await h1('Person einbuchen').waitFor();
    // A full slot is a warning, not a stop.
    await main()
      .getByText(/Dieses Zeitfenster ist bereits voll \(1 von 1 belegt\)/)
      .waitFor();
    await expectAccessible(admin, 'time slot book');
    const submit = main().getByRole('button', { name: 'Trotzdem einbuchen (überbuchen)' });
    await submit.click();
    expect(await focusedId()).toBe('slot-book-firstName');
    await main()
      .getByLabel(/^Vorname/)
      .fill('Clara');
    await main()
      .getByLabel(/^Nachname/)
      .fill('Berger');
    await main()
      .getByLabel(/^E-Mail-Adresse/)
      .fill('clara@example.org');
    await main().getByRole('checkbox', { name: 'Barrierefreier Platz benötigt' }).check();
    await submit.click();
    // Overbooking is asked once more.
    const overbook = admin.getByRole('dialog', { name: 'Zeitfenster überbuchen?' });
    await overbook.getByRole('button', { name: 'Ja, überbuchen' }).click();
    await popup(`Berger, Clara wurde am ${shown(dayA)}, 14:00-16:00, eingebucht.`).waitFor();
    await h1('Zeitfenster bearbeiten').waitFor();
    await main().getByText('2 von 1 belegt').waitFor();
    await reservations.getByRole('cell', { name: 'Berger, Clara', exact: true }).waitFor();

    await siteNav(admin).getByRole('link', { name: 'Übersicht' }).click();
    await h1('Verwaltung').waitFor();
    await dashboardLink('Überbuchte Zeitfenster (1)').click();
    await h1('Überbuchte Zeitfenster').waitFor();
    await rowsOf().first().waitFor();
    expect(await rowsOf().count()).toBe(1);
    expect(await cellTexts(rowsOf().first())).toEqual([
      `${shown(dayA)} 14:00-16:00`,
      ROOM,
      '2',
      '1',
      expect.stringMatching(/^Bearbeiten/),
    ]);
    await expectAccessible(admin, 'overbooked');
    await rowsOf()
      .first()
      .getByRole('link', { name: /^Bearbeiten/ })
      .click();
    await h1('Zeitfenster bearbeiten').waitFor();
  });

  it('shows who did what in the history of a ticket and of a slot', async () => {
    // The admin's booking: open it from the slot's reservations.
    await main().getByRole('link', { name: 'Reservierung öffnen Berger, Clara' }).click();
    await h1('Reservierung').waitFor();
    await main().getByRole('link', { name: 'Verlauf der Reservierung' }).click();
    await h1('Verlauf der Reservierung').waitFor();
    await eventually(async () => (await rowsOf().allInnerTexts()).join('\n')).toMatch(
      /Gebucht\s+Verwaltung: admin/,
    );

    // Anna's cancelled ticket: booked by the visitor, changed and cancelled by the admin.
    await admin.goto(`${server.baseUrl}${annaTicketPath}/history`);
    await h1('Verlauf der Reservierung').waitFor();
    await rowsOf().first().waitFor();
    const rows = await Promise.all((await rowsOf().all()).map(cellTexts));
    expect(rows.map(([, what, who]) => [what, who])).toEqual([
      ['Platz vorgemerkt', 'Besucher/in'],
      // Adding the second slot to her cart extended the hold of the first.
      ['Vormerkung verlängert', 'Besucher/in'],
      ['Gebucht', 'Besucher/in'],
      ['Daten der Person geändert', 'Verwaltung: admin'],
      ['Storniert', 'Verwaltung: admin'],
    ]);
    for (const [when] of rows) expect(when).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    await main()
      .getByText(`${ROOM}, ${shown(dayA)}, 09:00-12:00 – Huber-Schmidt, Anna`)
      .waitFor();
    await expectAccessible(admin, 'ticket history');

    // The reservation page of a cancelled ticket is read-only, without a cancel button.
    await main().getByRole('link', { name: 'Zurück zur Reservierung' }).click();
    await h1('Reservierung').waitFor();
    await main().getByText('Storniert', { exact: true }).waitFor();
    expect(await main().getByRole('button', { name: 'Speichern' }).count()).toBe(0);
    expect(await main().getByRole('button', { name: 'Reservierung stornieren' }).count()).toBe(0);

    await main().getByRole('link', { name: 'Zum Zeitfenster' }).click();
    await h1('Zeitfenster bearbeiten').waitFor();
    await main().getByRole('link', { name: 'Verlauf des Zeitfensters' }).click();
    await h1('Verlauf des Zeitfensters').waitFor();
    await eventually(async () => (await rowsOf().allInnerTexts()).join('\n')).toMatch(
      /Zeitfenster angelegt\s+Verwaltung: admin[\s\S]*Storniert\s+Verwaltung: admin/,
    );
    await expectAccessible(admin, 'time slot history');
  });

  it('prints the daily report of a room (PDF) and shows the occupancy report', async () => {
    await siteNav(admin).getByRole('link', { name: 'Berichte' }).click();
    await h1('Berichte').waitFor();
    await main().getByText('Es sind keine Berichte verfügbar.').waitFor();
    await expectAccessible(admin, 'reports');

    await main()
      .getByRole('link', { name: `Tagesbericht: ${ROOM}` })
      .click();
    await h1(`Tagesbericht: ${ROOM}`).waitFor();
    expect(
      await main()
        .getByLabel(/^Datum/)
        .inputValue(),
    ).toBe(iso(today));
    await main().getByText('Keine Einträge vorhanden.').waitFor();
    // No results: no print button.
    expect(await main().getByRole('button', { name: 'Drucken' }).count()).toBe(0);

    // Another date reloads the report; seat numbers restart per slot.
    await main()
      .getByLabel(/^Datum/)
      .fill(iso(dayA));
    await main()
      .getByRole('heading', { level: 2, name: `Reservierungen am ${shown(dayA)}` })
      .waitFor();
    await main().getByText('3 Reservierungen').waitFor();
    expect(new URL(admin.url()).searchParams.get('date')).toBe(iso(dayA));
    expect(await Promise.all((await rowsOf().all()).map(cellTexts))).toEqual([
      ['09:00-12:00', '1', 'Koch', 'Dora', 'Nein'],
      ['14:00-16:00', '1', 'Berger', 'Clara', 'Ja'],
      ['14:00-16:00', '2', 'Maier', 'Bernd', 'Nein'],
    ]);
    const csv = await main()
      .getByRole('link', { name: 'Als CSV herunterladen' })
      .getAttribute('href');
    expect(csv).toMatch(
      new RegExp(`/api/admin/rooms/[0-9a-f-]+/daily-report\\.csv\\?date=${iso(dayA)}$`),
    );
    await expectAccessible(admin, 'daily report');

    // The print button prints the page (window.print is stubbed: headless has no dialog).
    await admin.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await main().getByRole('button', { name: 'Drucken' }).click();
    expect(await admin.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

    // In print, navigation, filters and buttons are hidden; the title and table remain.
    await admin.emulateMedia({ media: 'print' });
    expect(await siteNav(admin).isVisible()).toBe(false);
    expect(await admin.getByRole('banner').isVisible()).toBe(false);
    expect(await main().getByRole('button', { name: 'Drucken' }).isVisible()).toBe(false);
    expect(await main().getByRole('link', { name: 'Als CSV herunterladen' }).isVisible()).toBe(
      false,
    );
    expect(
      await main()
        .getByLabel(/^Datum/)
        .isVisible(),
    ).toBe(false);
    expect(
      await admin.evaluate(
        () =>
          [...document.querySelectorAll('button, a.button, nav')].filter(
            (el) => (el as HTMLElement).offsetParent !== null,
          ).length,
      ),
    ).toBe(0);
    expect(await h1(`Tagesbericht: ${ROOM}`).isVisible()).toBe(true);
    expect(await main().getByRole('table').isVisible()).toBe(true);
    const pdf = await admin.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(5_000);
    await admin.emulateMedia({ media: 'screen' });

    await main().getByRole('link', { name: 'Zurück zu den Berichten' }).click();
    await h1('Berichte').waitFor();
    await main().getByRole('link', { name: 'Belegungsbericht' }).click();
    await h1('Belegungsbericht').waitFor();
    // Defaults: one month back to today, the first room, booked seats.
    expect(
      await main()
        .getByLabel(/^Datum von/)
        .inputValue(),
    ).toBe(iso(monthAgo));
    expect(
      await main()
        .getByLabel(/^Datum bis/)
        .inputValue(),
    ).toBe(iso(today));
    expect(await main().getByLabel(/^Raum/).locator('option:checked').textContent()).toBe(ROOM);
    expect(await main().getByLabel(/^Art/).inputValue()).toBe('BOOKED');
    await main().getByText('Keine Einträge vorhanden.').waitFor();

    // Any change reloads.
    await main()
      .getByLabel(/^Datum bis/)
      .fill(iso(dayB));
    await main()
      .getByRole('heading', {
        level: 2,
        name: `${ROOM}: Gebuchte Plätze vom ${shown(monthAgo)} bis ${shown(dayB)}`,
      })
      .waitFor();
    await main().getByText('3 Zeitfenster', { exact: true }).waitFor();
    const booked = await Promise.all((await rowsOf().all()).map(cellTexts));
    expect(booked).toEqual([
      [`${shown(dayA)} 09:00-12:00`, '1', '2', expect.stringMatching(/^50\s%$/)],
      [`${shown(dayA)} 14:00-16:00`, '2', '1', expect.stringMatching(/^200\s%$/)],
      [`${shown(dayB)} 09:00-12:00`, '0', '2', expect.stringMatching(/^0\s%$/)],
    ]);
    // One bar per day: day A has 3 of 3 seats taken (1 of 2 and 2 of 1).
    const chart = main().getByRole('figure', { name: 'Auslastung je Tag' });
    await chart.getByText(/^100\s% \(3 von 3\)$/).waitFor();
    await expectAccessible(admin, 'occupancy report (booked)');

    await main().getByLabel(/^Art/).selectOption('CANCELLED');
    await main()
      .getByRole('heading', {
        level: 2,
        name: `${ROOM}: Stornierte Plätze vom ${shown(monthAgo)} bis ${shown(dayB)}`,
      })
      .waitFor();
    await eventually(async () =>
      (await Promise.all((await rowsOf().all()).map(cellTexts))).map((row) => row[1]),
    ).toEqual(['1', '0', '1']);
    const reportCsv = await main()
      .getByRole('link', { name: 'Als CSV herunterladen' })
      .getAttribute('href');
    expect(reportCsv).toContain('/api/admin/tickets/report.csv?');
    expect(reportCsv).toContain('status=CANCELLED');
    await expectAccessible(admin, 'occupancy report (cancelled)');

    // No console error, not even before signing in: GET /api/session answers 200.
    expect(adminLog.errors).toEqual([]);
  });

  it('fits a 375 px wide phone screen', async () => {
    const phone = await openPage(browser, { width: 375, height: 740 });
    await signIn(phone, 'admin', 'e2e-admin-password');
    await h1('Verwaltung', phone).waitFor();
    await phone.goto(`${server.baseUrl}/admin/reservations`);
    await h1('Reservierungen', phone).waitFor();
    await rowsOf(phone).first().waitFor();
    await noHorizontalScroll(phone);
    await phone.goto(`${server.baseUrl}/admin/occupancy-report`);
    await h1('Belegungsbericht', phone).waitFor();
    await noHorizontalScroll(phone);
    await phone.context().close();
  });

  it('a user with only the reports role sees only the reports, read-only', async () => {
    await createUser(db.pool, 'berichte', 'reports-only-password', ['reports']);
    const page = await openPage(browser);
    const log = watchPage(page);
    await signIn(page, 'berichte', 'reports-only-password');
    await h1('Berichte', page).waitFor();
    const nav = siteNav(page);
    expect((await nav.getByRole('link').allInnerTexts()).map((t) => t.trim())).toEqual([
      'Berichte',
      'Belegungsbericht',
    ]);
    for (const name of ['Räume', 'Reservierungen', 'Sperrliste', 'Feiertage', 'Übersicht']) {
      expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0);
    }
    await expectAccessible(page, 'reports (reports role)');

    await main(page)
      .getByRole('link', { name: `Tagesbericht: ${ROOM}` })
      .click();
    await h1(`Tagesbericht: ${ROOM}`, page).waitFor();
    await main(page)
      .getByLabel(/^Datum/)
      .fill(iso(dayA));
    await main(page).getByText('3 Reservierungen').waitFor();
    // Reading only: no links to edit anything.
    expect(
      await main(page)
        .getByRole('link', { name: /bearbeiten|Bearbeiten/ })
        .count(),
    ).toBe(0);
    await expectAccessible(page, 'daily report (reports role)');

    await nav.getByRole('link', { name: 'Belegungsbericht' }).click();
    await h1('Belegungsbericht', page).waitFor();
    await main(page).getByText('Keine Einträge vorhanden.').waitFor();

    // Management routes do not exist for this user: back to the reports.
    for (const path of [
      '/admin/reservations',
      '/admin/overbooked',
      '/admin/rooms',
      annaTicketPath,
      `${annaTicketPath}/history`,
    ]) {
      await page.goto(`${server.baseUrl}${path}`);
      await h1('Berichte', page).waitFor();
      expect(new URL(page.url()).pathname, path).toMatch(/^\/admin\/?$/);
    }
    expect(log.errors.filter((e) => !/401/.test(e))).toEqual([]);
    await page.context().close();
  });
});
