// A room's seat plan as staff set it (docs/product.md#seat-plans): seats, CSV, out of service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { messageOf } from '@rr/contracts';
import { addDays, todayIn } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';
import { jpegHeader, makePng } from '../support/images.ts';

let db: TestDatabase;
let app: TestApp;
let admin: Client;

interface Seat {
  id: string;
  label: string;
  zone: string | null;
  attributes: string[];
  notes: string | null;
  x: number;
  y: number;
  rotation: number;
}
interface Problem {
  error: string;
  errors?: { field: string; rule: string; message: string }[];
}

async function eventCount(): Promise<number> {
  const r = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events');
  return Number(r.rows[0]!.n);
}

async function createRoom(name: string): Promise<string> {
  const res = await admin.request('POST', '/api/admin/rooms', {
    json: {
      name,
      description: 'Desks on a plan',
      capacity: 20,
      openStartValue: 0,
      openStartType: 'DAY',
      openEndValue: 30,
      openEndType: 'DAY',
    },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const putSeats = (roomId: string, seats: unknown[]) =>
  admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, { json: { seats } });

async function seatsOf(roomId: string): Promise<{ seats: Seat[]; outOfService: unknown[] }> {
  const res = await admin.get(`/api/admin/rooms/${roomId}/seats`);
  expect(res.status).toBe(200);
  return (await res.json()) as { seats: Seat[]; outOfService: unknown[] };
}

const today = () => todayIn(app.deps.clock.now(), 'Europe/Vienna');

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db);
  await addUser(db, 'boss', 'correct horse', ['admin']);
  admin = new Client(app.baseUrl);
  expect((await admin.login('boss', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('seats', () => {
  it('sets the seats, answers them with ids, and keeps each id by its label', async () => {
    const roomId = await createRoom('Plan room');
    expect(await seatsOf(roomId)).toEqual({ seats: [], outOfService: [], image: null });
    const first = await putSeats(roomId, [
      { label: 'A1', zone: 'Window', attributes: ['window', 'power'], x: 10, y: 20 },
      { label: 'A2', x: 20.5, y: 20, rotation: 90, notes: 'Wobbly chair' },
    ]);
    expect(first.status).toBe(200);
    const set = (await first.json()) as { seats: Seat[] };
    expect(set.seats.map((s) => [s.label, s.zone, s.attributes, s.notes, s.rotation])).toEqual([
      ['A1', 'Window', ['power', 'window'], null, 0],
      ['A2', null, [], 'Wobbly chair', 90],
    ]);
    const [a1, a2] = set.seats;
    expect((await seatsOf(roomId)).seats).toEqual(set.seats);

    // The same labels in another case keep their ids; a new label is a new seat.
    const second = await putSeats(roomId, [
      { label: 'B1', x: 50, y: 50 },
      { label: 'a2', x: 30, y: 30 },
      { label: 'A1', x: 10, y: 20, attributes: ['quiet'] },
    ]);
    expect(second.status).toBe(200);
    const again = ((await second.json()) as { seats: Seat[] }).seats;
    expect(again.map((s) => s.label)).toEqual(['B1', 'a2', 'A1']);
    expect(again[1]!.id).toBe(a2!.id);
    expect(again[2]!.id).toBe(a1!.id);
    expect([a1!.id, a2!.id]).not.toContain(again[0]!.id);
    expect((await seatsOf(roomId)).seats).toEqual(again);

    // The same seats again change nothing.
    const before = await eventCount();
    const same = await putSeats(
      roomId,
      again.map(({ id: _id, ...s }) => s),
    );
    expect(same.status).toBe(200);
    expect(((await same.json()) as { seats: Seat[] }).seats).toEqual(again);
    expect(await eventCount()).toBe(before);
  });

  it('refuses a label used twice (any case), naming the second', async () => {
    const roomId = await createRoom('Twice room');
    const before = await eventCount();
    const res = await putSeats(roomId, [
      { label: 'C1', x: 1, y: 1 },
      { label: 'C2', x: 2, y: 2 },
      { label: ' c1 ', x: 3, y: 3 },
    ]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Problem;
    expect(body.error).toBe('validation__error');
    expect(body.errors).toEqual([
      { field: 'seats.2.label', rule: 'unique', message: messageOf({ key: 'unique' }) },
    ]);
    expect(await eventCount()).toBe(before);
  });

  it('accepts 2000 seats and refuses 2001', async () => {
    const roomId = await createRoom('Large room');
    const seats = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        label: `S${i + 1}`,
        zone: 'Main hall',
        attributes: ['power', 'lamp'],
        notes: 'By the shelves',
        x: (i % 50) * 2,
        y: Math.floor(i / 50) * 2,
      }));
    const many = await putSeats(roomId, seats(2000));
    expect(many.status).toBe(200);
    expect(((await many.json()) as { seats: Seat[] }).seats).toHaveLength(2000);
    expect((await seatsOf(roomId)).seats).toHaveLength(2000);
    const tooMany = await putSeats(roomId, seats(2001));
    expect(tooMany.status).toBe(400);
    const body = (await tooMany.json()) as Problem;
    expect(body.errors?.[0]?.field).toBe('seats');
  });

  it('refuses seats breaking their rules, naming each seat by its index from 0', async () => {
    const roomId = await createRoom('Rule room');
    const res = await putSeats(roomId, [
      { label: 'D1', x: 1, y: 1 },
      { label: '', x: 101, y: 1, rotation: 10, attributes: ['sofa'] },
    ]);
    expect(res.status).toBe(400);
    const fields = ((await res.json()) as Problem).errors!.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'seats.1.label',
        'seats.1.x',
        'seats.1.rotation',
        'seats.1.attributes.0',
      ]),
    );
    const unknown = await putSeats('00000000-0000-4000-8000-000000000000', []);
    expect(unknown.status).toBe(404);
  });
});

