import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { emailKey } from '@rr/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { expectAccessible, launchBrowser, startServer, type RunningServer } from './harness.ts';
import { iso } from './dates.ts';
import { openStaffPage, signInAs, VIEWPORTS } from './staff-ux-support.ts';
import { dialog, main } from './visitor-pages.ts';

/**
 * The staff's no-show blocks (docs/product.md#no-show-rule): the blocked addresses in a table, and
 * "lift block" behind the confirm dialog, in German and English at both widths. Each run lifts
 * its own address; the API test (tests/api/no-show-rule.int.test.ts) records the lift's actor.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
const SECRET = 'no-show-blocks-e2e-secret-of-32-chars';
const LIFT = { de: 'Sperre aufheben', en: 'Lift block' } as const;
const CONFIRM = { de: 'Ja, Sperre aufheben', en: 'Yes, lift the block' } as const;
const ERASED = { de: '(Adresse gelöscht)', en: '(address erased)' } as const;
const RUNS = (['de', 'en'] as const).flatMap((lang) =>
  VIEWPORTS.map((viewport) => ({ lang, viewport })),
);

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, {
    VISITOR_KEY_SECRET: SECRET,
    NO_SHOW_LIMIT: '2',
    NO_SHOW_WINDOW_DAYS: '30',
    NO_SHOW_BLOCK_DAYS: '14',
  });
  // The record the release job keeps (tests/api/no-show-rule.int.test.ts makes it by releases):
  // two no-shows of each run's address, yesterday and today; no booking keeps its address now.
  const now = new Date();
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  for (const [i] of RUNS.entries())
    for (const day of [yesterday, now])
      await db.pool.query(
        'INSERT INTO visitor_no_shows (ticket_id, visitor_key, date) VALUES ($1, $2, $3)',
        [randomUUID(), emailKey(SECRET, `absent.${i}@example.at`), iso(day)],
      );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('staff lift a no-show block', () => {
  for (const [i, { lang, viewport }] of RUNS.entries()) {
    it(`lists the blocks and lifts one after the confirmation (${lang}, ${viewport.width} px)`, async () => {
      const page = await openStaffPage(browser, viewport, lang);
      try {
        await signInAs(page, server.baseUrl, lang);
        await page.goto(`${server.baseUrl}/admin/no-show-blocks`);
        const rows = main(page).locator('tbody tr');
        await rows.first().waitFor();
        expect(await rows.count()).toBe(RUNS.length - i);
        await rows.first().getByRole('cell', { name: ERASED[lang], exact: true }).waitFor();
        await expectAccessible(page, `no-show blocks (${lang}, ${viewport.width} px)`);
        await rows
          .first()
          .getByRole('button', { name: new RegExp(`^${LIFT[lang]} `) })
          .click();
        await dialog(page).waitFor();
        await expectAccessible(page, `lift dialog (${lang}, ${viewport.width} px)`);
        await dialog(page).getByRole('button', { name: CONFIRM[lang], exact: true }).click();
        await dialog(page).waitFor({ state: 'detached' });
        await expect.poll(() => rows.count()).toBe(RUNS.length - i - 1);
      } finally {
        await page.context().close();
      }
    });
  }
});
