import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import type { Pool } from './db.ts';
import { describeDatabaseUrl, readPoolsOver } from './read-pools.ts';

/** A pool that answers its name, or fails as a lost connection while `down`. */
function fakePool(name: string) {
  const state = { down: false, calls: 0 };
  const pool = {
    query: (text: string) => {
      state.calls += 1;
      if (state.down) return Promise.reject(new Error('Connection terminated unexpectedly'));
      return Promise.resolve({ rows: [{ name, text }] });
    },
    end: () => Promise.resolve(),
    options: { name },
  } as unknown as Pool;
  return { pool, state };
}

const askedOf = async (pool: Pool) =>
  ((await pool.query('SELECT 1')) as unknown as { rows: { name: string }[] }).rows[0]!.name;

/** Runs fn as the rest of a request after the pin middleware. */
function inRequest<T>(pin: (req: never, res: never, next: () => void) => void, fn: () => T) {
  return new Promise<T>((resolve) =>
    pin(undefined as never, undefined as never, () => resolve(fn())),
  );
}

describe('read pools over replicas', () => {
  it('spreads reads over the replicas and keeps one server for the whole of a request', async () => {
    const primary = fakePool('primary');
    const r1 = fakePool('r1');
    const r2 = fakePool('r2');
    const reads = readPoolsOver(
      [
        { name: 'r1', pool: r1.pool },
        { name: 'r2', pool: r2.pool },
      ],
      primary.pool,
    );
    // Until the replicas have answered a first probe, reads go to the primary.
    expect(await askedOf(reads.pool)).toBe('primary');
    await reads.ready();
    expect(reads.status()).toEqual([
      { name: 'r1', up: true },
      { name: 'r2', up: true },
    ]);
    const seen: string[][] = [];
    for (let i = 0; i < 4; i++) {
      seen.push(
        await inRequest(reads.pin, async () => {
          // The gate's checkpoint reads and the route's read, with turns of the event loop between.
          const a = await askedOf(reads.pool);
          await new Promise((r) => setTimeout(r, 1));
          const b = await askedOf(reads.pool);
          return [a, b];
        }),
      );
    }
    for (const [a, b] of seen) expect(a).toBe(b);
    expect(seen.map(([a]) => a)).toEqual(['r1', 'r2', 'r1', 'r2']);
    expect(primary.state.calls).toBe(1);
    await reads.close();
  });

  it('leaves out a replica that lost its connection, reads on the primary when none is left, and takes it back once it answers', async () => {
    const primary = fakePool('primary');
    const r1 = fakePool('r1');
    const reads = readPoolsOver([{ name: 'r1', pool: r1.pool }], primary.pool, { probeMs: 10 });
    await reads.ready();
    r1.state.down = true;
    await expect(askedOf(reads.pool)).rejects.toThrow(/Connection terminated/);
    await new Promise((r) => setTimeout(r, 0));
    expect(reads.status()).toEqual([{ name: 'r1', up: false }]);
    expect(await askedOf(reads.pool)).toBe('primary');
    expect(await inRequest(reads.pin, () => askedOf(reads.pool))).toBe('primary');
    r1.state.down = false;
    await new Promise((r) => setTimeout(r, 50));
    expect(reads.status()).toEqual([{ name: 'r1', up: true }]);
    expect(await askedOf(reads.pool)).toBe('r1');
    await reads.close();
  });

  it('gives no reads to a replica that does not answer at start', async () => {
    const primary = fakePool('primary');
    const r1 = fakePool('r1');
    const r2 = fakePool('r2');
    r1.state.down = true;
    const reads = readPoolsOver(
      [
        { name: 'r1', pool: r1.pool },
        { name: 'r2', pool: r2.pool },
      ],
      primary.pool,
      { probeMs: 10 },
    );
    await reads.ready();
    const asked = [];
    for (let i = 0; i < 3; i++) asked.push(await inRequest(reads.pin, () => askedOf(reads.pool)));
    expect(asked).toEqual(['r2', 'r2', 'r2']);
    await reads.close();
  });

  it('does not leave out a replica for a failed query', async () => {
    const primary = fakePool('primary');
    const failing = {
      query: (text: string) =>
        text === 'SELECT 1'
          ? Promise.resolve({ rows: [] })
          : Promise.reject(Object.assign(new Error('syntax error'), { code: '42601' })),
      end: () => Promise.resolve(),
    } as unknown as Pool;
    const reads = readPoolsOver([{ name: 'r1', pool: failing }], primary.pool);
    await reads.ready();
    await expect(reads.pool.query('SELEC 1')).rejects.toThrow(/syntax/);
    await new Promise((r) => setTimeout(r, 0));
    expect(reads.status()).toEqual([{ name: 'r1', up: true }]);
    await reads.close();
  });

  it('pins one replica from the middleware through an Express app to the route handler', async () => {
    const r1 = fakePool('r1');
    const r2 = fakePool('r2');
    const reads = readPoolsOver(
      [
        { name: 'r1', pool: r1.pool },
        { name: 'r2', pool: r2.pool },
      ],
      fakePool('primary').pool,
    );
    await reads.ready();
    const app = express();
    app.use(express.json());
    app.use(reads.pin);
    // As the read-your-writes gate: reads before the route, with turns of the event loop.
    app.use((req, res, next) => {
      void askedOf(reads.pool).then((gate) => {
        res.locals.gate = gate;
        setTimeout(next, 1);
      });
    });
    app.get('/read', async (_req, res) => {
      const route = await askedOf(reads.pool);
      res.json({ gate: res.locals.gate as string, route });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/read`;
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, async () => (await fetch(url)).json()),
      );
      for (const a of answers as { gate: string; route: string }[]) expect(a.route).toBe(a.gate);
      expect(new Set((answers as { gate: string }[]).map((a) => a.gate))).toEqual(
        new Set(['r1', 'r2']),
      );
    } finally {
      server.close();
      await reads.close();
    }
  });

  it('names a database URL without its password', () => {
    expect(describeDatabaseUrl('postgres://u:secret@db.example:6432/rr')).toBe(
      'db.example:6432/rr',
    );
    expect(describeDatabaseUrl('postgres://u:secret@db/rr')).toBe('db:5432/rr');
  });
});
