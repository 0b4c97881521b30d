import type { Browser } from 'playwright-core';
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
import { weekdaysAhead } from './dates.ts';
import { createSlot, createTestRooms, FIRST_ROOM, waitForReadModels } from './test-rooms.ts';
import {
  acceptPrivacy,
  addSlot,
  DESKTOP,
  fillPersonalData,
  h1,
  main,
  PHONE,
  serveAs,
} from './visitor-pages.ts';

/**
 * One person, one key (docs/product.md#one-person-one-key): a blocked address is refused on the
 * personal data step, however it is spelled (`+tag`, case), with the library's address to write
 * to; another address goes on to the summary.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
const [day] = weekdaysAhead(1) as [Date];
const CONTACT = 'lesesaal@bibliothek.example';

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, { LIBRARY_CONTACT_EMAIL: CONTACT });
  browser = await launchBrowser();
  const { admin, idOf } = await createTestRooms(server.baseUrl);
  await createSlot(admin, idOf(FIRST_ROOM), day, '09:00', '12:00', 24);
  const blocked = await admin.request('POST', '/api/admin/blacklist', {
    json: { email: 'blocked.reader@example.at', expiredAt: '2099-12-31' },
  });
  expect(blocked.status).toBe(201);
  await waitForReadModels(admin);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('a blocked address is refused when it is entered', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`names the refusal and whom to write to (${size})`, async () => {
      const page = await openPage(browser, viewport);
      const log = watchPage(page);
      await acceptPrivacy(page, server.baseUrl);
      await page.getByRole('link', { name: `Auswählen ${FIRST_ROOM}` }).click();
      await h1(page, FIRST_ROOM).waitFor();
      await addSlot(page, day, '09:00-12:00');
      await page.getByRole('link', { name: 'Weiter zu Ihren Reservierungen' }).click();
      await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
      await h1(page, 'Ihre Daten').waitFor();
      await fillPersonalData(page, 'Blocked.Reader+lesesaal@example.at');
      await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
      const alert = main(page).getByRole('alert');
      await alert.getByText('Sie sind für Reservierungen gesperrt.', { exact: false }).waitFor();
      await alert.getByText('Fragen dazu beantwortet die Bibliothek unter').waitFor();
      expect(await alert.getByRole('link', { name: CONTACT }).getAttribute('href')).toBe(
        `mailto:${CONTACT}`,
      );
      await h1(page, 'Ihre Daten').waitFor();
      await expectAccessible(page, `personal data with a blocked address (${size}, de)`);

      await serveAs(page, 'en');
      await page.reload();
      await h1(page, 'Your data').waitFor();
      await page.getByLabel(/^First name/).fill('Erika');
      await page.getByLabel(/^Last name/).fill('Muster');
      await page.getByLabel(/^E-mail address/).fill('blocked.reader+x@EXAMPLE.at');
      await page.getByLabel(/^Telephone number/).fill('+431234');
      await main(page).getByRole('button', { name: 'Continue to the summary' }).click();
      await main(page)
        .getByRole('alert')
        .getByText('You are blocked from making reservations.', { exact: false })
        .waitFor();
      await main(page).getByRole('alert').getByRole('link', { name: CONTACT }).waitFor();
      await expectAccessible(page, `personal data with a blocked address (${size}, en)`);

      // Another address: the refusal goes with the change, and the visitor goes on.
      await page.getByLabel(/^E-mail address/).fill(`erika.${size}@example.at`);
      expect(await main(page).getByRole('alert').count()).toBe(0);
      await main(page).getByRole('button', { name: 'Continue to the summary' }).click();
      await h1(page, 'Summary').waitFor();
      // Only the deliberate refusals are logged.
      expect(log.errors.filter((e) => !/40\d/.test(e))).toEqual([]);
      await page.context().close();
    });
  }
});
