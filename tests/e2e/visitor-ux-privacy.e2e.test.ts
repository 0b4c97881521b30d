import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  startServer,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { createTestRooms } from './test-rooms.ts';
import { acceptPrivacy, DESKTOP, PHONE, serveAs } from './visitor-pages.ts';

/**
 * Without a FAQ or privacy address "Mehr zum Datenschutz" pointed at the
 * notice itself. Now the notice shows the privacy text (overridable through the label
 * override), or links to `data-privacy-url` when it is set.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db);
  browser = await launchBrowser();
  await createTestRooms(server.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

const notice = (page: Page) =>
  page.getByRole('dialog', { name: /Datenschutzhinweis|Privacy notice/ });

describe('the privacy notice shows its text or a real address', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`shows the privacy text inline without an address (${size})`, async () => {
      const page = await openPage(browser, viewport);
      const log = watchPage(page);
      await page.goto(`${server.baseUrl}/`);
      await notice(page).waitFor();
      // No link that leads back to the notice itself.
      expect(await notice(page).locator('a[href^="#"]').count()).toBe(0);
      const more = notice(page).getByText('Mehr zum Datenschutz');
      await more.click();
      await notice(page)
        .getByText(/am Tag nach dem Termin gelöscht/)
        .waitFor();
      await expectAccessible(page, `privacy notice with its text (${size}, de)`);

      await serveAs(page, 'en');
      await page.reload();
      await notice(page).getByText('More about privacy').click();
      await notice(page)
        .getByText(/deleted on the day after the appointment/)
        .waitFor();
      await expectAccessible(page, `privacy notice with its text (${size}, en)`);
      expect(log.errors).toEqual([]);
      await page.context().close();
    });
  }

  it('takes its text from the label override', async () => {
    const page = await openPage(browser, PHONE);
    await serveAs(page, 'de', {
      'data-label-override': '{"privacy:details":"Unser eigener Datenschutztext."}',
    });
    await page.goto(`${server.baseUrl}/`);
    await notice(page).getByText('Mehr zum Datenschutz').click();
    await notice(page).getByText('Unser eigener Datenschutztext.').waitFor();
    await page.context().close();
  });

  it('links to the configured privacy address', async () => {
    const page = await openPage(browser, DESKTOP);
    const log = watchPage(page);
    await serveAs(page, 'de', { 'data-privacy-url': 'https://example.org/datenschutz' });
    await page.goto(`${server.baseUrl}/`);
    const link = notice(page).getByRole('link', { name: /Mehr zum Datenschutz/ });
    expect(await link.getAttribute('href')).toBe('https://example.org/datenschutz');
    expect(await notice(page).locator('details').count()).toBe(0);
    await expectAccessible(page, 'privacy notice with an address');
    await acceptPrivacy(page);
    expect(log.errors).toEqual([]);
    await page.context().close();
  });
});
