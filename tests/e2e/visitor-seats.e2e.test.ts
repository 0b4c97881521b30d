// In the browser: a visitor picks a seat in a room with a seat plan (docs/product.md#picking-a-seat),
// at 375×740, 768×1024 and 1280×900, in German and English. A window seat with a power socket
// is picked on the plan with the keyboard alone (one tab stop, arrow keys to the nearest seat,
// Enter), and the plan zooms; the list view names every seat as a screen reader reads it; "any
// seat" with a filter gets a seat that has it, and a filter no free seat has is refused with its
// message; a taken seat cannot be picked; in grey (`filter: grayscale(1)` on the page and the
// modal dialog) a free and a taken seat still differ by their mark and by how light their drawn
// pixels are; the chosen seat shows with its ticket in the cart, the summary and the confirmation. axe clean on the seat dialog in both views. A seat another visitor takes
// right as the visitor reserves it is refused with `seat__taken`: the message shows in the seat
// dialog and the seats are read again, the seat now taken. On a phone, two fingers spread apart
// zoom the plan in, and one finger then pans it (touches as the screen sends them).
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { weekdaysAhead } from './dates.ts';
import { expectAccessible, LANG_SIZE_RUNS, watchPage, type Lang } from './harness.ts';
import { setRoomSeats, type SeatRow } from './seat-plans.ts';
import { createSlot, FIRST_ROOM, startWithTestRooms, waitForReadModels } from './test-rooms.ts';
import { h1, main, openVisitorPage } from './visitor-pages.ts';

/**
 * Three rows of four seats (the server keeps a seat's attributes in the contract's order: a
 * seat's name lists them so, power before window). A2 (window and power) and B3 (the only standing desk) are taken in
 * every slot; C4 is the free window seat with power, two seats right and two rows down of A2.
 */
const SEATS: SeatRow[] = [
  ['A1', ['window']],
  ['A2', ['window', 'power']],
  ['A3', ['pc']],
  ['A4', ['quiet']],
  ['B1', ['power']],
  ['B2', ['accessible']],
  ['B3', ['standing-desk']],
  ['B4', ['power', 'lamp']],
  ['C1', []],
  ['C2', ['group-table']],
  ['C3', ['lamp']],
  ['C4', ['window', 'power']],
];
const TAKEN = ['A2', 'B3'];

const TEXTS = {
  de: {
    locale: 'de',
    free: 'frei',
    choose: 'Platz wählen',
    title: /^Platz wählen: /,
    list: 'Liste',
    plan: 'Plan',
    zoomIn: 'Vergrößern',
    zoomReset: 'Ganzer Plan',
    bookSeat: 'Diesen Platz reservieren',
    bookMatching: 'Beliebigen Platz mit diesen Merkmalen reservieren',
    power: 'mit Steckdose',
    standing: 'mit Stehpult',
    noneMatching: 'In diesem Termin ist kein freier Platz mit diesen Merkmalen mehr frei.',
    none: 'Noch kein Platz gewählt.',
    seatTaken: 'Dieser Platz ist schon vergeben. Bitte wählen Sie einen anderen Platz.',
    targetTaken: 'Platz C4, Steckdose, Fensterplatz, belegt',
    target: 'Platz C4, Steckdose, Fensterplatz, frei',
    taken: 'Platz A2, Steckdose, Fensterplatz, belegt',
    listed: [
      'Platz A1, Fensterplatz, frei',
      'Platz B2, barrierefrei, frei',
      'Platz B3, Stehpult, belegt',
      'Platz C1, frei',
    ],
    ticketSeat: 'Platz C4, Steckdose, Fensterplatz',
    powerSeat: /^Platz (B1|B4|C4), .*Steckdose/,
    continue: 'Weiter zum Warenkorb',
    toData: 'Weiter zu Ihren Daten',
    toSummary: 'Weiter zur Zusammenfassung',
    book: 'Verbindlich reservieren',
    booked: 'Vielen Dank für Ihre Buchung',
  },
  en: {
    locale: 'en-GB',
    free: 'free',
    choose: 'Choose seat',
    title: /^Choose a seat: /,
    list: 'List',
    plan: 'Plan',
    zoomIn: 'Zoom in',
    zoomReset: 'Whole plan',
    bookSeat: 'Reserve this seat',
    bookMatching: 'Reserve any seat with these features',
    power: 'with power socket',
    standing: 'with standing desk',
    noneMatching: 'No free seat with these features is left in this slot.',
    none: 'No seat chosen yet.',
    seatTaken: 'This seat is taken already. Please choose another seat.',
    targetTaken: 'Seat C4, power socket, window seat, taken',
    target: 'Seat C4, power socket, window seat, free',
    taken: 'Seat A2, power socket, window seat, taken',
    listed: [
      'Seat A1, window seat, free',
      'Seat B2, accessible, free',
      'Seat B3, standing desk, taken',
      'Seat C1, free',
    ],
    ticketSeat: 'Seat C4, power socket, window seat',
    powerSeat: /^Seat (B1|B4|C4), .*power socket/,
    continue: 'Continue to your cart',
    toData: 'Continue to your data',
    toSummary: 'Continue to the summary',
    book: 'Book now',
    booked: 'Thank you for your booking',
  },
} as const;

