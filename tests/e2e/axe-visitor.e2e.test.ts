// axe finds no WCAG 2.0/2.1/2.2 A or AA violation on any visitor screen, at 375×740 and
// 1280×900, in German and English: one test per screen and state, walked in the order a visitor
// reaches them (each test takes the page on from where the one before left it).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openPage } from './harness.ts';
import { LANGS, VIEWPORTS } from './staff-ux-support.ts';
import { dialog, mailedPath, main, serveAs } from './visitor-pages.ts';
import {
  BLACKLISTED,
  clickAndWait,
  screen,
  settled,
  submit,
  useAxeWorld,
  visit,
  withErrors,
} from './axe-screens.ts';

const world = useAxeWorld();

/** Texts of the few controls the walk finds by name, by language. */
const TEXTS = {
  de: {
    accept: /Datenschutzhinweis gelesen/,
    confirmPrivacy: 'Bestätigen und weiter',
    nextMonth: 'Nächster Monat',
    freeDay: /, frei(,|$)/,
    reserve: /^Reservieren /,
    book: 'Verbindlich reservieren',
    booked: 'Vielen Dank für Ihre Buchung',
    cancelYes: 'Ja, Termin stornieren',
    panic: 'Alles löschen',
    chooseSeat: /^Platz wählen /,
    seats: /^Platz wählen: /,
    list: 'Liste',
  },
  en: {
    accept: /read the privacy notice/,
    confirmPrivacy: 'Confirm and continue',
    nextMonth: 'Next month',
    freeDay: /, free(,|$)/,
    reserve: /^Reserve /,
    book: 'Book now',
    booked: 'Thank you for your booking',
    cancelYes: 'Yes, cancel the appointment',
    panic: 'Delete everything',
    chooseSeat: /^Choose seat /,
    seats: /^Choose a seat: /,
    list: 'List',
  },
} as const;

// The scan as the sweep runs it (violations only, in one go) still finds what it should: a page
// with an image without a text, a field without a label and grey on white; and only the WCAG A
// and AA rules (text outside a landmark breaks a best practice, no WCAG rule).
it('the scan reports the WCAG violations of a page made to have them', async () => {
  const page = await openPage(world.browser);
  try {
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>t</title></head><body><main>' +
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">' +
        '<input type="text"><p style="color:#bbb;background:#fff">faint</p></main>' +
        '<div>outside every landmark</div></body></html>',
    );
    const found = (await axeViolations(page)).map((v) => v.split(' ')[0]);
    expect(found).toEqual(expect.arrayContaining(['image-alt', 'label', 'color-contrast']));
    expect(found).not.toContain('region');
  } finally {
    await page.context().close();
  }
});