describe('out of service', () => {
  it('takes a seat out of service for a range of days and back, 404 for an unknown seat', async () => {
    const roomId = await createRoom('Broken lamp room');
    const set = await putSeats(roomId, [{ label: 'E1', x: 5, y: 5 }]);
    const [seat] = ((await set.json()) as { seats: Seat[] }).seats;
    const from = addDays(today(), 1);
    const until = addDays(today(), 3);
    const path = `/api/admin/rooms/${roomId}/seats/${seat!.id}/out-of-service`;
    const taken = await admin.request('POST', path, {
      json: { from, until, reason: 'The lamp is broken' },
    });
    expect(taken.status).toBe(201);
    const { id } = (await taken.json()) as { id: string };
    expect((await seatsOf(roomId)).outOfService).toEqual([
      { id, seatId: seat!.id, from, until, reason: 'The lamp is broken' },
    ]);

    const before = await eventCount();
    for (const [body, field] of [
      [{ from: until, until: from, reason: 'Exams' }, 'until'],
      [{ from: '2026-02-30', until, reason: 'Exams' }, 'from'],
      [{ from, until, reason: '' }, 'reason'],
      [{ from, until, reason: 'two\nlines' }, 'reason'],
      [{ from, until, reason: 'x'.repeat(501) }, 'reason'],
    ] as const) {
      const res = await admin.request('POST', path, { json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as Problem).errors?.[0]?.field).toBe(field);
    }
    const unknownSeat = await admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/seats/00000000-0000-4000-8000-000000000000/out-of-service`,
      { json: { from, until, reason: 'Exams' } },
    );
    expect(unknownSeat.status).toBe(404);
    expect(await eventCount()).toBe(before);

    const back = await admin.request(
      'DELETE',
      `/api/admin/rooms/${roomId}/seats/out-of-service/${id}`,
    );
    expect(back.status).toBe(204);
    await waitFor(
      'the range ended in the read model',
      async () => (await seatsOf(roomId)).outOfService.length === 0,
      budget(5000),
    );
    const again = await admin.request(
      'DELETE',
      `/api/admin/rooms/${roomId}/seats/out-of-service/${id}`,
    );
    expect(again.status).toBe(404);
  });
});

describe('seats.csv', () => {
  const putCsv = (roomId: string, body: string | Uint8Array<ArrayBuffer>, type = 'text/csv') =>
    admin.request('PUT', `/api/admin/rooms/${roomId}/seats.csv`, { raw: { body, type } });

  it('exports the seats and sets the same seats from the export', async () => {
    const roomId = await createRoom('CSV room');
    const set = await putSeats(roomId, [
      {
        label: 'F1',
        zone: 'Gallery; north',
        attributes: ['pc', 'quiet'],
        x: 12.5,
        y: 40,
        rotation: 45,
      },
      { label: '-F2', notes: '=SUM(A1) "quoted"\u00e4', x: 0, y: 100 },
      { label: 'F3', x: 99.9, y: 0.1, rotation: 345, attributes: ['accessible'] },
    ]);
    const seats = ((await set.json()) as { seats: Seat[] }).seats;
    const csv = await admin.get(`/api/admin/rooms/${roomId}/seats.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const bytes = new Uint8Array(await csv.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    expect(text.split('\r\n')[0]).toBe('label;zone;attributes;x;y;rotation;notes');

    // Into another room: the same seats (new ids), and back into this one: the same ids.
    const other = await createRoom('CSV copy room');
    const imported = await putCsv(other, bytes);
    expect(imported.status).toBe(200);
    const copied = ((await imported.json()) as { seats: Seat[] }).seats;
    const withoutIds = (list: Seat[]) => list.map(({ id: _id, ...s }) => s);
    expect(withoutIds(copied)).toEqual(withoutIds(seats));
    const before = await eventCount();
    const again = await putCsv(roomId, bytes);
    expect(((await again.json()) as { seats: Seat[] }).seats).toEqual(seats);
    expect(await eventCount()).toBe(before);
  });

  it('reads a comma-separated file without BOM, columns in any order, and names bad cells by seat', async () => {
    const roomId = await createRoom('CSV rules room');
    const ok = await putCsv(roomId, 'X,Y,Label,Attributes\n1,2,G1,power window\n\n3,4,G2,\n');
    expect(ok.status).toBe(200);
    expect(
      ((await ok.json()) as { seats: Seat[] }).seats.map((s) => [s.label, s.attributes]),
    ).toEqual([
      ['G1', ['power', 'window']],
      ['G2', []],
    ]);
    const bad = await putCsv(roomId, 'label;x;y;rotation\nH1;1;1;0\nH2;abc;1;7\n');
    expect(bad.status).toBe(400);
    const fields = ((await bad.json()) as Problem).errors!.map((e) => e.field);
    expect(fields).toEqual(['seats.1.x', 'seats.1.rotation']);
    const twice = await putCsv(roomId, 'label;x;y\nH1;1;1\nH2;2;2\nh1;3;3\n');
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as Problem).errors).toEqual([
      { field: 'seats.2.label', rule: 'unique', message: messageOf({ key: 'unique' }) },
    ]);
  });

  it('answers a malformed file 400, never 500, and stores nothing', async () => {
    const roomId = await createRoom('CSV fuzz room');
    const before = await eventCount();
    for (const [body, field] of [
      ['', 'csv'],
      ['label;x\nA;1\n', 'csv'],
      ['label;x;y;colour\nA;1;1;red\n', 'csv'],
      ['label;x;y\n"A;1;1\n', 'csv'],
      ['label;x;y\nA;1;1;extra\n', 'seats.0'],
    ] as const) {
      const res = await putCsv(roomId, body);
      expect(res.status, body).toBe(400);
      const problem = (await res.json()) as Problem;
      expect(problem.error).toBe('validation__error');
      expect(problem.errors?.[0]?.field, body).toBe(field);
    }
    const latin1 = await putCsv(
      roomId,
      new Uint8Array([0x6c, 0x61, 0x62, 0x65, 0x6c, 0x0a, 0xe4, 0x0a]),
    );
    expect(latin1.status).toBe(400);
    expect((await putCsv(roomId, 'label;x;y\n', 'application/json')).status).toBe(400);
    const tooLarge = await putCsv(roomId, 'label;x;y\n' + 'A;1;1\n'.repeat(200_000));
    expect(tooLarge.status).toBe(413);
    expect(await eventCount()).toBe(before);

    const cell = fc.oneof(
      fc.string(),
      fc.constantFrom('A1', '1', '12,5', '-3', '', '"', 'power pc', "'=1"),
    );
    const csvText = fc
      .tuple(
        fc.shuffledSubarray([
          'label',
          'zone',
          'attributes',
          'x',
          'y',
          'rotation',
          'notes',
          'other',
        ]),
        fc.array(fc.array(cell, { maxLength: 9 }), { maxLength: 6 }),
        fc.constantFrom(';', ',', '\t'),
      )
      .map(([header, rows, d]) => [header, ...rows].map((r) => r.join(d)).join('\r\n'));
    const anyBody = fc.oneof(
      csvText.map((t) => new TextEncoder().encode(t)),
      fc.uint8Array({ maxLength: 300 }),
    );
    await fc.assert(
      fc.asyncProperty(anyBody, async (body) => {
        const res = await putCsv(roomId, new Uint8Array(body));
        expect(res.status, new TextDecoder().decode(body)).toBeLessThan(500);
        if (res.status !== 200) expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      }),
      { numRuns: 150 },
    );
    // Only a fuzzed file that was a valid plan may have set seats.
    const r = await db.pool.query<{ type: string }>(
      'SELECT event_type AS type FROM events WHERE stream_id = $1 ORDER BY stream_version',
      [`room-${roomId}`],
    );
    expect(r.rows[0]!.type).toBe('RoomCreated');
    expect(r.rows.slice(1).every((e) => e.type === 'RoomSeatsSet')).toBe(true);
  });
});

