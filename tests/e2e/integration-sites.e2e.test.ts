// The integrations screen of a library with several sites (docs/product.md#integrations,
// #roles-for-some-sites), German and English at 1280×900: an API token whose role is for some
// sites (a multi-select of the sites) and another role for all, listed with its roles as written
// and reaching only its sites; a webhook limited to a site, shown with it in the list and in its
// edit form, changed back to all sites. Every screen is checked with axe.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, type BrowserTest } from './harness.ts';
import { DESKTOP, openStaffPage, signInAs, watchRequests } from './staff-ux-support.ts';
import { startWithTestRooms, type TestRooms } from './test-rooms.ts';

// Only 127.0.0.1 is exempt from the address check; port 9 has no listener (nothing is sent:
// the test makes no event the webhook takes after it is added).
const HOOK_URL = 'https://127.0.0.1:9/hooks';

const SITE = {
  name: 'Fachbibliothek Jura',
  nameEn: 'Law Library',
  slug: 'jura',
  contactEmail: 'jura@bibliothek.example',
};

const TEXT = {
  de: {
    nav: 'Schnittstellen',
    name: 'Name',
    admin: 'Verwaltung',
    reports: 'Berichte',
    adminScope: 'Verwaltung: für welche Standorte',
    reportsScope: 'Berichte: für welche Standorte',
    all: 'Alle Standorte',
    some: 'Einige Standorte',
    sitesOfAdmin: /^Standorte für Verwaltung/,
    webhookScope: 'Standorte, deren Ereignisse er erhält',
    required: 'Bitte füllen Sie dieses Feld aus.',
    revokeConfirm: 'Ja, Token widerrufen',
    createToken: 'Token erstellen',
    revoke: 'Widerrufen',
    addWebhook: 'Webhook hinzufügen',
    addTitle: 'Webhook hinzufügen',
    addSubmit: 'Webhook hinzufügen',
    event: 'Buchung (booking.created)',
    back: 'Zurück zu den Schnittstellen',
    edit: 'Bearbeiten',
    editTitle: 'Webhook bearbeiten',
    save: 'Speichern',
    siteName: SITE.name,
  },
  en: {
    nav: 'Integrations',
    name: 'Name',
    admin: 'Administration',
    reports: 'Reports',
    adminScope: 'Administration: for which sites',
    reportsScope: 'Reports: for which sites',
    all: 'All sites',
    some: 'Some sites',
    sitesOfAdmin: /^Sites for Administration/,
    webhookScope: 'Sites whose events it gets',
    required: 'Please fill in this field.',
    revokeConfirm: 'Yes, revoke the token',
    createToken: 'Create token',
    revoke: 'Revoke',
    addWebhook: 'Add a webhook',
    addTitle: 'Add a webhook',
    addSubmit: 'Add webhook',
    event: 'Booking made (booking.created)',
    back: 'Back to the integrations',
    edit: 'Edit',
    editTitle: 'Edit webhook',
    save: 'Save',
    siteName: SITE.nameEn,
  },
} as const;

let test: BrowserTest & TestRooms;
let siteId = '';

