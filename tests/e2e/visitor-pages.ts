import type { Locator, Page } from 'playwright-core';
import { longDate, monthTitle } from './dates.ts';

/** Page helpers of the visitor app (`/`), shared by the browser tests that book as a visitor. */

export const main = (page: Page) => page.getByRole('main');
export const h1 = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name });
export const dialog = (page: Page) => page.getByRole('dialog');

/** The tickets listed in the main content (the wizard is a list too). */
export const ticketItems = (page: Page) => main(page).locator('.ticket-list > li');

/** The headings of the room chooser's cards: the rooms' names, in the order shown. */
export const roomNames = (page: Page) =>
  main(page).getByRole('heading', { level: 2 }).allTextContents();

/** A day of the room calendar that has a slot with a free seat. */
export const dayButton = (page: Page, d: Date): Locator =>
  main(page).getByRole('button', { name: `${longDate(d)}, frei`, exact: true });

/** Every day of the shown month that has a slot with a free seat, in calendar order. */
export const freeDayButtons = (page: Page): Locator =>
  main(page).getByRole('button', { name: /, frei$/ });

/**
 * Accepts the privacy notice and waits for the room chooser. With `baseUrl` it opens `/` of that
 * server first; without, the page must show the notice already.
 */
export async function acceptPrivacy(page: Page, baseUrl?: string): Promise<void> {
  if (baseUrl !== undefined) await page.goto(`${baseUrl}/`);
  await page.getByRole('checkbox', { name: /Datenschutzhinweis gelesen/ }).check();
  await page.getByRole('button', { name: 'Bestätigen und weiter' }).click();
  await h1(page, 'Lesesaal reservieren').waitFor();
}

/** Shows the month of a day in the room calendar (the calendar starts at the current month). */
export async function showMonthOf(page: Page, d: Date): Promise<void> {
  const heading = main(page).getByRole('heading', { level: 2, name: monthTitle(d) });
  for (let i = 0; i < 3 && !(await heading.isVisible()); i += 1) {
    await main(page).getByRole('button', { name: 'Nächster Monat' }).click();
    await page.waitForTimeout(50);
  }
  await heading.waitFor();
}
