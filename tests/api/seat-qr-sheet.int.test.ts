// The printed QR codes of a room's seats (docs/product.md#seat-plans): each seat's label, its
// visitor page under PUBLIC_BASE_URL and that address's QR code, for admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrSvg } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';

const VISITOR_BASE = 'https://library.example/reserve/';

let db: TestDatabase;
let app: TestApp;
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp(db, undefined, { env: { PUBLIC_BASE_URL: VISITOR_BASE } });
  await addUser(db, 'boss', 'correct horse', ['admin']);
  await addUser(db, 'counter', 'correct horse', ['reports']);
  admin = new Client(app.baseUrl);
  expect((await admin.login('boss', 'correct horse')).status).toBe(200);
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

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

interface QrSheet {
  seats: { id: string; label: string; url: string; svg: string }[];
}

describe('seat QR sheet', () => {
  it("answers each seat in the plan's order with the QR code of its visitor page", async () => {
    const roomId = await createRoom('QR room');
    const empty = await admin.get(`/api/admin/rooms/${roomId}/seats/qr-sheet`);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ seats: [] });

    const put = await admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
      json: {
        seats: [
          { label: 'B2', x: 20, y: 20 },
          { label: 'A1', x: 10, y: 10 },
        ],
      },
    });
    expect(put.status).toBe(200);
    const { seats, position } = (await put.json()) as {
      seats: { id: string; label: string }[];
      position: string;
    };
    const res = await admin.get(`/api/admin/rooms/${roomId}/seats/qr-sheet`, {
      'X-Min-Position': position,
    });
    expect(res.status).toBe(200);
    const sheet = (await res.json()) as QrSheet;
    expect(sheet.seats.map((s) => [s.id, s.label, s.url])).toEqual(
      seats.map((s) => [s.id, s.label, `${VISITOR_BASE}seat/${roomId}/${s.id}`]),
    );
    for (const seat of sheet.seats) expect(seat.svg).toBe(await qrSvg(seat.url));
  });

  it('answers 404 for a room that does not exist, and only to admins', async () => {
    const missing = await admin.get(
      '/api/admin/rooms/00000000-0000-4000-8000-000000000000/seats/qr-sheet',
    );
    expect(missing.status).toBe(404);
    expect((await admin.get('/api/admin/rooms/not-a-room/seats/qr-sheet')).status).toBe(404);

    const roomId = await createRoom('QR room for reports');
    const reports = new Client(app.baseUrl);
    expect((await reports.login('counter', 'correct horse')).status).toBe(200);
    expect((await reports.get(`/api/admin/rooms/${roomId}/seats/qr-sheet`)).status).toBe(403);
    expect(
      (await new Client(app.baseUrl).get(`/api/admin/rooms/${roomId}/seats/qr-sheet`)).status,
    ).toBe(401);
  });
});
