// The live occupancy display (`/display/`, data-interface="display") in the
// browser: rooms with their free seats, a booking shown through the live stream, one room by
// data-room-id, German and English, accessible on a foyer screen's sizes, long names broken at a
// syllable with a hyphen. The library runs in a zone where the test starts about noon (so a slot
// runs now, whatever the machine's hour) and the screen in UTC, hours away: its clock shows the
// library's time.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import {
  expectAccessible,
  newContext,
  startBrowserTest,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { libraryMinutes, libraryTime, middayZone } from './dates.ts';
import { visitorBooks } from './staff-ux-support.ts';
import { signInAdmin, waitForReadModels } from './test-rooms.ts';
import { serveAs } from './visitor-pages.ts';
import { budget } from '../support/time-budget.ts';

let server: RunningServer;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let admin: Client;
let foyerRoom = '';
let firstSlot = '';
const longRooms = { de: '', en: '' };

const ZONE = middayZone();
const FOYER_ROOM = 'Lesesaal im Foyer';
const QUIET_ROOM = 'Stiller Raum';
/** A room name of one long word for each language: on a narrow screen it must break. */
const LONG_ROOMS = { de: 'Zeitschriftenlesesaal', en: 'Interdisciplinary' } as const;
const SCREENS = [
  { width: 1280, height: 900 },
  { width: 1920, height: 1080 },
] as const;
const TEXTS = {
  de: { title: 'Freie Plätze jetzt', free: (n: number) => `${n} Plätze frei` },
  en: { title: 'Seats free now', free: (n: number) => `${n} seats free` },
} as const;

const h2 = (hh: number) => `${String(hh).padStart(2, '0')}:00`;

beforeAll(async () => {
  ({ server, browser, stop } = await startBrowserTest({ TIME_ZONE: ZONE }));
  admin = await signInAdmin(server.baseUrl);
  // Open for visitors from today, so the slot running now can be booked.
  foyerRoom = await createRoom(admin, FOYER_ROOM, { capacity: 5, openStartValue: 0 });
  await createRoom(admin, QUIET_ROOM, { capacity: 3 });
  longRooms.de = await createRoom(admin, LONG_ROOMS.de, { capacity: 3 });
  longRooms.en = await createRoom(admin, LONG_ROOMS.en, { capacity: 3 });
  // The machine's clock is the server's: a slot from this hour of the library for two hours
  // (running now) and one after it.
  const now = libraryTime(new Date(), ZONE);
  firstSlot = await createSlot(admin, foyerRoom, now.date, h2(now.hour), h2(now.hour + 2), 5);
  await createSlot(admin, foyerRoom, now.date, h2(now.hour + 2), h2(now.hour + 3), 4);
  await waitForReadModels(admin);
});

afterAll(() => stop?.());

/** The headings' texts as read: without the soft hyphens that only show at a line's end. */
const headingTexts = async (page: Page) =>
  (await page.getByRole('heading', { level: 2 }).allInnerTexts()).map((text) =>
    text.replaceAll('\u00ad', ''),
  );

/** The panel of a room on the display, by its name. */
const panel = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** A display page in `lang` on a screen whose device runs in UTC (not the library's zone). */
async function openDisplay(
  viewport: { width: number; height: number },
  lang: 'de' | 'en',
  data: Readonly<Record<string, string>> = {},
): Promise<Page> {
  const page = await (await newContext(browser, viewport, lang, 'UTC')).newPage();
  if (lang !== 'de' || Object.keys(data).length) await serveAs(page, lang, data);
  return page;
}

/**
 * Where the element's text breaks into lines, from its characters' boxes: for each line break
 * the character that ends the line, and whether it is drawn (a soft hyphen is, only at a break).
 */
const lineEnds = (element: Locator) =>
  element.evaluate((el) => {
    const chars: { char: string; top: number; width: number }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        // A soft hyphen at a break has a box for the drawn hyphen, and the character after it
        // one on the line before too: a character's own line is its last box.
        const rects = [...range.getClientRects()];
        const last = rects.at(-1);
        const width = Math.max(0, ...rects.map((r) => r.width));
        if (last) chars.push({ char: text[i]!, top: Math.round(last.top), width });
      }
    }
    const ends: { char: string; drawn: boolean }[] = [];
    for (let i = 1; i < chars.length; i++) {
      if (chars[i]!.top > chars[i - 1]!.top) {
        ends.push({ char: chars[i - 1]!.char, drawn: chars[i - 1]!.width > 0 });
      }
    }
    return ends;
  });