/**
 * One day per run, each with a morning and an afternoon slot of twelve seats; then one day per
 * language for the seat taken meanwhile.
 */
const days = weekdaysAhead(LANG_SIZE_RUNS.length + 3);
/** The last day: a midday slot right after the morning's, for a cart of consecutive slots. */
const consecutiveDay = days[LANG_SIZE_RUNS.length + 2]!;
let started: Awaited<ReturnType<typeof startWithTestRooms>>;
let roomId = '';
/** The seats' ids by label, and the morning slot's id by day. */
let seatIds = new Map<string, string>();
const morningSlots = new Map<Date, string>();

beforeAll(async () => {
  started = await startWithTestRooms();
  roomId = started.idOf(FIRST_ROOM);
  const { admin } = started;
  const ids = await setRoomSeats(admin, roomId, SEATS);
  seatIds = ids;
  for (const day of days) {
    const afternoon = day === consecutiveDay ? ['12:00', '13:00'] : ['13:00', '17:00'];
    for (const [start, end] of [['09:00', '12:00'], afternoon] as const) {
      const slot = await createSlot(admin, roomId, day, start, end, SEATS.length);
      if (start === '09:00') morningSlots.set(day, slot);
      // Staff book the taken seats for two readers.
      for (const label of TAKEN) {
        const res = await admin.request(
          'POST',
          `/api/admin/rooms/${roomId}/timeslots/${slot}/booking`,
          {
            json: {
              salutation: 'MR',
              firstName: 'Otto',
              lastName: `Platz ${label}`,
              accessibility: false,
              seatId: ids.get(label),
            },
          },
        );
        expect(res.status, await res.clone().text()).toBe(201);
      }
    }
  }
  await waitForReadModels(admin);
}, budget(240_000));

afterAll(async () => {
  await started?.stop();
});

const longDate = (lang: Lang, d: Date) =>
  new Intl.DateTimeFormat(TEXTS[lang].locale, { dateStyle: 'full' }).format(d);

/** Opens the seats of the day's slot `range` through the room calendar, by the keyboard. */
async function openSeats(page: Page, lang: Lang, day: Date, range: string) {
  const texts = TEXTS[lang];
  const dayButton = main(page).getByRole('button', {
    name: new RegExp(`^${longDate(lang, day)}, ${texts.free}(,|$)`),
  });
  await dayButton.press('Enter');
  const dayDialog = page.getByRole('dialog', { name: longDate(lang, day) });
  await dayDialog.getByRole('button', { name: `${texts.choose} ${range}` }).press('Enter');
  const seats = page.getByRole('dialog', { name: texts.title });
  await seats.getByRole('button', { name: texts.plan, exact: true }).waitFor();
  return seats;
}

/**
 * A seat's mark as drawn on the screen: its pixels' mean grey (0 black to 255 white) and whether
 * any pixel has a colour (its red, green and blue apart by more than a rounding's worth).
 */
async function meanGrey(seat: Locator): Promise<{ mean: number; colourful: boolean }> {
  const png = PNG.sync.read(await seat.locator('.seat-mark').screenshot());
  let sum = 0;
  let colourful = false;
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    sum += (r + g + b) / 3;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 8) colourful = true;
  }
  return { mean: sum / (png.data.length / 4), colourful };
}

