import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { sleep } from '../support/wait-for.ts';
import type { Browser, Locator, Page } from 'playwright-core';
import { longDate, monthTitle } from './dates.ts';
import { newContext, serveDocumentAs } from './harness.ts';

/** Page helpers of the visitor app (`/`), shared by the browser tests that book as a visitor. */

export const main = (page: Page) => page.getByRole('main');
export const h1 = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name });
export const dialog = (page: Page) => page.getByRole('dialog');

/** The cart beside the room calendar (below it on phones). */
export const cartPanel = (page: Page) => page.getByRole('complementary', { name: 'Ihr Warenkorb' });

/** The tickets listed in the main content (the wizard is a list too). */
export const ticketItems = (page: Page) => main(page).locator('.ticket-list > li');

/** The headings of the room chooser's cards: the rooms' names, in the order shown. */
export const roomNames = (page: Page) =>
  main(page).getByRole('heading', { level: 2 }).allTextContents();

/**
 * A day of the room calendar that has a slot with a free seat (its name may go on with marks,
 * e.g. ", Termin in Ihrem Warenkorb").
 */
export const dayButton = (page: Page, d: Date): Locator =>
  main(page).getByRole('button', { name: new RegExp(`^${longDate(d)}, frei(,|$)`) });

/** Every day of the shown month that has a slot with a free seat, in calendar order. */
export const freeDayButtons = (page: Page): Locator =>
  main(page).getByRole('button', { name: /, frei(,|$)/ });

/**
 * Accepts the privacy notice and waits for the room chooser. With `baseUrl` it opens `/` of that
 * server first; without, the page must show the notice already.
 */
export async function acceptPrivacy(page: Page, baseUrl?: string): Promise<void> {
  if (baseUrl !== undefined) await page.goto(`${baseUrl}/`);
  await page.getByRole('checkbox', { name: /Datenschutzhinweis gelesen/ }).check();
  await page.getByRole('button', { name: 'Bestätigen und weiter' }).click();
  await h1(page, 'Platz reservieren').waitFor();
}

/**
 * Shows the month of a day in the room calendar (the calendar starts at the current month). Each
 * step waits for the month it asked for before it asks for the next: on a busy machine a second
 * click before the first month shows would skip past the month wanted.
 */
export async function showMonthOf(page: Page, d: Date): Promise<void> {
  const heading = main(page).getByRole('heading', { level: 2, name: monthTitle(d) });
  const month = main(page).locator('.calendar__month');
  for (let i = 0; i < 3 && !(await heading.isVisible()); i += 1) {
    const shown = (await month.textContent()) ?? '';
    await main(page).getByRole('button', { name: 'Nächster Monat' }).click();
    if (shown !== '') await month.filter({ hasNotText: shown }).waitFor();
  }
  await heading.waitFor();
}

/* ---- The visitor UX pages (tests/e2e/visitor-ux*.e2e.test.ts) ---- */

export const PHONE = { width: 375, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 900 } as const;

/**
 * A visitor page in `lang` at `viewport`, the privacy notice accepted (it is tested elsewhere);
 * `timezoneId` is the device's zone (default the machine's), e.g. 'UTC' beside a library in Vienna.
 */
export async function openVisitorPage(
  browser: Browser,
  viewport: { width: number; height: number },
  lang: 'de' | 'en' = 'de',
  timezoneId?: string,
): Promise<Page> {
  const context = await newContext(browser, viewport, lang, timezoneId);
  await context.addInitScript(() => sessionStorage.setItem('privacyAccepted', 'true'));
  const page = await context.newPage();
  if (lang !== 'de') await serveAs(page, lang);
  return page;
}

/**
 * Serves the visitor app's page in `lang` (the app reads its language from the document) and
 * with `data` as further attributes of its root element (e.g. `data-faq-url`, plain values),
 * from now on: a reload after this switches the language and keeps the session and the history
 * state.
 */
export const serveAs = (
  page: Page,
  lang: 'de' | 'en',
  data: Readonly<Record<string, string>> = {},
): Promise<void> => serveDocumentAs(page, lang, data);

