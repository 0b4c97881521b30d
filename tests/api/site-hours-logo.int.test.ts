// A site's opening hours and logo (docs/product.md#sites): set by admins (a branch admin for her
// own site only), refused when invalid with nothing stored, answered to visitors and staff with
// the upcoming exceptions only, the logo served by its content's type and cached by its address,
// and both kept by a rebuild of the read models.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SITE_ID, MAX_LOGO_BYTES } from '@rr/contracts';
import { addDays } from '@rr/domain';
import { defaultTimeZone, ManualClock, todayIn } from '@rr/platform';
import { readModelProjections, rebuildProjection } from '@rr/projections';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { jpegHeader, makePng, pngHeader } from '../support/images.ts';

let db: TestDatabase;
let app: TestApp;
let admin: Client;
let branch: Client;
let lawId: string;
const clock = new ManualClock(new Date('2026-03-10T09:00:00Z'));
const today = () => todayIn(clock.now(), defaultTimeZone);

interface Hours {
  weekly: Record<string, { start: string; end: string }[]>;
  exceptions: { date: string; ranges: { start: string; end: string }[]; note?: string }[];
}
interface Site {
  id: string;
  version: number;
  hours: Hours;
  logoUrl: string | null;
}

/** A smallest real WebP (lossless, 1 x 1). */
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

const logoForm = (bytes: Buffer, filename = 'logo.png', type = 'image/png') => {
  const f = new FormData();
  f.append('logo', new Blob([new Uint8Array(bytes)], { type }), filename);
  return f;
};

async function eventCount(): Promise<number> {
  const r = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events');
  return Number(r.rows[0]!.n);
}

async function logoRows(siteId: string): Promise<number> {
  const r = await db.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM site_logos WHERE site_id = $1',
    [siteId],
  );
  return Number(r.rows[0]!.n);
}

async function visitorSite(id: string, client: Client = admin): Promise<Site> {
  const res = await client.get('/api/sites');
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: Site[] }).content.find((s) => s.id === id)!;
}

