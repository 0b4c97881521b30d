// In the browser: the visitor app is installable (its manifest, icons and service worker) and a
// booking's tickets, opened once online, stay readable offline with their check-in QR codes and
// a notice that they are the saved ones (docs/product.md#installable-app), also where the browser
// believes it is online but the server cannot be reached; offline, any visitor route opens the
// saved app, and neither the display, the staff pages nor an API read the worker does not keep
// are answered from it. German and English at 375×740, axe clean.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import type { Client } from '../support/app.ts';
import { createRoom } from '../support/fixtures.ts';
import { weekdaysAhead } from './dates.ts';
import {
  eventually,
  expectAccessible,
  launchBrowser,
  newContext,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { bookAsVisitor, createSlot, signInAdmin, waitForReadModels } from './test-rooms.ts';
import { dialog, main, PHONE } from './visitor-pages.ts';

const ROOM = 'Offline-Lesesaal';
let server: RunningServer;
let browser: Browser;
let db: TestDatabase;
/** Two booked tickets in a room with check-in, each booking. */
let ownerId: string;
let otherOwnerId: string;
/** The admin's client: its reads wait for a write's position (waitForReadModels). */
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  admin = await signInAdmin(server.baseUrl);
  const roomId = await createRoom(admin, ROOM, {
    openStartValue: 0,
    openStartType: 'DAY',
    openEndValue: 30,
    openEndType: 'DAY',
  });
  // Check-in in the room: each booked ticket has a QR code.
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { checkInMinutesBefore: 1440 },
  });
  expect(services.status).toBe(200);
  const [day] = weekdaysAhead(1) as [Date];
  const first = await createSlot(admin, roomId, day, '09:00', '12:00', 5);
  const second = await createSlot(admin, roomId, day, '13:00', '16:00', 5);
  const booking = await bookAsVisitor(server.baseUrl, [first, second], {
    firstName: 'Olga',
    lastName: 'Offline',
    email: 'olga.offline@example.at',
  });
  ownerId = booking.ownerId;
  const other = await bookAsVisitor(server.baseUrl, [first, second], {
    firstName: 'Otto',
    lastName: 'Other',
    email: 'otto.other@example.at',
  });
  otherOwnerId = other.ownerId;
  await waitForReadModels(admin, other.position);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

const ticketsPage = (owner = ownerId) => `${server.baseUrl}/reservation-confirmation/${owner}`;
const qrCodes = (page: Page) => main(page).locator('img.ticket-list__qr');

/** Whether each QR code image of the page is loaded (a decoded width above 0). */
const qrLoaded = (page: Page) =>
  qrCodes(page).evaluateAll((images) =>
    images.map((image) => (image as HTMLImageElement).naturalWidth > 0),
  );

/** A visitor's phone with the service worker allowed (the harness blocks it elsewhere). */
async function phone(): Promise<Page> {
  return (await newContext(browser, PHONE, 'de', undefined, 'allow')).newPage();
}

/** The addresses the worker keeps of "my tickets", as paths. */
const saved = (page: Page) =>
  page.evaluate(async () =>
    (await (await caches.open('rr-tickets')).keys()).map((key) => new URL(key.url).pathname).sort(),
  );

/** The worker controls the page and has saved the booking's tickets and both QR codes. */
async function waitUntilSaved(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await eventually(async () => (await saved(page)).length).toBe(3);
}