/** The element that has the focus: its accessible name as the seat's `aria-label` or its text. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
  });

for (const [n, { lang, viewport }] of LANG_SIZE_RUNS.entries()) {
  const texts = TEXTS[lang];
  describe(`seat picking (${lang}, ${viewport.width}×${viewport.height})`, () => {
    it(
      'picks on the plan by keyboard, lists the seats, takes any seat with a filter, shows the seat with the ticket',
      async () => {
        const day = days[n]!;
        const page = await openVisitorPage(started.browser, viewport, lang);
        const watched = watchPage(page);
        await page.goto(
          `${started.server.baseUrl}/room/${roomId}?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
        );
        await h1(page, FIRST_ROOM).waitFor();
        const seats = await openSeats(page, lang, day, '09:00-12:00');
        const plan = seats.getByRole('listbox');
        await plan.getByRole('option').first().waitFor();

        // Taken seats cannot be picked, by pointer or keyboard.
        const taken = plan.getByRole('option', { name: texts.taken });
        await expect(taken.getAttribute('aria-disabled')).resolves.toBe('true');
        // (Playwright waits for an enabled element; a tap lands on it all the same.)
        await taken.click({ force: true });
        await expect(taken.getAttribute('aria-selected')).resolves.toBe('false');
        await seats.getByText(texts.none).waitFor();

        // The plan zooms in (+) and back to the whole plan (pinch does the same on a phone).
        const scale = () =>
          seats
            .locator('.seat-plan__content')
            .evaluate((content) => new DOMMatrix(getComputedStyle(content).transform).a);
        await seats.getByRole('button', { name: texts.zoomIn }).click();
        await expect.poll(scale, { timeout: budget(10_000) }).toBeGreaterThan(1.1);
        await seats.getByRole('button', { name: texts.zoomReset }).click();
        await expect.poll(scale, { timeout: budget(10_000) }).toBe(1);

        // In grey, a free and a taken seat still differ by their mark (a check and a cross) and
        // by their shape's fill pattern.
        // The seats' dialog is modal: in the top layer, which the page's filter does not reach,
        // so it takes the filter too.
        await page.addStyleTag({ content: 'html, dialog { filter: grayscale(1) }' });
        const free = plan.getByRole('option', { name: texts.target });
        const markOf = (seat: typeof free) =>
          seat.locator('.seat-mark').evaluate((mark) => ({
            icon: mark.textContent?.trim(),
            filter: getComputedStyle(mark.closest('dialog') ?? document.documentElement).filter,
          }));
        const [freeMark, takenMark] = [await markOf(free), await markOf(taken)];
        expect(freeMark.filter).toBe('grayscale(1)');
        expect(freeMark.icon).toBe('✓');
        expect(takenMark.icon).toBe('✕');
        // As the eye sees them in grey: the free seat's mark is light (outlined), the taken
        // seat's dark (filled), read from the drawn pixels, not from the page's styles.
        const [freeGrey, takenGrey] = [await meanGrey(free), await meanGrey(taken)];
        expect(freeGrey.colourful, 'the free seat is drawn in grey').toBe(false);
        expect(takenGrey.colourful, 'the taken seat is drawn in grey').toBe(false);
        expect(freeGrey.mean - takenGrey.mean).toBeGreaterThan(80);
        await page.addStyleTag({ content: 'html, dialog { filter: none }' });

        // The keyboard alone: the plan is one tab stop (on the seat last touched, the taken A2);
        // the arrow keys go to the nearest seat that way; Enter picks.
        await seats.getByRole('button', { name: texts.plan, exact: true }).focus();
        let tabs = 0;
        while (
          (await page.evaluate(() => document.activeElement?.getAttribute('role'))) !== 'option'
        ) {
          await page.keyboard.press('Tab');
          tabs += 1;
          expect(tabs, 'the plan is reached by Tab').toBeLessThan(10);
        }
        expect(await focusedName(page)).toBe(texts.taken);
        await page.keyboard.press('Enter'); // a taken seat is not picked
        await seats.getByText(texts.none).waitFor();
        for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown']) {
          await page.keyboard.press(key);
        }
        expect(await focusedName(page)).toBe(texts.target);
        await page.keyboard.press('Enter');
        await expect(free.getAttribute('aria-selected')).resolves.toBe('true');
        await expectAccessible(page, `seat plan (${lang}, ${viewport.width})`);
        // One Tab leaves the plan for the way on.
        await page.keyboard.press('Tab');
        expect(await focusedName(page)).toBe(texts.bookSeat);
        await page.keyboard.press('Enter');
        await seats.waitFor({ state: 'hidden' });
        const cart = page.locator('.cart-panel');
        await cart.getByText(texts.ticketSeat).waitFor();

        // The list: every seat with its name as a screen reader reads it; the choice of the
        // view stays on the device.
        const afternoon = await openSeats(page, lang, day, '13:00-17:00');
        await afternoon.getByRole('button', { name: texts.list }).click();
        for (const name of texts.listed) await afternoon.getByRole('radio', { name }).waitFor();
        await expect(
          afternoon.getByRole('radio', { name: texts.taken }).isDisabled(),
        ).resolves.toBe(true);
        await expect(page.evaluate(() => localStorage.getItem('seatView'))).resolves.toBe('list');
        await expectAccessible(page, `seat list (${lang}, ${viewport.width})`);

        // Any seat with a feature no free seat has: refused with its message.
        await afternoon.getByRole('checkbox', { name: texts.standing }).check();
        await expect(afternoon.getByRole('radio').count()).resolves.toBe(1);
        await afternoon.getByRole('button', { name: texts.bookMatching }).click();
        await afternoon
          .getByRole('alert')
          .getByText(texts.noneMatching, { exact: false })
          .waitFor();
        // With power: the list keeps the seats with power, the plan dims the others.
        await afternoon.getByRole('checkbox', { name: texts.standing }).uncheck();
        await afternoon.getByRole('checkbox', { name: texts.power }).check();
        await expect(afternoon.getByRole('radio').count()).resolves.toBe(4);
        await afternoon.getByRole('button', { name: texts.plan, exact: true }).click();
        await expect(afternoon.locator('.seat--dimmed').count()).resolves.toBe(8);
        await afternoon.getByRole('button', { name: texts.bookMatching }).click();
        await afternoon.waitFor({ state: 'hidden' });
        await expect
          .poll(() => cart.locator('.ticket-list__seat').allTextContents())
          .toEqual(
            expect.arrayContaining([texts.ticketSeat, expect.stringMatching(texts.powerSeat)]),
          );

        if (viewport.width === 1280) {
          // The seats on the summary and the confirmation.
          await main(page).getByRole('link', { name: texts.continue }).click();
          await main(page).getByRole('link', { name: texts.toData }).click();
          await page.locator('input[name="firstName"]').fill('Erika');
          await page.locator('input[name="lastName"]').fill('Muster');
          await page.locator('input[name="email"]').fill(`seat.${lang}@example.at`);
          await page.locator('input[name="phone"]').fill('+431234');
          await main(page).getByRole('button', { name: texts.toSummary }).click();
          await main(page).getByText(texts.ticketSeat).waitFor();
          await main(page).getByRole('button', { name: texts.book }).click();
          await h1(page, texts.booked).waitFor();
          await main(page).getByText(texts.ticketSeat).waitFor();
        }
        // The one failed request is the refusal asked for above (409).
        expect(watched.errors).toEqual([
          'Failed to load resource: the server responded with a status of 409 (Conflict)',
        ]);
        await page.context().close();
      },
      budget(180_000),
    );
  });
}

for (const [i, lang] of (['de', 'en'] as const).entries()) {
  const texts = TEXTS[lang];
  describe(`a seat taken meanwhile (${lang})`, () => {
    it(
      'shows the refusal in the seat dialog and reads the seats again',
      async () => {
        const day = days[LANG_SIZE_RUNS.length + i]!;
        const page = await openVisitorPage(started.browser, { width: 1280, height: 900 }, lang);
        const watched = watchPage(page);
        await page.goto(
          `${started.server.baseUrl}/room/${roomId}?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
        );
        await h1(page, FIRST_ROOM).waitFor();
        const seats = await openSeats(page, lang, day, '09:00-12:00');
        await seats.getByRole('button', { name: texts.list }).click();
        await seats.getByRole('radio', { name: texts.target }).check();
        // Another visitor takes the chosen seat as this one reserves it: their add reaches the
        // server first (this visitor's add waits for it).
        let takenMeanwhile = false;
        await page.route('**/api/transactions', async (route) => {
          if (route.request().method() === 'POST' && !takenMeanwhile) {
            takenMeanwhile = true;
            const other = await new Client(started.server.baseUrl).request(
              'POST',
              '/api/transactions',
              { json: { timeSlotId: morningSlots.get(day), seatId: seatIds.get('C4') } },
            );
            expect(other.status, await other.clone().text()).toBe(201);
          }
          await route.fallback();
        });
        await seats.getByRole('button', { name: texts.bookSeat }).click();
        await seats.getByRole('alert').getByText(texts.seatTaken, { exact: false }).waitFor();
        expect(takenMeanwhile).toBe(true);
        // The seats are read again: the seat shows taken and is chosen no more; the dialog stays.
        const taken = seats.getByRole('radio', { name: texts.targetTaken });
        await taken.waitFor();
        await expect(taken.isDisabled()).resolves.toBe(true);
        await seats.getByText(texts.none).waitFor();
        expect(watched.errors).toEqual([
          'Failed to load resource: the server responded with a status of 409 (Conflict)',
        ]);
        await page.context().close();
      },
      budget(120_000),
    );
  });
}