describe('the occupancy display', () => {
  it('shows every room with its free seats, without navigation, and a booking as soon as the live stream reports it', async () => {
    const page = await openDisplay(SCREENS[1], 'de');
    const watched = watchPage(page);
    const opened = new Date();
    const stream = page.waitForResponse((r) => r.url().includes('/api/display/stream'));
    await page.goto(`${server.baseUrl}/display/`);
    // The display follows the live stream of what it shows.
    const streamed = await stream;
    expect(streamed.status()).toBe(200);
    expect(await streamed.headerValue('content-type')).toMatch(/^text\/event-stream/);
    await page.getByRole('heading', { level: 1, name: TEXTS.de.title }).waitFor();
    await panel(page, QUIET_ROOM).waitFor();
    expect(await headingTexts(page)).toEqual([
      FOYER_ROOM,
      QUIET_ROOM,
      LONG_ROOMS.de,
      LONG_ROOMS.en,
    ]);
    // The clock is the library's, not the device's (UTC).
    const clock = await page.locator('.display__time').textContent();
    expect(libraryMinutes(opened, new Date(), ZONE)).toContain(clock);
    const foyer = panel(page, FOYER_ROOM);
    await foyer.getByText(TEXTS.de.free(5)).first().waitFor();
    // A long room name breaks at a syllable with a hyphen, by the rules of the page's language.
    expect(
      await foyer.getByRole('heading', { level: 2 }).evaluate((el) => ({
        hyphens: getComputedStyle(el).hyphens,
        lang: el.closest('[lang]')?.getAttribute('lang'),
      })),
    ).toEqual({ hyphens: 'auto', lang: 'de' });
    // A room without slots says so in words.
    await panel(page, QUIET_ROOM).getByText('Heute keine weiteren Termine').waitFor();
    // A kiosk: nothing to click.
    expect(await page.getByRole('link').count()).toBe(0);
    expect(await page.getByRole('button').count()).toBe(0);
    // Readable from three metres: the number of free seats now in large type on a full-HD screen.
    const size = await foyer
      .locator('.display-seats--large .display-seats__count')
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(size).toBeGreaterThanOrEqual(64);

    await visitorBooks(
      server.baseUrl,
      { firstName: 'Dora', lastName: 'Displaytest', email: 'dora.display@example.org' },
      [firstSlot],
    );
    // The live stream reports the booking: it shows without a reload, within a second and the
    // read of the display, before the 5 s poll would (stretched by the run's slowness: how soon
    // is the product's promise, not this machine's).
    await expect
      .poll(() => foyer.getByText(TEXTS.de.free(4)).count(), {
        timeout: budget(2_500),
        interval: 100,
      })
      .toBeGreaterThan(0);
    // No personal data on the screen.
    expect(await page.locator('body').innerText()).not.toContain('Displaytest');
    expect(watched.errors).toEqual([]);
    await page.context().close();
  });

  it.each(['de', 'en'] as const)(
    'shows one room by data-room-id (%s), accessible on 1280×900 and 1920×1080',
    async (lang) => {
      for (const screen of SCREENS) {
        const label = `display ${lang} ${screen.width}×${screen.height}`;
        const page = await openDisplay(screen, lang, { 'data-room-id': foyerRoom });
        await page.goto(`${server.baseUrl}/display/`);
        await page.getByRole('heading', { level: 1, name: TEXTS[lang].title }).waitFor();
        await panel(page, FOYER_ROOM).waitFor();
        expect(await headingTexts(page), label).toEqual([FOYER_ROOM]);
        await panel(page, FOYER_ROOM).getByText(TEXTS[lang].free(4)).first().waitFor();
        expect(await page.title(), label).toContain(TEXTS[lang].title);
        await expectAccessible(page, label);
        await page.context().close();
      }
    },
  );

  it('says so when the room of data-room-id is not known', async () => {
    const page = await openDisplay(SCREENS[0], 'de', {
      'data-room-id': '00000000-0000-4000-8000-000000000000',
    });
    await page.goto(`${server.baseUrl}/display/`);
    await page.getByRole('alert').getByText('Dieser Raum ist nicht bekannt.').waitFor();
    await expectAccessible(page, 'display, unknown room');
    await page.context().close();
  });

  it.each(['de', 'en'] as const)(
    'breaks a long room name at a syllable with a visible hyphen, without a dictionary (%s)',
    async (lang) => {
      // A narrow screen (a tablet in portrait, 360 px): the one word is wider than its panel.
      const page = await openDisplay({ width: 360, height: 800 }, lang, {
        'data-room-id': longRooms[lang],
      });
      await page.goto(`${server.baseUrl}/display/`);
      const name = panel(page, LONG_ROOMS[lang]).getByRole('heading', { level: 2 });
      await name.waitFor();
      // Each line of the name ends at a soft hyphen (U+00AD), drawn as a hyphen: never
      // mid-syllable, never without one.
      await expect
        .poll(() => lineEnds(name), { timeout: budget(10_000) })
        .toEqual(expect.arrayContaining([{ char: '\u00ad', drawn: true }]));
      const ends = await lineEnds(name);
      expect(ends.length, lang).toBeGreaterThan(0);
      for (const end of ends) expect(end, lang).toEqual({ char: '\u00ad', drawn: true });
      // Assistive technology gets the name itself: in Chromium's accessibility tree the heading
      // and its region are named without the soft hyphens.
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = await cdp.send('Accessibility.getFullAXTree');
      const named = nodes
        .filter((node) => ['heading', 'region'].includes(String(node.role?.value)))
        .map((node) => `${String(node.role?.value)}: ${String(node.name?.value)}`);
      expect(named).toEqual([
        `heading: ${TEXTS[lang].title}`,
        `region: ${LONG_ROOMS[lang]}`,
        `heading: ${LONG_ROOMS[lang]}`,
      ]);
      // And a copy of it is the word as written.
      const copied = await name.evaluate((el) => {
        document.getSelection()!.selectAllChildren(el);
        const event = new ClipboardEvent('copy', {
          clipboardData: new DataTransfer(),
          cancelable: true,
        });
        document.dispatchEvent(event);
        return event.clipboardData!.getData('text/plain');
      });
      expect(copied).toBe(LONG_ROOMS[lang]);
      await expectAccessible(page, `display with a hyphenated name (${lang}, 360 px)`);
      await page.context().close();
    },
  );
});