async function staffSite(id: string, client: Client = admin): Promise<Site> {
  const res = await client.get(`/api/admin/sites/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Site;
}

const putHours = (siteId: string, body: unknown, client: Client = admin) =>
  client.request('PUT', `/api/admin/sites/${siteId}/hours`, { json: body });

const week = {
  mon: [
    { start: '13:00', end: '18:00' },
    { start: '08:00', end: '12:00' },
  ],
  tue: [{ start: '08:00', end: '20:00' }],
  sat: [{ start: '10:00', end: '14:00' }],
};

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db, clock);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  await addUser(db, 'branch', 'correct horse', ['admin@jura']);
  admin = new Client(app.baseUrl);
  expect((await admin.login('boss', 'correct horse')).status).toBe(200);
  const res = await admin.request('POST', '/api/admin/sites', {
    json: { name: 'Fachbibliothek Jura', slug: 'jura', contactEmail: 'jura@library.example' },
  });
  expect(res.status).toBe(201);
  lawId = ((await res.json()) as { id: string }).id;
  branch = new Client(app.baseUrl);
  expect((await branch.login('branch', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('opening hours', () => {
  it('are none until set; once set, visitors and staff read them with the upcoming exceptions only', async () => {
    const none = await visitorSite(lawId);
    expect(none.hours.exceptions).toEqual([]);
    expect(Object.values(none.hours.weekly).every((day) => day.length === 0)).toBe(true);

    const res = await putHours(lawId, {
      weekly: week,
      exceptions: [
        { date: addDays(today(), 3), ranges: [], note: 'Betriebsausflug', noteEn: 'Staff outing' },
        { date: addDays(today(), 1), ranges: [{ start: '10:00', end: '12:00' }] },
        { date: addDays(today(), -1), ranges: [] },
      ],
    });
    expect(res.status, await res.clone().text()).toBe(200);

    const expected = {
      weekly: {
        mon: [
          { start: '08:00', end: '12:00' },
          { start: '13:00', end: '18:00' },
        ],
        tue: [{ start: '08:00', end: '20:00' }],
        wed: [],
        thu: [],
        fri: [],
        sat: [{ start: '10:00', end: '14:00' }],
        sun: [],
      },
      exceptions: [
        { date: addDays(today(), 1), ranges: [{ start: '10:00', end: '12:00' }] },
        { date: addDays(today(), 3), ranges: [], note: 'Betriebsausflug', noteEn: 'Staff outing' },
      ],
    };
    expect((await visitorSite(lawId)).hours).toEqual(expected);
    expect((await staffSite(lawId)).hours).toEqual(expected);
    // The hours are no part of the details: the site's version (what the form's update names) stays.
    expect((await staffSite(lawId)).version).toBe(1);

    // A day later the exception of tomorrow is today's, and two days later it has passed.
    clock.advance(2 * 24 * 60 * 60 * 1000);
    expect((await visitorSite(lawId)).hours.exceptions.map((e) => e.date)).toEqual([
      addDays(today(), 1),
    ]);
  });

  it('the first site has them before staff ever changed its details', async () => {
    const res = await putHours(FIRST_SITE_ID, { weekly: { fri: week.tue }, exceptions: [] });
    expect(res.status).toBe(200);
    const first = await visitorSite(FIRST_SITE_ID);
    expect(first.version).toBe(0);
    expect(first.hours.weekly.fri).toEqual(week.tue);
  });

  it('are refused with the rule each broke, and nothing is stored', async () => {
    const before = await eventCount();
    const range = (start: string, end: string) => ({ start, end });
    const refusals: [unknown, string, string][] = [
      [
        { weekly: { mon: [range('12:00', '12:00')] }, exceptions: [] },
        'weekly.mon.0.end',
        'time-after',
      ],
      [
        { weekly: { mon: [range('18:00', '08:00')] }, exceptions: [] },
        'weekly.mon.0.end',
        'time-after',
      ],
      [
        { weekly: { tue: [range('25:00', '26:00')] }, exceptions: [] },
        'weekly.tue.0.start',
        'time',
      ],
      [
        { weekly: { wed: [range('08:00', '12:00'), range('11:00', '14:00')] }, exceptions: [] },
        'weekly.wed',
        'hours-overlap',
      ],
      [
        {
          weekly: {
            thu: ['08', '10', '12', '14', '16'].map((h) => range(`${h}:00`, `${h}:30`)),
          },
          exceptions: [],
        },
        'weekly.thu',
        'hours-ranges',
      ],
      [
        {
          weekly: {},
          exceptions: Array.from({ length: 367 }, (_, i) => ({
            date: addDays(today(), i),
            ranges: [],
          })),
        },
        'exceptions',
        'hours-exceptions',
      ],
      [
        {
          weekly: {},
          exceptions: [
            { date: addDays(today(), 5), ranges: [] },
            { date: addDays(today(), 5), ranges: [range('10:00', '11:00')] },
          ],
        },
        'exceptions',
        'unique',
      ],
      [
        { weekly: {}, exceptions: [{ date: '2026-02-30', ranges: [] }] },
        'exceptions.0.date',
        'date',
      ],
      [
        {
          weekly: {},
          exceptions: [{ date: addDays(today(), 5), ranges: [], note: 'x'.repeat(201) }],
        },
        'exceptions.0.note',
        'too_big',
      ],
      [
        {
          weekly: {},
          exceptions: [{ date: addDays(today(), 5), ranges: [], note: 'Zwei\nZeilen' }],
        },
        'exceptions.0.note',
        'characters',
      ],
    ];
    for (const [body, field, rule] of refusals) {
      const res = await putHours(lawId, body);
      expect(res.status, field).toBe(400);
      const problem = (await res.json()) as {
        error: string;
        errors: { field: string; rule: string }[];
      };
      expect(problem.error).toBe('validation__error');
      expect(
        problem.errors.map((e) => `${e.field} ${e.rule}`),
        `${field} ${rule}`,
      ).toContain(`${field} ${rule}`);
    }
    // Touching ranges are apart; four a day is the most.
    const ok = await putHours(lawId, {
      weekly: { thu: ['08', '10', '12', '14'].map((h) => range(`${h}:00`, `${Number(h) + 2}:00`)) },
      exceptions: [],
    });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(await eventCount()).toBe(before + 1);
  });

  it('a branch admin sets her own site’s hours, and another site’s is refused (403)', async () => {
    const own = await putHours(lawId, { weekly: { sun: week.sat }, exceptions: [] }, branch);
    expect(own.status, await own.clone().text()).toBe(200);
    expect((await staffSite(lawId, branch)).hours.weekly.sun).toEqual(week.sat);
    const before = await eventCount();
    const other = await putHours(FIRST_SITE_ID, { weekly: {}, exceptions: [] }, branch);
    expect(other.status).toBe(403);
    expect(await eventCount()).toBe(before);
  });

  it('of a site that does not exist: 404', async () => {
    const res = await putHours('00000000-0000-4000-8000-00000000dead', {
      weekly: {},
      exceptions: [],
    });
    expect(res.status).toBe(404);
  });
});

describe('the logo', () => {
  const putLogo = (siteId: string, form: FormData, client: Client = admin) =>
    client.request('PUT', `/api/admin/sites/${siteId}/logo`, { form });

  it('is stored from a PNG, served to anyone with its type, nosniff and caching by its address, and removed', async () => {
    const png = makePng(32, 16);
    const put = await putLogo(lawId, logoForm(png));
    expect(put.status, await put.clone().text()).toBe(200);
    const site = await visitorSite(lawId);
    expect(site.logoUrl).toMatch(new RegExp(`^sites/${lawId}/logo\\?v=[0-9a-f-]{36}$`));
    expect((await staffSite(lawId)).logoUrl).toBe(site.logoUrl);

    const anyone = new Client(app.baseUrl);
    const img = await anyone.get(`/api/${site.logoUrl}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(img.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = img.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);

    // Without the logo's version in the address: checked again each time, 304 while unchanged.
    const plain = await anyone.get(`/api/sites/${lawId}/logo`);
    expect(plain.headers.get('cache-control')).toBe('public, no-cache');
    const again = await anyone.get(`/api/sites/${lawId}/logo`, { 'If-None-Match': etag! });
    expect(again.status).toBe(304);

    // Replaced by a WebP: a new address, the new type; one logo's bytes kept.
    expect((await putLogo(lawId, logoForm(WEBP, 'logo.webp', 'image/webp'))).status).toBe(200);
    const replaced = await visitorSite(lawId);
    expect(replaced.logoUrl).not.toBe(site.logoUrl);
    const webp = await anyone.get(`/api/${replaced.logoUrl}`);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(await logoRows(lawId)).toBe(1);

    expect((await admin.request('DELETE', `/api/admin/sites/${lawId}/logo`)).status).toBe(200);
    expect((await visitorSite(lawId)).logoUrl).toBeNull();
    expect((await anyone.get(`/api/sites/${lawId}/logo`)).status).toBe(404);
    expect(await logoRows(lawId)).toBe(0);
  });

  it('takes a JPEG, and the largest file allowed, but not one byte more', async () => {
    expect(
      (await putLogo(lawId, logoForm(jpegHeader(40, 20), 'logo.jpg', 'image/jpeg'))).status,
    ).toBe(200);
    const base = makePng(8, 8).length;
    // A tEXt chunk adds its 12 bytes of frame and 8 of keyword besides the noise.
    const largest = makePng(8, 8, MAX_LOGO_BYTES - base - 20);
    expect(largest.length).toBe(MAX_LOGO_BYTES);
    const fits = await putLogo(lawId, logoForm(largest));
    expect(fits.status, await fits.clone().text()).toBe(200);

    const before = await eventCount();
    const over = makePng(8, 8, MAX_LOGO_BYTES - base - 19);
    expect(over.length).toBe(MAX_LOGO_BYTES + 1);
    const res = await putLogo(lawId, logoForm(over));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { error: string }).error).toBe('image__too_large');
    expect(await eventCount()).toBe(before);
  });

  it('refuses an SVG, a GIF, text named .png and a cut-off PNG, storing nothing', async () => {
    const site = await createBareSite('logo-refusals');
    const before = await eventCount();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const gif = Buffer.from('474946383961010001000000002c00000000010001000002', 'hex');
    const cases: [Buffer, string, string, string][] = [
      [svg, 'logo.svg', 'image/svg+xml', 'image__invalid_type'],
      [gif, 'logo.gif', 'image/gif', 'image__invalid_type'],
      [Buffer.from('not an image at all'), 'logo.png', 'image/png', 'image__invalid_type'],
      [pngHeader(16, 16, 25), 'logo.png', 'image/png', 'image__invalid'],
      [pngHeader(20000, 20000), 'logo.png', 'image/png', 'image__too_many_pixels'],
    ];
    for (const [bytes, name, type, code] of cases) {
      const res = await putLogo(site, logoForm(bytes, name, type));
      expect(res.status, name).toBe(400);
      expect(((await res.json()) as { error: string }).error, name).toBe(code);
    }
    const none = await admin.request('PUT', `/api/admin/sites/${site}/logo`, {
      form: new FormData(),
    });
    expect(none.status).toBe(400);
    expect(await eventCount()).toBe(before);
    expect(await logoRows(site)).toBe(0);
    expect((await visitorSite(site)).logoUrl).toBeNull();
  });

  it('a branch admin sets and removes her own site’s logo, and another site’s is refused (403)', async () => {
    const own = await putLogo(lawId, logoForm(makePng(10, 10)), branch);
    expect(own.status, await own.clone().text()).toBe(200);
    expect((await staffSite(lawId, branch)).logoUrl).not.toBeNull();
    const before = await eventCount();
    expect((await putLogo(FIRST_SITE_ID, logoForm(makePng()), branch)).status).toBe(403);
    expect((await branch.request('DELETE', `/api/admin/sites/${FIRST_SITE_ID}/logo`)).status).toBe(
      403,
    );
    expect(await eventCount()).toBe(before);
    expect(await logoRows(FIRST_SITE_ID)).toBe(0);
  });
});