beforeAll(async () => {
  test = await startWithTestRooms({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  const created = await test.admin.request('POST', '/api/admin/sites', { json: SITE });
  expect(created.status, await created.clone().text()).toBe(201);
  siteId = ((await created.json()) as { id: string }).id;
});

afterAll(async () => {
  await test?.stop();
});

const main = (page: Page) => page.getByRole('main');
const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const scope = (page: Page, legend: string) =>
  main(page).getByRole('group', { name: legend, exact: true });

describe('the integrations screen with several sites', () => {
  for (const lang of ['de', 'en'] as const) {
    const t = TEXT[lang];
    it(`gives a token's role some sites and limits a webhook to a site (${lang})`, async () => {
      const page = await openStaffPage(test.browser, DESKTOP, lang);
      const log = watchRequests(page);
      try {
        await signInAs(page, test.server.baseUrl, lang);
        await page.getByRole('navigation').getByRole('link', { name: t.nav }).click();
        await h1(page, t.nav).waitFor();

        // A role checked offers all sites or some; some sites need one chosen.
        const tokenName = `Zähler ${lang}`;
        await page.locator('#token-name').fill(tokenName);
        await main(page).getByLabel(t.admin, { exact: true }).check();
        await main(page).getByLabel(t.reports, { exact: true }).check();
        await scope(page, t.reportsScope).getByLabel(t.all).waitFor();
        expect(await scope(page, t.reportsScope).getByLabel(t.all).isChecked()).toBe(true);
        await scope(page, t.adminScope).getByLabel(t.some).check();
        const adminSites = main(page).getByLabel(t.sitesOfAdmin);
        await main(page).getByRole('button', { name: t.createToken }).click();
        await main(page).getByText(t.required).first().waitFor();
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.id))
          .toBe('token-sites-admin-sites');
        await expectAccessible(page, `token form, some sites refused (${lang})`);
        await adminSites.selectOption([SITE.slug]);
        await main(page).getByRole('button', { name: t.createToken }).click();
        const secret = await page.locator('#token-secret').inputValue();
        expect(secret).toMatch(/^rr_/);

        // The list shows the roles with their sites as written.
        const row = main(page).locator('table tbody tr', { hasText: tokenName });
        await expect.poll(() => row.innerText()).toContain(`${t.admin} (${SITE.slug})`);
        expect(await row.innerText()).toContain(t.reports);
        await expectAccessible(page, `token with a role for some sites (${lang})`);
        // The token's admin role reaches its site only.
        const sites = await fetch(`${test.server.baseUrl}/api/admin/sites`, {
          headers: { Authorization: `Bearer ${secret}` },
        });
        expect(sites.status).toBe(200);
        const listed = (await sites.json()) as { content: { slug: string }[] };
        // Reports for all sites sees both: the list is every site the token reaches.
        expect(listed.content.map((s) => s.slug).sort()).toEqual(['bibliothek', SITE.slug]);
        const tokens = (await (await test.admin.get('/api/admin/api-tokens')).json()) as {
          name: string;
          roles: string[];
        }[];
        expect(tokens.find((tk) => tk.name === tokenName)?.roles).toEqual([
          `admin@${SITE.slug}`,
          'reports',
        ]);
        await row.getByRole('button', { name: new RegExp(`^${t.revoke}`) }).click();
        await page.getByRole('dialog').getByRole('button', { name: t.revokeConfirm }).click();
        await row.waitFor({ state: 'detached' });

        // A webhook for one site.
        await main(page).getByRole('link', { name: t.addWebhook }).click();
        await h1(page, t.addTitle).waitFor();
        await page.locator('#webhook-url').fill(HOOK_URL);
        await main(page).getByLabel(t.event).check();
        expect(await scope(page, t.webhookScope).getByLabel(t.all).isChecked()).toBe(true);
        await scope(page, t.webhookScope).getByLabel(t.some).check();
        await page.locator('#webhook-sites-sites').selectOption([siteId]);
        await expectAccessible(page, `webhook form with a site (${lang})`);
        await main(page).getByRole('button', { name: t.addSubmit }).click();
        await page.locator('#webhook-secret').waitFor();
        await main(page).getByRole('link', { name: t.back }).click();
        await h1(page, t.nav).waitFor();
        const hook = main(page).locator('table tbody tr', { hasText: HOOK_URL });
        await expect.poll(() => hook.innerText()).toContain(t.siteName);
        await expectAccessible(page, `webhook list with sites (${lang})`);
        const stored = (await (await test.admin.get('/api/admin/webhooks')).json()) as {
          id: string;
          url: string;
          siteIds: string[];
        }[];
        const endpoint = stored.find((e) => e.url === HOOK_URL);
        expect(endpoint?.siteIds).toEqual([siteId]);

        // Its edit form shows the site chosen; back to all sites.
        await hook.getByRole('link', { name: `${t.edit} ${HOOK_URL}` }).click();
        await h1(page, t.editTitle).waitFor();
        expect(await scope(page, t.webhookScope).getByLabel(t.some).isChecked()).toBe(true);
        expect(
          await page
            .locator('#webhook-sites-sites')
            .evaluate((select: HTMLSelectElement) =>
              Array.from(select.selectedOptions, (o) => o.textContent),
            ),
        ).toEqual([t.siteName]);
        await scope(page, t.webhookScope).getByLabel(t.all).check();
        await main(page).getByRole('button', { name: t.save }).click();
        await h1(page, t.nav).waitFor();
        await expect.poll(() => hook.innerText()).toContain(t.all);
        const changed = (await (
          await test.admin.get(`/api/admin/webhooks/${endpoint!.id}`)
        ).json()) as { siteIds: string[] };
        expect(changed.siteIds).toEqual([]);
        expect(
          (await test.admin.request('DELETE', `/api/admin/webhooks/${endpoint!.id}`)).status,
        ).toBe(204);
        expect(log.errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }
});