/** Adds the slot `range` of day `d` to the cart through the day dialog of the room calendar. */
export async function addSlot(page: Page, d: Date, range: string): Promise<void> {
  await showMonthOf(page, d);
  await dayButton(page, d).click();
  await dialog(page)
    .getByRole('heading', { name: longDate(d) })
    .waitFor();
  await dialog(page)
    .getByRole('button', { name: `Reservieren ${range}` })
    .click();
  try {
    await dialog(page).waitFor({ state: 'hidden' });
  } catch (err) {
    // What the dialog says instead (a refusal, a message of the server) tells a failure apart.
    const text = await dialog(page)
      .innerText({ timeout: 1000 })
      .catch(() => '');
    throw new Error(`the day dialog stayed open after "Reservieren ${range}": ${text}`, {
      cause: err,
    });
  }
  // The popup comes with the server's answer, the cart beside the calendar with its reading
  // after: until then the cart grows, and a click on what follows it may land on the new ticket.
  const [start = range] = range.split('-');
  await cartPanel(page)
    .locator('.ticket-list > li')
    .filter({ hasText: longDate(d) })
    .filter({ hasText: start })
    .first()
    .waitFor();
}

/** Fills the personal data form with a valid visitor of this e-mail address. */
export async function fillPersonalData(page: Page, email: string): Promise<void> {
  await page.getByLabel(/^Vorname/).fill('Erika');
  await page.getByLabel(/^Nachname/).fill('Muster');
  await page.getByLabel(/^E-Mail-Adresse/).fill(email);
  await page.getByLabel(/^Telefonnummer/).fill('+431234');
}

/** The states of the wizard's steps as shown, e.g. `['done', 'current', 'todo', 'todo']`. */
export const wizardStates = (page: Page): Promise<string[]> =>
  page
    .locator('.wizard__step')
    .evaluateAll((items: Element[]) =>
      items.map((item) => /wizard__step--(\w+)/.exec(item.className)?.[1] ?? ''),
    );

/** Whether two elements' boxes on the screen overlap (hidden elements never do). */
export async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) return false;
  return (
    boxA.x < boxB.x + boxB.width &&
    boxB.x < boxA.x + boxA.width &&
    boxA.y < boxB.y + boxB.height &&
    boxB.y < boxA.y + boxA.height
  );
}

/**
 * The controls (links, buttons, fields, labels) and the header that an info popup covers on the
 * screen now, by tag and text; empty when none is covered. Fails when no popup shows.
 */
export async function popupCollisions(page: Page): Promise<string[]> {
  await page.locator('.info-popup').first().waitFor();
  return page.evaluate(() => {
    const popups = [...document.querySelectorAll('.info-popup')].map((el) =>
      el.getBoundingClientRect(),
    );
    const controls = [
      ...document.querySelectorAll(
        'header, a[href], button, input, select, textarea, label, [tabindex]:not([tabindex="-1"])',
      ),
    ].filter((el) => !el.closest('.info-popups'));
    const hits: string[] = [];
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      for (const p of popups) {
        if (r.left < p.right && p.left < r.right && r.top < p.bottom && p.top < r.bottom) {
          const text = (el.textContent ?? el.getAttribute('aria-label') ?? '').trim();
          hits.push(`${el.tagName.toLowerCase()} "${text.replace(/\s+/g, ' ').slice(0, 40)}"`);
        }
      }
    }
    return hits;
  });
}

/**
 * The path of a link in a mail the server wrote to `mailDir` (no SMTP) for `email`: the newest
 * match of `pattern` (e.g. `/http\S+\/my-bookings\/\S+/`), waited for.
 */
export async function mailedPath(mailDir: string, email: string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 200; i += 1) {
    const names = await readdir(mailDir).catch(() => [] as string[]);
    const found: { at: number; path: string }[] = [];
    for (const name of names.filter((n) => n.endsWith('.eml'))) {
      const file = path.join(mailDir, name);
      const mail = await simpleParser(await readFile(file));
      const match = pattern.exec(mail.text ?? '');
      if (match && JSON.stringify(mail.to ?? '').includes(email))
        found.push({ at: (await stat(file)).mtimeMs, path: new URL(match[0]).pathname });
    }
    if (found.length) return found.sort((a, b) => b.at - a.at)[0]!.path;
    await sleep(100);
  }
  throw new Error(`no mail to ${email} with ${String(pattern)}`);
}