describe('the plan on a phone (de, 375×740)', () => {
  it(
    'zooms in with two fingers spread apart and pans with one',
    async () => {
      const day = days[0]!;
      const page = await openVisitorPage(started.browser, { width: 375, height: 740 }, 'de');
      const watched = watchPage(page);
      await page.goto(
        `${started.server.baseUrl}/room/${roomId}?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
      );
      await h1(page, FIRST_ROOM).waitFor();
      const seats = await openSeats(page, 'de', day, '09:00-12:00');
      await seats.getByRole('listbox').getByRole('option').first().waitFor();
      const content = seats.locator('.seat-plan__content');
      const transform = () =>
        content.evaluate((el) => {
          const m = new DOMMatrix(getComputedStyle(el).transform);
          return { scale: m.a, x: m.e, y: m.f };
        });
      expect((await transform()).scale).toBe(1);

      // Touches as a phone's screen sends them (the browser's touch input, not mouse events).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 2 });
      const viewport = seats.locator('.seat-plan__viewport');
      // The plan under the fingers: within the phone's screen (the dialog scrolls).
      await viewport.scrollIntoViewIfNeeded();
      const box = await viewport.boundingBox();
      if (!box) throw new Error('the plan is not on the screen');
      const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
      const touch = (
        type: 'touchStart' | 'touchMove' | 'touchEnd',
        points: { x: number; y: number }[],
      ) =>
        cdp.send('Input.dispatchTouchEvent', {
          type,
          touchPoints: points.map((p, id) => ({ ...p, id })),
        });
      // Two fingers 20 px apart, spread to 140 px.
      const fingers = (gap: number) => [
        { x: cx - gap / 2, y: cy },
        { x: cx + gap / 2, y: cy },
      ];
      await touch('touchStart', fingers(20));
      for (let gap = 30; gap <= 140; gap += 10) await touch('touchMove', fingers(gap));
      await touch('touchEnd', []);
      await expect
        .poll(async () => (await transform()).scale, { timeout: budget(10_000) })
        .toBeGreaterThan(1.5);

      // Zoomed in, one finger drags the plan.
      const before = await transform();
      await touch('touchStart', [{ x: cx, y: cy }]);
      for (let dx = 10; dx <= 80; dx += 10)
        await touch('touchMove', [{ x: cx + dx, y: cy + dx / 2 }]);
      await touch('touchEnd', []);
      await expect
        .poll(async () => (await transform()).x - before.x, { timeout: budget(10_000) })
        .toBeGreaterThan(20);
      expect(watched.errors).toEqual([]);
      await page.context().close();
    },
    budget(120_000),
  );
});

describe('a cart of consecutive slots (de, 1280×900)', () => {
  it(
    'offers the seat of the slot before, chosen at first, and reserves it for both',
    async () => {
      const day = consecutiveDay;
      const page = await openVisitorPage(started.browser, { width: 1280, height: 900 }, 'de');
      const watched = watchPage(page);
      await page.goto(
        `${started.server.baseUrl}/room/${roomId}?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
      );
      await h1(page, FIRST_ROOM).waitFor();
      const texts = TEXTS.de;
      const morning = await openSeats(page, 'de', day, '09:00-12:00');
      await morning.getByRole('button', { name: texts.list }).click();
      // Nothing in the cart yet: no seat is chosen at first.
      await morning.getByText(texts.none).waitFor();
      await morning.getByRole('radio', { name: texts.target }).check();
      await morning.getByRole('button', { name: texts.bookSeat }).click();
      await morning.waitFor({ state: 'hidden' });
      const cart = page.locator('.cart-panel');
      await cart.getByText(texts.ticketSeat).waitFor();

      // The slot right after: the cart's seat C4 is chosen at first, and reserved again.
      const midday = await openSeats(page, 'de', day, '12:00-13:00');
      const c4 = midday.getByRole('radio', { name: texts.target });
      await c4.waitFor();
      await expect(c4.isChecked()).resolves.toBe(true);
      await midday.getByRole('button', { name: texts.bookSeat }).click();
      await midday.waitFor({ state: 'hidden' });
      await expect
        .poll(() => cart.locator('.ticket-list__seat').allTextContents())
        .toEqual([texts.ticketSeat, texts.ticketSeat]);
      expect(watched.errors).toEqual([]);
      await page.context().close();
    },
    budget(120_000),
  );
});
