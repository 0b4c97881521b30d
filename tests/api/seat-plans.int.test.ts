// A room's seat plan as staff set it (docs/product.md#seat-plans): seats, CSV, out of service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageOf } from '@rr/contracts';
import { addDays, todayIn } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

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
    expect(await seatsOf(roomId)).toEqual({ seats: [], outOfService: [] });
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
      { field: 'seats.2.label', rule: 'custom', message: messageOf({ key: 'unique' }) },
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