for (const lang of LANGS) {
  describe(`axe on the visitor's screens (${lang})`, () => {
    const texts = TEXTS[lang];
    let page: Page;
    const current = () => page;
    const go = (path: string) => visit(page, world.server.baseUrl, path);

    beforeAll(async () => {
      page = await openPage(world.browser, VIEWPORTS[1]);
      await serveAs(page, lang);
    });
    afterAll(async () => {
      await page?.context().close();
    });

    screen('privacy notice', current, async () => {
      await page.goto(`${world.server.baseUrl}/`);
      await dialog(page).waitFor();
    });
    screen('privacy notice with its error', current, () =>
      clickAndWait(
        page.getByRole('button', { name: texts.confirmPrivacy }),
        page.locator('.field__error').first(),
      ),
    );
    screen('room chooser', current, async () => {
      await page.getByRole('checkbox', { name: texts.accept }).check();
      await page.getByRole('button', { name: texts.confirmPrivacy }).click();
      await settled(page);
    });
    screen('room chooser with the reset message', current, () => go('/?reset=y'));
    screen('room chooser with the expiry message', current, async () => {
      // The cart's expiry sends the visitor here with this history state (booking-context.tsx).
      await page.evaluate(() => {
        history.replaceState({ usr: { expired: true }, key: 'expired', idx: 0 }, '', '/?reset=y');
      });
      await page.reload();
      await settled(page);
    });

    const freeDay = () => main(page).getByRole('button', { name: texts.freeDay }).first();
    screen('room calendar', current, async () => {
      await go(`/room/${world.ids.room}`);
      for (let i = 0; i < 3 && !(await freeDay().isVisible()); i += 1) {
        await main(page).getByRole('button', { name: texts.nextMonth }).click();
        await page.waitForTimeout(150);
      }
    });
    screen('day dialog', current, () => clickAndWait(freeDay(), dialog(page)));
    screen('room calendar with a slot in the cart', current, async () => {
      await dialog(page).getByRole('button', { name: texts.reserve }).first().click();
      await dialog(page).waitFor({ state: 'hidden' });
      await page.locator('.info-popup').first().waitFor();
    });

    screen('your reservations (cart)', current, () => go('/your-reservations'));
    screen('delete-everything dialog', current, () =>
      clickAndWait(page.getByRole('button', { name: texts.panic }), dialog(page)),
    );

    screen('personal data form', current, async () => {
      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'hidden' });
      await go('/your-personal-data');
    });
    screen('personal data form with errors', current, () => withErrors(page));
    // The blacklist's refusal of the address, shown on this step (docs/product.md#one-person-one-key).
    screen('personal data form with a blocked address', current, async () => {
      await page.locator('input[name="firstName"]').fill('Erika');
      await page.locator('input[name="lastName"]').fill('Muster');
      await page.locator('input[name="email"]').fill(BLACKLISTED.replace('@', '+tag@'));
      await page.locator('input[name="phone"]').fill('+431234');
      await submit(page).click();
      await main(page).getByRole('alert').waitFor();
      await settled(page);
    });
    screen('summary', current, async () => {
      await page.locator('input[name="firstName"]').fill('Erika');
      await page.locator('input[name="lastName"]').fill('Muster');
      await page.locator('input[name="email"]').fill(`erika.${lang}@example.at`);
      await page.locator('input[name="phone"]').fill('+431234');
      await submit(page).click();
      await main(page).getByRole('button', { name: texts.book }).waitFor();
      await settled(page);
    });
    screen('booked confirmation', current, async () => {
      await main(page).getByRole('button', { name: texts.book }).click();
      await page.getByRole('heading', { level: 1, name: texts.booked }).waitFor();
      await settled(page);
    });

    // The owner's page of the mail's link, without the state of the booking just made.
    screen('owner page (mail link)', current, async () => {
      await go(new URL(page.url()).pathname);
      await main(page).locator('.ticket-list button').first().waitFor();
    });
    screen('cancellation confirm dialog', current, () =>
      clickAndWait(main(page).locator('.ticket-list button').first(), dialog(page)),
    );
    screen('owner page after the cancellation', current, async () => {
      await dialog(page).getByRole('button', { name: texts.cancelYes }).click();
      await main(page).locator('.notice--success').first().waitFor();
    });
    screen('owner page of an unknown link', current, () =>
      go('/reservation-confirmation/0123456789abcdef0123456789abcdef'),
    );

    screen('my bookings request', current, () => go('/my-bookings'));
    screen('my bookings request with its error', current, () => withErrors(page));
    screen('my bookings request sent', current, async () => {
      await main(page).locator('input[type="email"]').fill('anna.huber@example.org');
      await submit(page).click();
      await main(page).getByRole('status').waitFor();
    });
    screen('my bookings page (mail link)', current, async () => {
      await go(
        await mailedPath(
          world.server.mailDir,
          'anna.huber@example.org',
          /http\S+\/my-bookings\/\S+/,
        ),
      );
      await main(page).locator('.ticket-list button').first().waitFor();
    });
    // The second button of a ticket moves it (rebooking). The room has no other slot with a
    // free seat here, so once the slots are loaded the dialog says so instead of its choice.
    screen('my bookings move dialog without a free slot', current, async () => {
      await clickAndWait(main(page).locator('.ticket-list button').nth(1), dialog(page));
      await dialog(page).locator('select').waitFor({ state: 'detached' });
    });
    screen('my bookings cancellation confirm dialog', current, async () => {
      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'hidden' });
      await clickAndWait(main(page).locator('.ticket-list button').first(), dialog(page));
    });
    screen('my bookings page of an altered link', current, async () => {
      await page.keyboard.press('Escape');
      await go('/my-bookings/00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAA');
    });

    // A room with a seat plan: a slot's seats over the day's dialog, as a plan and as a list.
    const seatDialog = () => page.getByRole('dialog', { name: texts.seats });
    screen('seat picker (plan)', current, async () => {
      const { day } = world;
      await go(`/room/${world.ids.seatRoom}?year=${day.getFullYear()}&month=${day.getMonth() + 1}`);
      await clickAndWait(freeDay(), dialog(page));
      await dialog(page).getByRole('button', { name: texts.chooseSeat }).click();
      await seatDialog().getByRole('option').first().waitFor();
    });
    screen('seat picker (list)', current, () =>
      clickAndWait(
        seatDialog().getByRole('button', { name: texts.list }),
        seatDialog().getByRole('radio').first(),
      ),
    );
  });
}
