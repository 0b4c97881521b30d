// In the browser: a visitor joins the waitlist of a full slot, a seat frees,
// the matcher job offers it, the offer mail's link puts it into the cart, and the visitor books.
// The room has a seat plan of one seat: the offer's mail and the cart name the seat offered.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/app.ts';
import type { SmtpSink } from '../support/smtp-sink.ts';
import { iso, longDate, weekdaysAhead } from './dates.ts';
import {
  eventually,
  expectAccessible,
  reloadUntilVisible,
  watchPage,
  type RunningServer,
} from './harness.ts';
import { setRoomSeats } from './seat-plans.ts';
import { openStaffPage, signInAs, visitorBooks } from './staff-ux-support.ts';
import { createSlot, FIRST_ROOM, startWithWaitlistMail, waitForReadModels } from './test-rooms.ts';
import {
  DESKTOP,
  dialog,
  fillPersonalData,
  h1,
  main,
  openVisitorPage,
  PHONE,
  ticketItems,
} from './visitor-pages.ts';

let server: RunningServer;
let browser: Browser;
let sink: SmtpSink;
let stop: (() => Promise<void>) | undefined;
let admin: Client;
let roomId: string;
let slotId: string;

const [day] = weekdaysAhead(1) as [Date];
const RANGE = '09:00-12:00';
const WAITER = 'wanda.warte@example.at';

const TEXTS = {
  de: {
    join: 'Auf die Warteliste',
    email: /^Ihre E-Mail-Adresse/,
    full: 'ausgebucht',
    place: /^Sie sind auf Platz \d+ der Warteliste\./,
    mailSubject: /^Sie stehen auf der Warteliste: /,
  },
  en: {
    join: 'Join the waitlist',
    email: /^Your e-mail address/,
    full: 'fully booked',
    place: /^You are number \d+ on the waitlist\./,
    mailSubject: /^You are on the waitlist: /,
  },
} as const;

/** The staff slot page's line by language. */
const STAFF_TEXTS = {
  de: {
    line: 'Warteliste',
    waiting: 'wartet',
    removed: 'entfernt',
    remove: /^Eintrag auf Platz \d+ von der Warteliste entfernen$/,
  },
  en: {
    line: 'Waitlist',
    waiting: 'waiting',
    removed: 'removed',
    remove: /^Remove the entry in place \d+ from the waitlist$/,
  },
} as const;

/** A visitor page (visitor-pages.ts), the device in UTC beside the library in Europe/Vienna. */
const visitorPage = (viewport: { width: number; height: number }, lang: 'de' | 'en' = 'de') =>
  openVisitorPage(browser, viewport, lang, 'UTC');

/** Opens the room's month of the slot and its (full) day's dialog. */
async function openFullDay(page: Page, lang: 'de' | 'en' = 'de'): Promise<void> {
  await page.goto(
    `${server.baseUrl}/room/${roomId}?year=${day.getFullYear()}&month=${day.getMonth() + 1}`,
  );
  await main(page)
    .getByRole('button', { name: new RegExp(`, ${TEXTS[lang].full}(,|$)`) })
    .click();
  await dialog(page)
    .getByRole('button', { name: `${TEXTS[lang].join} ${RANGE}` })
    .waitFor();
}