describe('the installable app with offline tickets', () => {
  it('shows the tickets and QR codes of a booking opened once, offline (de and en, 375 wide)', async () => {
    const page = await phone();
    const watch = watchPage(page);
    await page.goto(ticketsPage());
    await expect.poll(() => qrLoaded(page)).toEqual([true, true]);
    await waitUntilSaved(page);
    expect(watch.errors).toEqual([]);

    await page.context().setOffline(true);
    await page.reload();
    await main(page).getByText('Sie sind offline – gespeicherter Stand von').waitFor();
    expect(await main(page).locator('.ticket-list > li').allTextContents()).toEqual([
      expect.stringContaining(ROOM),
      expect.stringContaining(ROOM),
    ]);
    await expect.poll(() => qrLoaded(page)).toEqual([true, true]);
    const notice = await main(page)
      .getByRole('status')
      .filter({ hasText: 'offline' })
      .textContent();
    expect(notice).toMatch(/gespeicherter Stand von \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}\./);
    await expectAccessible(page, 'offline tickets (de, 375)');

    // Another language, still offline: the shell holds both.
    await page.goto(`${ticketsPage()}?lang=en`);
    await main(page).getByText('You are offline – saved at').waitFor();
    await main(page).getByRole('heading', { name: 'Booked appointments' }).waitFor();
    await expect.poll(() => qrLoaded(page)).toEqual([true, true]);
    await expectAccessible(page, 'offline tickets (en, 375)');

    // Back online: the server's answer, without the notice.
    await page.context().setOffline(false);
    await page.reload();
    await main(page).getByRole('heading', { name: 'Booked appointments' }).waitFor();
    expect(await main(page).getByText('You are offline').count()).toBe(0);

    // The panic button throws the saved tickets away with the personal data in the browser.
    await page.evaluate(() => sessionStorage.setItem('personalData', '{"firstName":"Olga"}'));
    await page.reload();
    await page.getByRole('button', { name: 'Delete everything' }).click();
    await dialog(page).getByRole('button', { name: 'Yes, delete everything' }).click();
    await page.waitForURL(/reset=y/);
    expect(await saved(page)).toEqual([]);
    await page.context().close();
  });

  it('is installable: manifest, icons and an active service worker', async () => {
    const page = await phone();
    await page.goto(`${server.baseUrl}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifestUrl = new URL(href ?? '', server.baseUrl).href;
    const res = await fetch(manifestUrl);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ start_url: '/', scope: '/', display: 'standalone' });
    expect(manifest.name).toContain('Lesesaal');
    expect(manifest.short_name).toBeTruthy();
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    expect(sizes).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const png = Buffer.from(await (await fetch(new URL(icon.src, manifestUrl))).arrayBuffer());
      // The PNG signature, then the IHDR chunk's width and height.
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
    }

    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { script: registration.active?.scriptURL, scope: registration.scope };
    });
    expect(worker).toEqual({ script: `${server.baseUrl}/sw.js`, scope: `${server.baseUrl}/` });
    const sw = await fetch(`${server.baseUrl}/sw.js`);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    const csp = (await fetch(`${server.baseUrl}/`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("worker-src 'self'");
    // The staff pages are not the installable app, and open from the server under the worker.
    const admin = await (await fetch(`${server.baseUrl}/admin/`)).text();
    expect(admin).not.toContain('rel="manifest"');
    await page.goto(`${server.baseUrl}/admin/`);
    await page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await page.context().setOffline(true);
    expect(await page.reload().catch(() => null)).toBeNull();
    await page.context().close();
  });

  it("lets go of a cancelled ticket's QR code and of a booking the server no longer knows", async () => {
    const page = await phone();
    await page.goto(ticketsPage(otherOwnerId));
    await waitUntilSaved(page);
    const [cancelled, kept] = (await page.evaluate(
      async (url) => ((await (await fetch(url)).json()) as { id: string }[]).map((t) => t.id),
      `/api/owners/${otherOwnerId}/tickets`,
    )) as [string, string];
    const cancel = await fetch(
      `${server.baseUrl}/api/owners/${otherOwnerId}/tickets?ids=${cancelled}`,
      { method: 'DELETE', headers: { 'X-Requested-With': 'XMLHttpRequest' } },
    );
    expect(cancel.status).toBeLessThan(300);
    // The page's next read must see the cancellation: the worker keeps what that read answers.
    await waitForReadModels(admin, ((await cancel.json()) as { position: string }).position);
    await page.reload();
    await eventually(() => saved(page)).toEqual([
      `/api/owners/${otherOwnerId}/tickets`,
      `/api/owners/${otherOwnerId}/tickets/${kept}/check-in.svg`,
    ]);

    // The server answers 404 for the booking (as for one it no longer has): the device forgets it.
    await db.pool.query('DELETE FROM bookings WHERE owner_id = $1', [otherOwnerId]);
    await page.reload();
    await main(page).getByRole('alert').waitFor();
    await eventually(() => saved(page)).toEqual([]);
    await page.context().setOffline(true);
    await page.reload();
    expect(await main(page).locator('.ticket-list > li').count()).toBe(0);
    await page.context().close();
  });

  it('opens any visitor route from the saved app offline, and never the display or an API read it did not save', async () => {
    const page = await phone();
    await page.goto(ticketsPage());
    await waitUntilSaved(page);
    // The settings are saved by the worker as it answers them: a read of the page it controls.
    await page.reload();
    await eventually(() =>
      page.evaluate(async () => (await (await caches.open('rr-settings')).keys()).length),
    ).toBe(1);
    await page.context().setOffline(true);

    // A visitor route the device never opened: the saved visitor app.
    await page.goto(`${server.baseUrl}/my-bookings`);
    await page.getByRole('checkbox', { name: /Datenschutzhinweis gelesen/ }).check();
    await page.getByRole('button', { name: 'Bestätigen und weiter' }).click();
    await main(page).locator('input[type="email"]').waitFor();
    const api = (path: string) =>
      page.evaluate(
        (url) =>
          fetch(url).then(
            (res) => `${res.status} ${res.headers.get('x-saved-answer')}`,
            () => 'failed',
          ),
        path,
      );
    // The API: only the reads the worker keeps are answered, and marked as saved.
    expect(await api('/api/settings')).toBe('200 1');
    expect(await api(`/api/owners/${ownerId}/tickets`)).toBe('200 1');
    expect(await api('/api/rooms')).toBe('failed');
    expect(await api(`/api/owners/${otherOwnerId}/tickets`)).toBe('failed');
    // The display (of all sites and of a site) and the staff pages are not the visitor app.
    for (const path of ['/display/', '/s/haupthaus/display', '/admin/'])
      expect(await page.goto(`${server.baseUrl}${path}`).catch(() => null), path).toBeNull();
    await page.context().close();
  });

  // Last: it stops the server.
  it('says the tickets are the saved ones when the server cannot be reached though the browser is online', async () => {
    const page = await phone();
    await page.goto(ticketsPage());
    await waitUntilSaved(page);
    // A network that connects but reaches nothing (the library's server down, a captive portal):
    // the browser believes it is online, the worker's read fails and it gives the saved answer.
    await server.stop();
    await page.reload();
    await main(page).getByText('Sie sind offline – gespeicherter Stand von').waitFor();
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    expect(await main(page).locator('.ticket-list > li').allTextContents()).toEqual([
      expect.stringContaining(ROOM),
      expect.stringContaining(ROOM),
    ]);
    await page.context().close();
  });
});
