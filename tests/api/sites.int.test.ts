// Sites (docs/product.md#sites): the first site every installation has, branches created by staff,
// slugs unique, rooms belonging to one site, and the visitors' room list per site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FIRST_SITE_ID, NO_HOURS } from '@rr/contracts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';

let db: TestDatabase;
let app: TestApp;
let admin: Client;

interface Site {
  id: string;
  version: number;
  slug: string;
  name: string;
  nameEn?: string;
  contactEmail: string | null;
  address: string | null;
  phone: string | null;
  mailSignature: string | null;
  roomCount: number;
}

const law = {
  name: 'Fachbibliothek Jura',
  nameEn: 'Law Library',
  slug: 'jura',
  contactEmail: 'jura@library.example',
  address: 'Universitätsstraße 7\n1010 Wien',
  phone: '+43 1 4277 123',
  mailSignature: 'Ihr Team der Fachbibliothek Jura',
};

const room = (name: string, siteId?: string) => ({
  name,
  description: 'Quiet desks by the window',
  capacity: 10,
  openStartValue: 0,
  openStartType: 'DAY',
  openEndValue: 30,
  openEndType: 'DAY',
  ...(siteId ? { siteId } : {}),
});

async function eventCount(): Promise<number> {
  const r = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events');
  return Number(r.rows[0]!.n);
}

// Read as the admin: the reads wait for the admin's own writes (read-your-writes).
async function sites(client: Client = admin): Promise<Site[]> {
  const res = await client.get('/api/sites');
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: Site[] }).content;
}