/** Waits for a mail to an address whose text has a link like `pattern`; answers its path. */
async function mailPath(email: string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 300; i += 1) {
    for (const mail of sink.messages.filter((m) => JSON.stringify(m.to).includes(email))) {
      const match = pattern.exec(mail.text ?? '');
      if (match) return match[0];
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${email} with ${String(pattern)}`);
}
const offerPath = (email: string) =>
  mailPath(email, /\/waitlist-offer\/[0-9a-f-]{36}\/[0-9a-f]{32}/);

beforeAll(async () => {
  const rooms = await startWithWaitlistMail();
  ({ server, browser, sink, stop } = rooms);
  admin = rooms.admin;
  roomId = rooms.idOf(FIRST_ROOM);
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { waitlistOfferMinutes: 30 },
  });
  expect(services.status, await services.clone().text()).toBe(200);
  await setRoomSeats(admin, roomId, [['W1', ['window']]]);
  slotId = await createSlot(admin, roomId, day, '09:00', '12:00', 1);
  // The one seat is booked: the slot is full.
  await visitorBooks(
    server.baseUrl,
    { firstName: 'Bea', lastName: 'Belegt', email: 'bea@example.at' },
    [slotId],
  );
  await waitForReadModels(admin);
});

afterAll(async () => {
  await stop?.();
});

describe('the waitlist in the browser', () => {
  it('joins a full slot, gets the offer by mail, follows it and books', async () => {
    const page = await visitorPage(DESKTOP);
    const watch = watchPage(page);
    await openFullDay(page);
    const slots = dialog(page);
    expect(await slots.getByRole('button', { name: `Ausgebucht ${RANGE}` }).isDisabled()).toBe(
      true,
    );
    await slots.getByRole('button', { name: `Auf die Warteliste ${RANGE}` }).click();
    const email = slots.getByLabel(/^Ihre E-Mail-Adresse/);
    // Focus moves to the field; an empty or invalid address is the contract's error.
    await eventually(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
    await slots.getByRole('button', { name: `Auf die Warteliste ${RANGE}` }).click();
    await slots.getByText('Bitte füllen Sie dieses Feld aus.').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await email.fill('kein-mail');
    await slots.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.').waitFor();
    await email.fill(WAITER);
    await slots.getByRole('button', { name: `Auf die Warteliste ${RANGE}` }).click();
    const joined = slots.getByRole('status');
    await joined.getByText(/Sie sind auf Platz 1 der Warteliste/).waitFor();
    expect(await joined.evaluate((el) => el === document.activeElement)).toBe(true);

    // A reload: the page still knows the place in line (the entry's reference in the session).
    await page.reload();
    await main(page)
      .getByRole('button', { name: /, ausgebucht(,|$)/ })
      .click();
    await dialog(page)
      .getByRole('status')
      .getByText(/Sie sind auf Platz 1 der Warteliste/)
      .waitFor();

    // The same address from another browser: the server's refusal, in words.
    const other = await visitorPage(DESKTOP);
    await openFullDay(other);
    const otherSlots = dialog(other);
    await otherSlots.getByRole('button', { name: `Auf die Warteliste ${RANGE}` }).click();
    await otherSlots.getByLabel(/^Ihre E-Mail-Adresse/).fill(WAITER);
    await otherSlots.getByRole('button', { name: `Auf die Warteliste ${RANGE}` }).click();
    await otherSlots
      .getByRole('alert')
      .getByText('Diese E-Mail-Adresse ist bereits auf der Warteliste dieses Termins.')
      .waitFor();
    await other.context().close();

    // Staff see the line; then they cancel the booking and the matcher offers the seat.
    const staff = await openStaffPage(browser, DESKTOP, 'de', 'UTC');
    await signInAs(staff, server.baseUrl);
    const slotPage = `${server.baseUrl}/admin/room/${roomId}/time-slot-edit/${slotId}`;
    await staff.goto(slotPage);
    const line = staff.getByRole('region', { name: 'Warteliste' });
    await line.getByRole('cell', { name: 'wartet' }).waitFor();
    expect(await line.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      '1',
      WAITER,
      'wartet',
      'Deutsch',
      expect.stringMatching(/\d/),
      '–',
      'Entfernen',
    ]);
    await expectAccessible(staff, 'staff slot page with its waitlist');

    const tickets = await admin.get(`/api/admin/tickets?timeSlotId=${slotId}`);
    const [ticket] = ((await tickets.json()) as { content: { id: string }[] }).content;
    const cancel = await admin.request('DELETE', `/api/admin/tickets?ids=${ticket!.id}`);
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    const link = await offerPath(WAITER);
    expect(link).toContain(`/waitlist-offer/${slotId}/`);
    // The mail names the seat the offer holds beside the slot.
    await mailPath(WAITER, new RegExp(`^- ${FIRST_ROOM}, .* Uhr, Platz W1$`, 'm'));

    await reloadUntilVisible(staff, line.getByRole('cell', { name: 'Platz angeboten' }));

    // The mail's link: the seat is in the cart, and the visitor is at the personal data.
    await page.goto(`${server.baseUrl}${link}`);
    await h1(page, 'Ihre Daten').waitFor();
    expect(new URL(page.url()).pathname).toBe('/your-personal-data');
    await fillPersonalData(page, WAITER);
    await page.getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
    await h1(page, 'Zusammenfassung').waitFor();
    await ticketItems(page)
      .getByText(`${longDate(day)}, ${RANGE}`)
      .first()
      .waitFor();
    expect(await ticketItems(page).count()).toBe(1);
    await ticketItems(page).getByText('Platz W1, Fensterplatz', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Verbindlich reservieren' }).click();
    await h1(page, 'Vielen Dank für Ihre Buchung').waitFor();

    // The staff page is another client than the visitor who booked: it may read a moment early.
    await reloadUntilVisible(staff, line.getByRole('cell', { name: 'gebucht' }));
    const booked = await admin.get(`/api/admin/tickets?timeSlotId=${slotId}`);
    const rows = ((await booked.json()) as { content: { email: string; date: string }[] }).content;
    expect(rows.map((row) => [row.email, row.date])).toEqual([[WAITER, iso(day)]]);

    // The link once more: the offer is used; the page says so and leads to the room chooser.
    await page.goto(`${server.baseUrl}${link}`);
    const used = page.getByRole('alert');
    await used.getByText('Dieses Angebot gilt nicht mehr').waitFor();
    await used.getByRole('link', { name: 'Raum und Termin wählen' }).waitFor();
    expect(watch.errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    await staff.context().close();
    await page.context().close();
  });

  it("the joining mail's link leaves the line; staff take an entry off it with its button", async () => {
    /** A new visitor joins the (full) slot's line with `email`. */
    const joinAs = async (email: string) => {
      const page = await visitorPage(DESKTOP);
      await openFullDay(page);
      const slots = dialog(page);
      await slots.getByRole('button', { name: `Auf die Warteliste ${RANGE}` }).click();
      await slots.getByLabel(/^Ihre E-Mail-Adresse/).fill(email);
      await slots.getByRole('button', { name: `Auf die Warteliste ${RANGE}` }).click();
      await slots
        .getByRole('status')
        .getByText(/Sie sind auf Platz \d+ der Warteliste/)
        .waitFor();
      return page;
    };
    const page = await joinAs('lea@example.at');
    const leave = await mailPath(
      'lea@example.at',
      /\/waitlist-leave\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}/,
    );
    // The page names the slot left.
    const left = `Sie stehen nicht mehr auf der Warteliste für ${FIRST_ROOM} am ${longDate(day)}, ${RANGE}.`;
    await page.goto(`${server.baseUrl}${leave}`);
    await page.getByRole('status').getByText(left).waitFor();
    // The link once more changes nothing and says the same.
    await page.reload();
    await page.getByRole('status').getByText(left).waitFor();
    await page.context().close();

    const rudi = await joinAs('rudi@example.at');
    await rudi.context().close();
    const staff = await openStaffPage(browser, DESKTOP, 'de', 'UTC');
    await signInAs(staff, server.baseUrl);
    await staff.goto(`${server.baseUrl}/admin/room/${roomId}/time-slot-edit/${slotId}`);
    const line = staff.getByRole('region', { name: 'Warteliste' });
    await reloadUntilVisible(staff, line.getByRole('cell', { name: 'rudi@example.at' }));
    const row = line.getByRole('row', { name: /rudi@example\.at/ });
    expect(await line.getByRole('row', { name: /lea@example\.at/ }).textContent()).toContain(
      'selbst ausgetragen',
    );
    await row
      .getByRole('button', { name: /^Eintrag auf Platz \d+ von der Warteliste entfernen$/ })
      .click();
    await row.getByRole('cell', { name: 'entfernt' }).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    await expectAccessible(staff, 'staff slot page with addresses and remove buttons');
    await staff.context().close();
  });

  describe('keeps the place in line through a reload, staff remove it; no axe violations on the join form, the offer page and the line', () => {
    for (const viewport of [PHONE, DESKTOP]) {
      for (const lang of ['de', 'en'] as const) {
        it(`a visitor joins, reloads, opens an unknown offer (${lang} ${viewport.width})`, async () => {
          const page = await visitorPage(viewport, lang);
          await openFullDay(page, lang);
          await dialog(page)
            .getByRole('button', { name: `${TEXTS[lang].join} ${RANGE}` })
            .click();
          // With the field's error shown, too.
          await dialog(page)
            .getByRole('button', { name: `${TEXTS[lang].join} ${RANGE}` })
            .click();
          await dialog(page).getByLabel(TEXTS[lang].email).waitFor();
          await expectAccessible(page, `join form ${lang} ${viewport.width}`);
          await dialog(page)
            .getByLabel(TEXTS[lang].email)
            .fill(`line.${lang}.${viewport.width}@example.at`);
          await dialog(page)
            .getByRole('button', { name: `${TEXTS[lang].join} ${RANGE}` })
            .click();
          await dialog(page).getByRole('status').getByText(TEXTS[lang].place).waitFor();
          await expectAccessible(page, `joined ${lang} ${viewport.width}`);
          // The joining mail, in the page's language, with its link to leave.
          expect(
            await mailPath(
              `line.${lang}.${viewport.width}@example.at`,
              /\/waitlist-leave\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}/,
            ),
          ).toMatch(/^\/waitlist-leave\//);
          expect(
            sink.messages.find((m) =>
              JSON.stringify(m.to).includes(`line.${lang}.${viewport.width}@example.at`),
            )?.subject,
          ).toMatch(TEXTS[lang].mailSubject);
          // A reload: the page still knows the place in line.
          await page.reload();
          await main(page)
            .getByRole('button', { name: new RegExp(`, ${TEXTS[lang].full}(,|$)`) })
            .click();
          await dialog(page).getByRole('status').getByText(TEXTS[lang].place).waitFor();
          const unknown = `/waitlist-offer/${slotId}/${'0'.repeat(32)}`;
          await page.goto(`${server.baseUrl}${unknown}`);
          await page.getByRole('alert').waitFor();
          await expectAccessible(page, `offer page ${lang} ${viewport.width}`);
          await page.context().close();
        });
      }
    }

    // Staff see the entries the tests above made and take them off the line, at both sizes.
    for (const lang of ['de', 'en'] as const) {
      it(`staff take them off the line (${lang})`, async () => {
        const staff = await openStaffPage(browser, PHONE, lang, 'UTC');
        await signInAs(staff, server.baseUrl, lang);
        await staff.goto(`${server.baseUrl}/admin/room/${roomId}/time-slot-edit/${slotId}`);
        const line = staff.getByRole('region', { name: STAFF_TEXTS[lang].line });
        for (const viewport of [PHONE, DESKTOP]) {
          await staff.setViewportSize(viewport);
          const email = `line.${lang}.${viewport.width}@example.at`;
          await reloadUntilVisible(staff, line.getByRole('cell', { name: email }));
          const row = line.getByRole('row', { name: new RegExp(email.replaceAll('.', '\\.')) });
          await row.getByRole('cell', { name: STAFF_TEXTS[lang].waiting, exact: true }).waitFor();
          await row.getByRole('button', { name: STAFF_TEXTS[lang].remove }).click();
          await row.getByRole('cell', { name: STAFF_TEXTS[lang].removed, exact: true }).waitFor();
          expect(await row.getByRole('button').count()).toBe(0);
          await expectAccessible(
            staff,
            `staff slot page, an entry removed (${lang} ${viewport.width})`,
          );
        }
        await staff.context().close();
      });
    }
  });
});