describe('a rebuild of the read models', () => {
  it('keeps the hours and the logo', async () => {
    const png = makePng(12, 12);
    expect(
      (await admin.request('PUT', `/api/admin/sites/${lawId}/logo`, { form: logoForm(png) }))
        .status,
    ).toBe(200);
    const before = await visitorSite(lawId);
    expect(before.logoUrl).not.toBeNull();
    expect(Object.values(before.hours.weekly).some((day) => day.length > 0)).toBe(true);

    for (const p of readModelProjections.filter((x) => x.tables.includes('rm_site_profile')))
      await rebuildProjection(db.pool, app.deps.store, p);

    const after = await visitorSite(lawId);
    expect(after).toEqual(before);
    const img = await admin.get(`/api/${after.logoUrl}`);
    expect(img.status).toBe(200);
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
  });

  it('a deleted site takes its hours and logo with it', async () => {
    const site = await createBareSite('deleted-soon');
    expect((await putHours(site, { weekly: { mon: week.tue }, exceptions: [] })).status).toBe(200);
    expect(
      (await admin.request('PUT', `/api/admin/sites/${site}/logo`, { form: logoForm(makePng()) }))
        .status,
    ).toBe(200);
    expect((await admin.request('DELETE', `/api/admin/sites/${site}`)).status).toBe(200);
    expect(await logoRows(site)).toBe(0);
    // Read through the admin's own writes.
    await admin.get('/api/sites');
    const r = await db.pool.query('SELECT 1 FROM rm_site_profile WHERE site_id = $1', [site]);
    expect(r.rowCount).toBe(0);
  });
});

async function createBareSite(slug: string): Promise<string> {
  const res = await admin.request('POST', '/api/admin/sites', {
    json: { name: `Site ${slug}`, slug, contactEmail: `${slug}@library.example` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}