async function createSite(body: Record<string, unknown>): Promise<{ id: string; slug: string }> {
  const res = await admin.request('POST', '/api/admin/sites', { json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; slug: string };
}

async function createRoom(body: Record<string, unknown>): Promise<string> {
  const res = await admin.request('POST', '/api/admin/rooms', { json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function roomNames(query: string): Promise<string[]> {
  const res = await admin.get(`/api/rooms${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: { name: string }[] }).content.map((r) => r.name).sort();
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db, undefined, {
    env: { LIBRARY_NAME: 'Stadtbibliothek', LIBRARY_CONTACT_EMAIL: 'info@library.example' },
  });
  await addUser(db, 'boss', 'correct horse', ['admin']);
  await addUser(db, 'reader', 'correct horse', ['reports']);
  admin = new Client(app.baseUrl);
  expect((await admin.login('boss', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('the first site', () => {
  it('exists from the start with the library’s name and address, and holds the rooms made without a site', async () => {
    expect(await sites()).toEqual([
      {
        id: FIRST_SITE_ID,
        version: 0,
        slug: 'bibliothek',
        name: 'Stadtbibliothek',
        contactEmail: 'info@library.example',
        address: null,
        phone: null,
        mailSignature: null,
        signInRequired: false,
        allowedAffiliations: [],
        // No booking window of its own: its rooms use theirs, else 2 days to 30 working days.
        openStart: null,
        openEnd: null,
        roomCount: 0,
        hours: NO_HOURS,
        logoUrl: null,
      },
    ]);
    const id = await createRoom(room('Lesesaal'));
    const res = await admin.get(`/api/admin/rooms/${id}`);
    expect(((await res.json()) as { siteId: string }).siteId).toBe(FIRST_SITE_ID);
    expect((await sites())[0]!.roomCount).toBe(1);
  });

  it('can be renamed (from version 0) but never deleted', async () => {
    const res = await admin.request('PUT', `/api/admin/sites/${FIRST_SITE_ID}`, {
      json: {
        name: 'Hauptbibliothek',
        slug: 'haupt',
        contactEmail: 'haupt@library.example',
        version: 0,
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ id: FIRST_SITE_ID, slug: 'haupt', version: 1 });
    const first = (await sites()).find((s) => s.id === FIRST_SITE_ID)!;
    expect(first).toMatchObject({
      name: 'Hauptbibliothek',
      slug: 'haupt',
      version: 1,
      roomCount: 1,
    });
    expect(await roomNames('?site=haupt')).toEqual(['Lesesaal']);
    // The old slug names no site now.
    expect(await roomNames('?site=bibliothek')).toEqual([]);

    const before = await eventCount();
    const del = await admin.request('DELETE', `/api/admin/sites/${FIRST_SITE_ID}`);
    expect(del.status).toBe(409);
    expect(((await del.json()) as { error: string }).error).toBe('site__first_site');
    expect(await eventCount()).toBe(before);
  });
});

describe('a branch', () => {
  it('is created with its details, holds its rooms, and the visitors’ list filters by its slug', async () => {
    const created = await createSite({ ...law, slug: ' Jura ' });
    expect(created.slug).toBe('jura');
    const listed = (await sites()).find((s) => s.id === created.id)!;
    expect(listed).toEqual({
      id: created.id,
      version: 1,
      roomCount: 0,
      ...law,
      phone: '+4314277123',
      signInRequired: false,
      allowedAffiliations: [],
      openStart: null,
      openEnd: null,
      hours: NO_HOURS,
      logoUrl: null,
    });

    await createRoom(room('Kartensaal', created.id));
    await createRoom(room('Gesetzessaal', created.id));
    expect(await roomNames('?site=jura')).toEqual(['Gesetzessaal', 'Kartensaal']);
    expect(await roomNames('?site=JURA')).toEqual(['Gesetzessaal', 'Kartensaal']);
    expect(await roomNames('?site=medizin')).toEqual([]);
    expect(await roomNames('')).toEqual(['Gesetzessaal', 'Kartensaal', 'Lesesaal']);
    // Staff's list of rooms takes the same filter.
    const staffRooms = async (query: string) => {
      const res = await admin.get(`/api/admin/rooms${query}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { content: { name: string }[] }).content
        .map((r) => r.name)
        .sort();
    };
    expect(await staffRooms('?site=jura')).toEqual(['Gesetzessaal', 'Kartensaal']);
    expect(await staffRooms('?site=medizin')).toEqual([]);
    expect(await staffRooms('')).toEqual(['Gesetzessaal', 'Kartensaal', 'Lesesaal']);
    // The first site first, then by name, for visitors and staff alike, in German order ("Ä"
    // with the A's, not after "Z" as the database's bytes would have it).
    const aerztin = await createSite({
      ...law,
      name: 'Ärztebibliothek',
      slug: 'aerzte',
      contactEmail: 'aerzte@library.example',
    });
    for (const list of [
      await sites(),
      ((await (await admin.get('/api/admin/sites')).json()) as { content: Site[] }).content,
    ])
      expect(list.map((x) => x.slug)).toEqual([list[0]!.slug, 'aerzte', 'jura']);
    expect((await sites())[0]!.id).toBe(FIRST_SITE_ID);
    expect((await admin.request('DELETE', `/api/admin/sites/${aerztin.id}`)).status).toBe(200);
    const one = await admin.get(`/api/admin/sites/${created.id}`);
    expect(((await one.json()) as Site).roomCount).toBe(2);
  });

  it('refuses a slug another site has, a stale version, and a deletion while it has rooms; nothing is stored', async () => {
    const medizin = await createSite({
      name: 'Medizin',
      slug: 'medizin',
      contactEmail: 'med@library.example',
    });
    const before = await eventCount();
    const taken = await admin.request('POST', '/api/admin/sites', {
      json: { name: 'Another', slug: 'jura', contactEmail: 'x@library.example' },
    });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: string }).error).toBe('site__slug_taken');
    const rename = await admin.request('PUT', `/api/admin/sites/${medizin.id}`, {
      json: { name: 'Medizin', slug: 'haupt', contactEmail: 'med@library.example', version: 1 },
    });
    expect(((await rename.json()) as { error: string }).error).toBe('site__slug_taken');
    const stale = await admin.request('PUT', `/api/admin/sites/${medizin.id}`, {
      json: { name: 'Medizin', slug: 'med', contactEmail: 'med@library.example', version: 7 },
    });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: string }).error).toBe('concurrency__version_conflict');
    const jura = (await sites()).find((s) => s.slug === 'jura')!;
    const busy = await admin.request('DELETE', `/api/admin/sites/${jura.id}`);
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: string }).error).toBe('site__has_rooms');
    expect(await eventCount()).toBe(before);

    const gone = await admin.request('DELETE', `/api/admin/sites/${medizin.id}`);
    expect(gone.status).toBe(200);
    expect((await sites()).map((s) => s.slug)).not.toContain('medizin');
    expect((await admin.get(`/api/admin/sites/${medizin.id}`)).status).toBe(404);
    // Its slug is free again.
    const again = await createSite({
      name: 'Medizin neu',
      slug: 'medizin',
      contactEmail: 'med@library.example',
    });
    expect(again.slug).toBe('medizin');
  });

  it('moves a room to another site, keeps it where it is without a site, and refuses an unknown site', async () => {
    const jura = (await sites()).find((s) => s.slug === 'jura')!;
    const id = await createRoom(room('Wanderraum', jura.id));
    const get = async () =>
      (await (await admin.get(`/api/admin/rooms/${id}`)).json()) as {
        siteId: string;
        version: number;
      };
    const update = (extra: Record<string, unknown>) =>
      admin.request('PUT', `/api/admin/rooms/${id}`, {
        json: { ...room('Wanderraum'), version: 0, ...extra },
      });
    let current = await get();
    expect((await update({ version: current.version })).status).toBe(200);
    current = await get();
    expect(current.siteId).toBe(jura.id);
    expect((await update({ version: current.version, siteId: FIRST_SITE_ID })).status).toBe(200);
    current = await get();
    expect(current.siteId).toBe(FIRST_SITE_ID);

    const before = await eventCount();
    const unknown = await update({
      version: current.version,
      siteId: '00000000-0000-4000-8000-00000000beef',
    });
    expect(unknown.status).toBe(400);
    const body = (await unknown.json()) as { error: string; fields?: { field: string }[] };
    expect(body.error).toBe('validation__error');
    expect(JSON.stringify(body)).toContain('siteId');
    const create = await admin.request('POST', '/api/admin/rooms', {
      json: room('Nirgendsraum', '00000000-0000-4000-8000-00000000beef'),
    });
    expect(create.status).toBe(400);
    expect(await eventCount()).toBe(before);
  });
});

