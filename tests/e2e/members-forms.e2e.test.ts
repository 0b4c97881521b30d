import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { expectAccessible, type Lang, type RunningServer } from './harness.ts';
import { DESKTOP, openStaffPage, PHONE, signInAs } from './staff-ux-support.ts';
import { FIRST_ROOM, SECOND_ROOM, startWithTestRooms } from './test-rooms.ts';
import { h1, main } from './visitor-pages.ts';

/**
 * Rooms and sites for members of the university in the staff forms (docs/product.md#sites,
 * docs/product.md#room-services): the site form and the room's services take "sign-in required"
 * and the admitted affiliations (one a line or separated by commas), check them with the
 * contract before sending, save them, and show them again. German on a phone, English on a
 * desktop; axe-checked.
 */
let server: RunningServer;
let browser: Browser;
let admin: Client;
let idOf: (name: string) => string;
let stop: (() => Promise<void>) | undefined;
const POLL = { timeout: budget(15_000) };

const TEXTS = {
  de: {
    sites: 'Standorte',
    add: 'Standort anlegen',
    edit: 'Standort bearbeiten',
    slug: /^Kurzname/,
    contact: /^Kontakt-E-Mail/,
    members: 'Für Angehörige der Universität',
    signIn: /^Nur mit Anmeldung/,
    list: /^Zugelassene Zugehörigkeiten/,
    tooLong: 'Es sind höchstens 200 Zeichen erlaubt.',
    saveServices: 'Dienste speichern',
    saved: (room: string) => `Die Dienste von „${room}“ wurden gespeichert.`,
  },
  en: {
    sites: 'Sites',
    add: 'Add site',
    edit: 'Edit site',
    slug: /^Short name/,
    contact: /^Contact e-mail/,
    members: 'For members of the university',
    signIn: /^Sign-in required/,
    list: /^Admitted affiliations/,
    tooLong: 'At most 200 characters are allowed.',
    saveServices: 'Save services',
    saved: (room: string) => `The services of “${room}” have been saved.`,
  },
} as const;

const RUNS: readonly { lang: Lang; viewport: typeof PHONE | typeof DESKTOP; room: string }[] = [
  { lang: 'de', viewport: PHONE, room: FIRST_ROOM },
  { lang: 'en', viewport: DESKTOP, room: SECOND_ROOM },
];

beforeAll(async () => {
  ({ server, browser, stop, admin, idOf } = await startWithTestRooms());
});

afterAll(async () => {
  await stop?.();
});

interface SiteRead {
  slug: string;
  signInRequired: boolean;
  allowedAffiliations: string[];
}
const siteOf = async (slug: string) =>
  ((await (await admin.get('/api/admin/sites')).json()) as { content: SiteRead[] }).content.find(
    (s) => s.slug === slug,
  );
const servicesOf = async (roomId: string) =>
  ((await (await admin.get(`/api/rooms/${roomId}`)).json()) as { services: object }).services;

describe('staff forms for members of the university', () => {
  for (const { lang, viewport, room } of RUNS) {
    const size = `${lang} ${viewport.width}x${viewport.height}`;
    const t = TEXTS[lang];

    it(`the site form takes sign-in and the admitted affiliations (${size})`, async () => {
      const slug = `campus-${lang}`;
      const page = await openStaffPage(browser, viewport, lang);
      try {
        await signInAs(page, server.baseUrl, lang);
        await page.goto(`${server.baseUrl}/admin/site-add`);
        await h1(page, t.add).waitFor();
        await main(page).getByRole('group', { name: t.members }).waitFor();
        await page.getByLabel(/^Name/).first().fill(`Campus ${lang}`);
        await page.getByLabel(t.slug).fill(slug);
        await page.getByLabel(t.contact).fill(`${slug}@uni-jura.example`);
        await page.getByLabel(t.signIn).check();
        const list = page.getByLabel(t.list);
        // One affiliation too long: the field says so before anything is sent.
        await list.fill(`student\n${'x'.repeat(201)}`);
        await main(page).getByRole('button', { name: t.add }).click();
        await expect.poll(() => list.getAttribute('aria-invalid'), POLL).toBe('true');
        await main(page).getByText(t.tooLong).waitFor();
        await expectAccessible(page, `site form, a refused affiliation (${size})`);

        await list.fill('Student@uni-jura.example\nstaff, hs-partner.example');
        await main(page).getByRole('button', { name: t.add }).click();
        await h1(page, t.sites).waitFor();
        await expect
          .poll(() => siteOf(slug), POLL)
          .toMatchObject({
            signInRequired: true,
            allowedAffiliations: ['student@uni-jura.example', 'staff', 'hs-partner.example'],
          });

        // The edit form shows the rule as saved.
        const row = main(page).getByRole('row').filter({ hasText: slug });
        await row.getByRole('link').first().click();
        await h1(page, t.edit).waitFor();
        await expect.poll(() => page.getByLabel(t.signIn).isChecked(), POLL).toBe(true);
        expect(await page.getByLabel(t.list).inputValue()).toBe(
          'student@uni-jura.example\nstaff\nhs-partner.example',
        );
        await expectAccessible(page, `site edit with the members rule (${size})`);
      } finally {
        await page.context().close();
      }
    });

    it(`the room's services take sign-in and the admitted affiliations (${size})`, async () => {
      const roomId = idOf(room);
      const page = await openStaffPage(browser, viewport, lang);
      try {
        await signInAs(page, server.baseUrl, lang);
        await page.goto(`${server.baseUrl}/admin/room-edit/${roomId}`);
        await main(page).getByRole('group', { name: t.members }).waitFor();
        const signIn = page.getByLabel(t.signIn);
        const list = page.getByLabel(t.list);
        expect(await signIn.isChecked()).toBe(false);
        await signIn.check();
        await list.fill(`${'y'.repeat(201)}`);
        const save = main(page).getByRole('button', { name: t.saveServices });
        await save.click();
        await expect.poll(() => list.getAttribute('aria-invalid'), POLL).toBe('true');
        await expectAccessible(page, `room services, a refused affiliation (${size})`);

        await list.fill('hs-partner.example; Lesesaal Team');
        await save.click();
        await main(page)
          .getByRole('status')
          .filter({ hasText: t.saved(room) })
          .waitFor();
        await expect
          .poll(() => servicesOf(roomId), POLL)
          .toMatchObject({
            signInRequired: true,
            allowedAffiliations: ['hs-partner.example', 'lesesaal team'],
          });
        await page.reload();
        await main(page).getByRole('group', { name: t.members }).waitFor();
        await expect.poll(() => page.getByLabel(t.signIn).isChecked(), POLL).toBe(true);
        await expect
          .poll(() => page.getByLabel(t.list).inputValue(), POLL)
          .toBe('hs-partner.example\nlesesaal team');
        await expectAccessible(page, `room services with the members rule (${size})`);
      } finally {
        await page.context().close();
      }
    });
  }
});
