import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { Client } from '../support/app.ts';
import { E2E_ADMIN, newContext, serveDocumentAs, type Lang } from './harness.ts';
import { bookAsVisitor } from './test-rooms.ts';

export { LANGS, type Lang } from './harness.ts';

/** The two sizes of the staff screens' layout checks. */
export const PHONE = { width: 375, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 900 } as const;
export const VIEWPORTS = [PHONE, DESKTOP] as const;

/** The sign-in texts of the staff app by language. */
export const SIGN_IN = {
  de: { title: 'Anmelden', username: 'Benutzername', password: 'Passwort', submit: 'Anmelden' },
  en: { title: 'Sign in', username: 'Username', password: 'Password', submit: 'Sign in' },
} as const;

/**
 * A page in a fresh browser context whose staff app speaks `lang`: the app takes its language
 * from the page's `<html lang>` (docs/product.md#configuration), so the admin page is served with that one.
 */
export async function openStaffPage(
  browser: Browser,
  viewport: { width: number; height: number },
  lang: Lang = 'de',
  timezoneId?: string,
): Promise<Page> {
  const page = await (await newContext(browser, viewport, lang, timezoneId)).newPage();
  if (lang !== 'de') await serveDocumentAs(page, lang, {}, '/admin');
  return page;
}

/** Signs the page in as the e2e admin through the sign-in form. */
export async function signInAs(page: Page, baseUrl: string, lang: Lang = 'de'): Promise<void> {
  const texts = SIGN_IN[lang];
  await page.goto(`${baseUrl}/admin/`);
  await page.getByRole('heading', { level: 1, name: texts.title, exact: true }).waitFor();
  await page.getByLabel(texts.username).fill(E2E_ADMIN.username);
  await page.getByLabel(texts.password).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
  await page.getByRole('navigation').first().waitFor();
}

/** Failed requests (status 400 and above) and console errors of a page, to assert a clean run. */
export function watchRequests(page: Page): { failed: string[]; errors: string[] } {
  const failed: string[] = [];
  const errors: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { failed, errors };
}

/** A visitor books the slots in one cart; answers the write position. */
export async function visitorBooks(
  baseUrl: string,
  person: { firstName: string; lastName: string; email: string },
  slotIds: string[],
): Promise<string | null> {
  return (await bookAsVisitor(baseUrl, slotIds, { ...person, organisation: 'Testinstitut' }))
    .position;
}

/** A visitor only holds the slot in a cart (a 15-minute hold, not booked); answers the position. */
export async function visitorHolds(baseUrl: string, slotId: string): Promise<string | null> {
  const visitor = new Client(baseUrl);
  const cart = await visitor.request('POST', '/api/transactions', { json: { timeSlotId: slotId } });
  expect(cart.status, await cart.clone().text()).toBe(201);
  return visitor.lastPosition;
}