describe('access and input', () => {
  it('lets only admins change sites; every signed-in staff member reads them', async () => {
    const reader = new Client(app.baseUrl);
    expect((await reader.login('reader', 'correct horse')).status).toBe(200);
    const refused = await reader.request('POST', '/api/admin/sites', {
      json: { name: 'Physik', slug: 'physik', contactEmail: 'p@library.example' },
    });
    expect(refused.status).toBe(403);
    expect((await reader.get('/api/admin/sites')).status).toBe(200);
    expect((await new Client(app.baseUrl).get('/api/admin/sites')).status).toBe(401);
  });

  it('refuses any malformed site with a validation problem and stores nothing', async () => {
    const before = await eventCount();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: fc.oneof(
            fc.string({ maxLength: 2 }),
            fc.string({ minLength: 101, maxLength: 120 }),
          ),
          slug: fc.oneof(
            fc.constantFrom('a', '-jura', 'jura-', 'ju--ra', 'jü', 'ju ra', 'x'.repeat(41)),
            fc.string(),
          ),
          contactEmail: fc.oneof(fc.constant('not an address'), fc.string({ maxLength: 3 })),
        }),
        async (body) => {
          const res = await admin.request('POST', '/api/admin/sites', { json: body });
          expect(res.status).toBe(400);
          expect(((await res.json()) as { error: string }).error).toBe('validation__error');
        },
      ),
      { numRuns: 40 },
    );
    expect(await eventCount()).toBe(before);
  });
});
