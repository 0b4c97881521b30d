import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { express, type Pool } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { sleep } from '../../tests/support/wait-for.ts';
import { minPositionGate } from './consistency.ts';

/**
 * The read-your-writes gate on its own, before a trivial read: many requests waiting for the
 * same position are served by one poll of the checkpoints, not one each; each is let go once every
 * read model has passed its position, or after the timeout marked stale.
 */
const NAMES = ['gate-a', 'gate-b'];
let db: TestDatabase;
let server: Server;
let base = '';
/** Reads of the checkpoints under way now, and the most at once. */
const reads = { now: 0, most: 0, total: 0 };

/** The pool the gate reads, following its reads of the checkpoints. */
function followedPool(pool: Pool): Pool {
  return new Proxy(pool, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop !== 'query' || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        reads.now += 1;
        reads.total += 1;
        reads.most = Math.max(reads.most, reads.now);
        try {
          return (await Reflect.apply(value, target, args)) as unknown;
        } finally {
          reads.now -= 1;
        }
      };
    },
  });
}

const moveTo = (gp: number) =>
  db.pool.query(
    `UPDATE projection_checkpoints SET last_tx = '100'::xid8, last_gp = $2 WHERE name = $1`,
    [NAMES[0], gp],
  );

const read = (position: string) =>
  fetch(`${base}/read`, { headers: { 'X-Min-Position': position } });

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(
    `INSERT INTO projection_checkpoints (name, last_tx, last_gp) SELECT unnest($1::text[]), '100', 10`,
    [NAMES],
  );
  // b stands far ahead: only a's moves decide below.
  await db.pool.query(`UPDATE projection_checkpoints SET last_gp = 1000000 WHERE name = $1`, [
    NAMES[1],
  ]);
  const app = express();
  app.use(minPositionGate(followedPool(db.pool), NAMES, 1500));
  app.get('/read', (_req, res) => void res.json({ ok: true }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await db.drop();
});

describe('the read-your-writes gate', () => {
  it('answers a position the read models passed at once, without a stale mark', async () => {
    const res = await read('100_5');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-read-stale')).toBeNull();
  });

  it('lets a crowd waiting for one position go together, on one poll of the checkpoints', async () => {
    await moveTo(20);
    Object.assign(reads, { now: 0, most: 0, total: 0 });
    const waiting = Array.from({ length: 50 }, () => read('100_30'));
    await sleep(300);
    const whileWaiting = reads.total;
    await moveTo(30);
    const answers = await Promise.all(waiting);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(answers.every((a) => a.headers.get('x-read-stale') === null)).toBe(true);
    // The checkpoints were read again and again while they waited, but one read at a time for all
    // fifty (each request polling on its own read them fifty at once).
    expect(whileWaiting).toBeGreaterThan(1);
    expect(reads.most).toBe(1);
  });

  it('answers marked stale when the read models do not reach the position in time', async () => {
    const res = await read('100_999');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-read-stale')).toBe('true');
  });
});