describe('the plan image', () => {
  const form = (bytes: Buffer, filename: string, type: string) => {
    const f = new FormData();
    f.append('image', new Blob([new Uint8Array(bytes)], { type }), filename);
    return f;
  };
  const svg = Buffer.from(
    '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- the reading room -->\n' +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><script>alert(1)</script>' +
      '<rect width="800" height="600" fill="#eee"/></svg>\n',
  );
  const put = (roomId: string, bytes: Buffer, filename: string, type: string) =>
    admin.request('PUT', `/api/admin/rooms/${roomId}/seat-plan/image`, {
      form: form(bytes, filename, type),
    });

  it('stores PNG, JPEG and SVG, serves each sandboxed with its type, and removes it', async () => {
    const roomId = await createRoom('Plan image room');
    const image = async () =>
      ((await seatsOf(roomId)) as unknown as { image: Record<string, unknown> | null }).image;
    expect(await image()).toBeNull();
    for (const [bytes, name, type, size] of [
      [makePng(64, 48), 'plan.png', 'image/png', { width: 64, height: 48 }],
      [jpegHeader(640, 480), 'plan.jpeg', 'image/jpeg', { width: 640, height: 480 }],
      [svg, 'plan.svg', 'image/svg+xml', { width: 800, height: 600 }],
    ] as const) {
      const res = await put(roomId, bytes, name, type);
      expect(res.status, name).toBe(200);
      const known = (await image())!;
      expect(known).toMatchObject({ contentType: type, ...size });
      const served = await admin.get(`/api/${String(known.url)}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(served.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    }
    // The room's own image is apart from the plan's.
    expect((await admin.get(`/api/rooms/${roomId}/image`)).status).toBe(404);
    const removed = await admin.request('DELETE', `/api/admin/rooms/${roomId}/seat-plan/image`);
    expect(removed.status).toBe(200);
    expect(await image()).toBeNull();
    expect((await admin.get(`/api/rooms/${roomId}/seat-plan/image`)).status).toBe(404);
    const stored = await db.pool.query('SELECT 1 FROM room_images WHERE room_id = $1', [roomId]);
    expect(stored.rowCount).toBe(0);
  });

  it('refuses a PNG named .svg, HTML, an SVG inside another root and a file over the limit', async () => {
    const roomId = await createRoom('Refused plan image room');
    const before = await eventCount();
    const html = Buffer.from(
      '<!DOCTYPE html><html><body><svg xmlns="http://www.w3.org/2000/svg"></svg></body></html>',
    );
    for (const [bytes, name, type] of [
      [makePng(8, 8), 'plan.svg', 'image/svg+xml'],
      [html, 'plan.svg', 'image/svg+xml'],
      [html, 'plan.html', 'text/html'],
      [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/><html/>'),
        'plan.svg',
        'image/svg+xml',
      ],
      [Buffer.from('<!DOCTYPE svg [<!ENTITY a "b">]><svg/>'), 'plan.svg', 'image/svg+xml'],
      [Buffer.from('GIF89a'), 'plan.gif', 'image/gif'],
    ] as const) {
      const res = await put(roomId, bytes, name, type);
      expect(res.status, name).toBe(400);
      expect(((await res.json()) as Problem).error, name).toBe('image__invalid_type');
    }
    const big = await put(roomId, makePng(8, 8, 2_100_000), 'plan.png', 'image/png');
    expect(big.status).toBe(400);
    expect(((await big.json()) as Problem).error).toBe('image__too_large');
    expect(await eventCount()).toBe(before);
  });
});
