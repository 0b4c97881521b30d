import type { Browser, Page } from 'playwright-core';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInCodes } from '@rr/platform';
import { createUser } from '@rr/identity';
import { createRoom } from '../support/fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  eventually,
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { setRoomSeats } from './seat-plans.ts';
import { bookAsVisitor, createWholeDaySlot, signInAdmin, waitForReadModels } from './test-rooms.ts';
import { middayZone } from './dates.ts';
import { acceptPrivacy } from './visitor-pages.ts';

/**
 * The check-in screen in Chromium, as a user with only the check-in role: today's
 * tickets of a room with check-in, the search, check in and undo by button, check-in by a typed
 * booking number and by a typed QR reference, and axe at phone and desktop size. The slot is
 * today (00:00-23:59, check-in open from a day before) in a library zone where the test starts
 * about noon: the machine's clock decides nothing.
 * The room has a seat plan: each row names where its reader sits (the bookings, one after the
 * other, take S1, S2 and S3).
 */
const SECRET = 'e2e-check-in-secret-with-at-least-32-characters';
const ZONE = middayZone();
const ROOM = 'Check-in-Lesesaal';

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
const people = [
  { firstName: 'Anna', lastName: 'Auer' },
  { firstName: 'Bernd', lastName: 'Berger' },
  { firstName: 'Carla', lastName: 'Castro' },
];
const booked = new Map<string, { bookingNumber: string; ticketId: string; ownerId: string }>();

const main = (page: Page) => page.getByRole('main');
const rowOf = (page: Page, name: string) =>
  main(page).locator('.check-in-table tbody tr').filter({ hasText: name });

async function book(slotId: string, person: (typeof people)[number], i: number) {
  const b = await bookAsVisitor(server.baseUrl, [slotId], {
    ...person,
    email: `leser${i}@example.at`,
  });
  booked.set(person.lastName, {
    bookingNumber: b.bookingNumber,
    ticketId: b.ticketIds[0]!,
    ownerId: b.ownerId,
  });
  return b.position;
}

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { VISITOR_KEY_SECRET: SECRET, TIME_ZONE: ZONE });
  browser = await launchBrowser();
  const admin = await signInAdmin(server.baseUrl);
  const roomId = await createRoom(admin, ROOM, {
    openStartValue: 0,
    openStartType: 'DAY',
    openEndValue: 30,
    openEndType: 'DAY',
  });
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440 },
  });
  expect(services.status).toBe(200);
  await setRoomSeats(admin, roomId, [
    ['S1', []],
    ['S2', []],
    ['S3', []],
  ]);
  const slotId = await createWholeDaySlot(admin, roomId, ZONE, 10);
  let last: string | null = null;
  for (const [i, person] of people.entries()) last = await book(slotId, person, i);
  await waitForReadModels(admin, last);
  await createUser(db.pool, 'einlass', 'check-in-only-password', ['checkin']);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/`);
  await page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
  await page.getByLabel('Benutzername').fill('einlass');
  await page.getByLabel('Passwort').fill('check-in-only-password');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.getByRole('heading', { level: 1, name: 'Check-in', exact: true }).waitFor();
}

describe('the check-in screen', () => {
  it('search, check in, undo, typed booking number and reference; only this screen for the role', async () => {
    const page = await openPage(browser);
    const log = watchPage(page);
    await signIn(page);
    expect(new URL(page.url()).pathname).toBe('/admin/check-in');
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    expect((await nav.getByRole('link').allInnerTexts()).map((t) => t.trim())).toEqual([
      'Check-in',
    ]);
    await main(page).getByRole('heading', { level: 3, name: ROOM, exact: true }).waitFor();
    await expectAccessible(page, 'check-in 1280x900');

    // Search by name: only Bernd's row.
    await main(page).getByLabel('Suche nach Name oder Buchungsnummer').fill('berger');
    await eventually(() => main(page).locator('.check-in-table tbody tr').count()).toBe(1);
    const bernd = rowOf(page, 'Bernd Berger');
    await bernd.getByText('Platz S2', { exact: true }).waitFor();
    await bernd.getByRole('button', { name: 'Einchecken Bernd Berger' }).click();
    await main(page).getByText('Bernd Berger ist eingecheckt.').waitFor();
    await bernd.getByText(/^Eingecheckt um \d\d:\d\d von einlass$/).waitFor();
    await bernd.getByRole('button', { name: 'Rückgängig Bernd Berger' }).click();
    await main(page).getByText('Der Check-in von Bernd Berger wurde rückgängig gemacht.').waitFor();
    await bernd.getByText('Nicht eingecheckt').waitFor();

    // Search by booking number.
    const carla = booked.get('Castro')!;
    await main(page)
      .getByLabel('Suche nach Name oder Buchungsnummer')
      .fill(carla.bookingNumber.toLowerCase());
    await eventually(() => main(page).locator('.check-in-table tbody tr').allInnerTexts()).toEqual([
      expect.stringContaining('Carla Castro'),
    ]);
    await main(page).getByLabel('Suche nach Name oder Buchungsnummer').fill('');

    // Typed booking number, then a typed QR reference (what a scanner would read).
    const code = main(page).getByLabel('QR-Referenz oder Buchungsnummer');
    const submit = main(page).getByRole('button', { name: 'Einchecken', exact: true });
    await code.fill(booked.get('Auer')!.bookingNumber);
    await submit.click();
    await main(page).getByText('Anna Auer ist eingecheckt.').waitFor();
    await rowOf(page, 'Anna Auer')
      .getByText(/^Eingecheckt um/)
      .waitFor();
    await code.fill(checkInCodes(SECRET).codeOf(carla.ticketId));
    await submit.click();
    await main(page).getByText('Carla Castro ist eingecheckt.').waitFor();
    await rowOf(page, 'Carla Castro')
      .getByText(/^Eingecheckt um/)
      .waitFor();
    // Twice: the refusal says when and by whom.
    await code.fill(carla.bookingNumber);
    await submit.click();
    await main(page)
      .getByRole('alert')
      .getByText(/^Carla Castro ist bereits eingecheckt: um \d\d:\d\d Uhr von einlass\.$/)
      .waitFor();
    await expectAccessible(page, 'check-in after check-ins');

    // Other staff screens do not exist for this role: back to the check-in.
    for (const path of ['/admin/reservations', '/admin/rooms', '/admin/']) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: 'Check-in', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/check-in');
    }
    // The one failed request is the refused second check-in (Chromium logs every 4xx).
    expect(log.errors).toEqual([
      'Failed to load resource: the server responded with a status of 409 (Conflict)',
    ]);
    await page.context().close();
  });

  it('passes axe on a phone (375x740)', async () => {
    const page = await openPage(browser, { width: 375, height: 740 });
    await signIn(page);
    await main(page).getByRole('heading', { level: 3, name: ROOM, exact: true }).waitFor();
    await expectAccessible(page, 'check-in 375x740');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await page.context().close();
  });

  it("the visitor's confirmation page shows the ticket's QR code, read back as its reference", async () => {
    const anna = booked.get('Auer')!;
    const page = await openPage(browser, { width: 375, height: 740 });
    await acceptPrivacy(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/reservation-confirmation/${anna.ownerId}`);
    const qr = page.getByRole('img', { name: 'QR-Code zum Einchecken' });
    await qr.waitFor();
    await expect
      .poll(() => qr.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    // What a scanner at the desk reads: the picture on the screen, decoded.
    const png = PNG.sync.read(await qr.screenshot());
    const read = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(read?.data).toBe(checkInCodes(SECRET).codeOf(anna.ticketId));
    await page.context().close();
  });
});
