import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { emailKey } from '@rr/platform';
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
import { iso, shown, weekdaysAhead } from './dates.ts';
import {
  createSlot,
  createTestRooms,
  FIRST_ROOM,
  SECOND_ROOM,
  waitForReadModels,
} from './test-rooms.ts';
import { openStaffPage, signInAs } from './staff-ux-support.ts';
import type { Client } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';
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
 * The visitor's address is refused on the personal data step, before the summary: a blocked
 * address however it is spelled (`+tag`, case; docs/product.md#one-person-one-key), with the
 * library's address to write to; an address blocked by the no-show rule, with its last blocked
 * day (docs/product.md#no-show-rule); in a members-only room (docs/product.md#room-services), which
 * names its domains on its page, an address at another domain; an admitted one goes on.
 */

let db: TestDatabase;
let server: RunningServer;
let browser: Browser;
let admin: Client;
let secondRoom: string;
const [day] = weekdaysAhead(1) as [Date];
const CONTACT = 'lesesaal@bibliothek.example';
const SECRET = 'visitor-address-e2e-secret-of-32-chars';
/** Two no-shows yesterday and today (the rule 2 in 30 days): blocked for 14 days from today. */
const ABSENT = 'absent.reader@example.at';
const now = new Date();
const blockedUntil = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 13);

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServer(db, {
    LIBRARY_CONTACT_EMAIL: CONTACT,
    VISITOR_KEY_SECRET: SECRET,
    NO_SHOW_LIMIT: '2',
    NO_SHOW_WINDOW_DAYS: '30',
    NO_SHOW_BLOCK_DAYS: '14',
  });
  // The record the no-show release job keeps (tests/api/no-show-rule.int.test.ts makes it by
  // releases): two no-shows of the address, yesterday and today.
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  for (const day of [yesterday, now])
    await db.pool.query(
      'INSERT INTO visitor_no_shows (ticket_id, visitor_key, date) VALUES ($1, $2, $3)',
      [randomUUID(), emailKey(SECRET, ABSENT), iso(day)],
    );
  browser = await launchBrowser();
  const rooms = await createTestRooms(server.baseUrl);
  admin = rooms.admin;
  const { idOf } = rooms;
  secondRoom = idOf(SECOND_ROOM);
  await createSlot(admin, idOf(FIRST_ROOM), day, '09:00', '12:00', 24);
  const members = await admin.request('PUT', `/api/admin/rooms/${idOf(FIRST_ROOM)}/services`, {
    json: { allowedEmailDomains: ['example.at', 'student.example.at'] },
  });
  expect(members.status).toBe(200);
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

describe('a refused address is named when it is entered', () => {
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
      await main(page)
        .getByText(
          'Nur für Mitglieder: Reservieren können Sie mit einer E-Mail-Adresse von example.at, student.example.at.',
        )
        .waitFor();
      await addSlot(page, day, '09:00-12:00');
      await page.getByRole('link', { name: 'Weiter zum Warenkorb' }).click();
      await main(page).getByRole('link', { name: 'Weiter zu Ihren Daten' }).click();
      await h1(page, 'Ihre Daten').waitFor();
      await fillPersonalData(page, 'Blocked.Reader+lesesaal@example.at');
      await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
      const alert = main(page).getByRole('alert');
      await alert.getByText('Sie sind für Buchungen gesperrt.', { exact: false }).waitFor();
      await alert.getByText('Fragen dazu beantwortet die Bibliothek unter').waitFor();
      expect(await alert.getByRole('link', { name: CONTACT }).getAttribute('href')).toBe(
        `mailto:${CONTACT}`,
      );
      await h1(page, 'Ihre Daten').waitFor();
      await expectAccessible(page, `personal data with a blocked address (${size}, de)`);
      await page.getByLabel(/^E-Mail-Adresse/).fill('Absent.Reader+desk@example.at');
      await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
      await main(page)
        .getByRole('alert')
        .getByText(
          `Sie haben zu viele Termine nicht wahrgenommen und können bis einschließlich ${shown(blockedUntil)} nicht reservieren.`,
        )
        .waitFor();
      await main(page).getByRole('alert').getByRole('link', { name: CONTACT }).waitFor();
      await expectAccessible(page, `personal data after too many no-shows (${size}, de)`);
      await page.getByLabel(/^E-Mail-Adresse/).fill('erika@gmail.com');
      await main(page).getByRole('button', { name: 'Weiter zur Zusammenfassung' }).click();
      await main(page)
        .getByRole('alert')
        .getByText(
          'Dieser Raum steht nur Mitgliedern offen: Bitte verwenden Sie eine E-Mail-Adresse von example.at, student.example.at.',
        )
        .waitFor();

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
        .getByText('You are blocked from booking.', { exact: false })
        .waitFor();
      await main(page).getByRole('alert').getByRole('link', { name: CONTACT }).waitFor();
      await expectAccessible(page, `personal data with a blocked address (${size}, en)`);
      await page.getByLabel(/^E-mail address/).fill(ABSENT);
      await main(page).getByRole('button', { name: 'Continue to the summary' }).click();
      await main(page)
        .getByRole('alert')
        .getByText(
          `You missed too many appointments and cannot book until ${shown(blockedUntil)} inclusive.`,
        )
        .waitFor();
      await expectAccessible(page, `personal data after too many no-shows (${size}, en)`);

      // Another address: the refusal goes with the change; one at another domain is refused by
      // the members-only room, naming its domains.
      await page.getByLabel(/^E-mail address/).fill(`erika.${size}@gmail.com`);
      expect(await main(page).getByRole('alert').count()).toBe(0);
      await main(page).getByRole('button', { name: 'Continue to the summary' }).click();
      await main(page)
        .getByRole('alert')
        .getByText(
          'This room is for members only: please use an e-mail address at example.at, student.example.at.',
        )
        .waitFor();
      await expectAccessible(page, `personal data at another domain (${size}, en)`);
      await page.getByLabel(/^E-mail address/).fill(`erika.${size}@student.example.at`);
      await main(page).getByRole('button', { name: 'Continue to the summary' }).click();
      await h1(page, 'Summary').waitFor();
      // Only the deliberate refusals are logged.
      expect(log.errors.filter((e) => !/40\d/.test(e))).toEqual([]);
      await page.context().close();
    });
  }
});

