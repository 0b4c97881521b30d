import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom } from '../support/fixtures.ts';

/**
 * The bounds of a seat plan as staff set it (docs/product.md#setting-the-plan): a label of at most
 * 12 characters, a zone of at most 40 and notes of at most 200, a seat breaking one named by its
 * index (`seats.N.label`); a body larger than SEAT_PLAN_MAX_BODY_BYTES answered 413, JSON and CSV
 * alike. The setting is lowered here to its least (1024 bytes, a few dozen seats), so a body one
 * byte over it is a small request. Whatever is refused stores nothing.
 */
const MAX_BODY = 1024;
let suite: AdminSuite;

interface Seat {
  label: string;
  zone: string | null;
  notes: string | null;
}
interface Problem {
  error: string;
  errors?: { field: string; rule: string }[];
}

/** A text of exactly `n` characters (no blank at either end for the trim to take). */
const textOf = (n: number) => 'Fensterreihe Nord '.repeat(12).slice(0, n - 1) + '.';

const putSeats = (roomId: string, seats: unknown[]) =>
  suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, { json: { seats } });
const putBody = (roomId: string, body: string, type: string) =>
  suite.admin.request(
    'PUT',
    `/api/admin/rooms/${roomId}/seats${type === 'text/csv' ? '.csv' : ''}`,
    {
      raw: { body, type },
    },
  );

async function seatsOf(roomId: string): Promise<Seat[]> {
  const res = await suite.admin.get(`/api/admin/rooms/${roomId}/seats`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { seats: Seat[] }).seats;
}

const eventCount = async () =>
  Number((await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

/** `text` followed by blanks up to exactly `bytes` bytes (JSON and CSV both allow them there). */
function padded(text: string, bytes: number): string {
  const length = Buffer.byteLength(text);
  expect(length).toBeLessThanOrEqual(bytes);
  return text + ' '.repeat(bytes - length);
}

beforeAll(async () => {
  suite = await openAdminSuite(undefined, {
    env: { SEAT_PLAN_MAX_BODY_BYTES: String(MAX_BODY) },
  });
});
afterAll(async () => {
  await suite.close();
});

describe("a seat's texts", () => {
  it('refuses a label of 13, a zone of 41 and notes of 201 characters, naming each seat', async () => {
    const roomId = await createRoom(suite.admin, 'Text bound room');
    const before = await eventCount();
    const res = await putSeats(roomId, [
      { label: 'A1', x: 1, y: 1 },
      { label: textOf(13), x: 2, y: 1 },
      { label: 'A3', zone: textOf(41), x: 3, y: 1 },
      { label: 'A4', notes: textOf(201), x: 4, y: 1 },
    ]);
    expect(res.status).toBe(400);
    const problem = (await res.json()) as Problem;
    expect(problem.error).toBe('validation__error');
    expect(problem.errors?.map((e) => [e.field, e.rule])).toEqual([
      ['seats.1.label', 'too_big'],
      ['seats.2.zone', 'too_big'],
      ['seats.3.notes', 'too_big'],
    ]);
    expect(await eventCount()).toBe(before);
    expect(await seatsOf(roomId)).toEqual([]);
  });

  it('keeps a label of 12, a zone of 40 and notes of 200 characters whole', async () => {
    const roomId = await createRoom(suite.admin, 'Text limit room');
    const seat = { label: textOf(12), zone: textOf(40), notes: textOf(200), x: 5, y: 5 };
    const res = await putSeats(roomId, [seat]);
    expect(res.status).toBe(200);
    const kept = { label: seat.label, zone: seat.zone, notes: seat.notes };
    expect(((await res.json()) as { seats: Seat[] }).seats).toEqual([
      expect.objectContaining(kept),
    ]);
    expect(await seatsOf(roomId)).toEqual([expect.objectContaining(kept)]);
  });
});

describe('the size of the body setting the seats', () => {
  const seats = Array.from({ length: 8 }, (_, i) => ({
    label: `B${i + 1}`,
    zone: 'Galerie',
    x: i * 10,
    y: 50,
  }));
  const json = JSON.stringify({ seats });
  const csv = ['label;zone;x;y', ...seats.map((s) => `${s.label};${s.zone};${s.x};${s.y}`)].join(
    '\r\n',
  );

  for (const type of ['application/json', 'text/csv']) {
    it(`answers 413 to a ${type} body one byte over SEAT_PLAN_MAX_BODY_BYTES and takes one of exactly that size`, async () => {
      const roomId = await createRoom(suite.admin, `Body room ${type}`);
      const text = type === 'text/csv' ? csv : json;
      const before = await eventCount();
      const over = await putBody(roomId, padded(text, MAX_BODY + 1), type);
      expect(over.status).toBe(413);
      expect(over.headers.get('content-type')).toMatch(/problem\+json/);
      expect(((await over.json()) as Problem).error).toBe('http__payload_too_large');
      expect(await eventCount()).toBe(before);
      expect(await seatsOf(roomId)).toEqual([]);

      const atLimit = await putBody(roomId, padded(text, MAX_BODY), type);
      expect(atLimit.status).toBe(200);
      expect((await seatsOf(roomId)).map((s) => s.label)).toEqual(seats.map((s) => s.label));
    });
  }
});