describe("staff set a room's members-only domains on its edit page", () => {
  for (const [size, viewport, lang] of [
    ['phone', PHONE, 'de'],
    ['desktop', DESKTOP, 'en'],
  ] as const) {
    it(`refuses what is no domain and saves the domains (${size}, ${lang})`, async () => {
      const texts = {
        de: {
          field: /^Nur für Mitglieder: E-Mail-Domains/,
          save: 'Dienste speichern',
          invalid: 'Bitte geben Sie Domainnamen wie „uni.example“ ein, getrennt durch Kommas.',
          saved: `Die Dienste von „${SECOND_ROOM}“ wurden gespeichert.`,
        },
        en: {
          field: /^Members only: e-mail domains/,
          save: 'Save services',
          invalid: 'Please enter domain names such as “uni.example”, separated by commas.',
          saved: `The services of “${SECOND_ROOM}” have been saved.`,
        },
      }[lang];
      const page = await openStaffPage(browser, viewport, lang);
      await signInAs(page, server.baseUrl, lang);
      await page.goto(`${server.baseUrl}/admin/room-edit/${secondRoom}`);
      const field = page.getByLabel(texts.field);
      await field.fill('uni.example, not a domain');
      await page.getByRole('button', { name: texts.save }).click();
      await page.getByText(texts.invalid).waitFor();
      await expectAccessible(page, `room services with a wrong domain (${size}, ${lang})`);
      await field.fill(`${lang}.Uni.example, @student.uni.example`);
      await page.getByRole('button', { name: texts.save }).click();
      await page.getByText(texts.saved).first().waitFor();
      // The room's read model follows the saved services.
      const domains = async () =>
        (
          (await (await admin.get(`/api/rooms/${secondRoom}`)).json()) as {
            services: { allowedEmailDomains?: string[] };
          }
        ).services.allowedEmailDomains ?? [];
      await waitFor(
        'the saved domains',
        async () => (await domains()).join() === `${lang}.uni.example,student.uni.example`,
        budget(5_000),
      );
      await page.context().close();
    });
  }
});
