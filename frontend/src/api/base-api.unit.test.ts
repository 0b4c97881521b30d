import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStore } from '../app/store';
import { parseConfig } from '../lib/config';
import { ASK_AGAIN } from '../lib/constants';
import { baseApi } from './base-api';

/** What the test server answers, try after try, per path. */
type Answer = { status: number; headers?: Record<string, string>; body: unknown };
const script = new Map<string, Answer[]>();
const asked = new Map<string, number>();

const probeApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, string>({ query: (path) => path }),
    poke: build.mutation<unknown, string>({
      query: (path) => ({ url: path, method: 'POST', body: {} }),
    }),
  }),
});

let server: Server;
let apiUrl = '';

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    const tries = (asked.get(path) ?? 0) + 1;
    asked.set(path, tries);
    const answers = script.get(path) ?? [];
    const answer = answers[Math.min(tries, answers.length) - 1] ?? { status: 500, body: null };
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function probe(path: string) {
  const store = makeStore(parseConfig({ baseApiUrl: apiUrl }, 'de'));
  return store.dispatch(probeApi.endpoints.probe.initiate(path));
}

async function poke(path: string) {
  const store = makeStore(parseConfig({ baseApiUrl: apiUrl }, 'de'));
  return store.dispatch(probeApi.endpoints.poke.initiate(path));
}

const stale404: Answer = {
  status: 404,
  headers: { 'X-Read-Stale': 'true' },
  body: { code: 'transaction__not_found' },
};

describe('a read of the app’s own write that the read models have not caught up with', () => {
  it('is asked again while it answers a stale 404, and then shows what it found', async () => {
    script.set('/api/transactions/a', [stale404, stale404, { status: 200, body: { id: 'a' } }]);
    const result = await probe('transactions/a');
    expect(result.data).toEqual({ id: 'a' });
    expect(asked.get('/api/transactions/a')).toBe(3);
  });

  it('gives up after a few tries and shows the 404', async () => {
    script.set('/api/transactions/b', [stale404]);
    const result = await probe('transactions/b');
    expect(result.error).toMatchObject({ status: 404 });
    expect(asked.get('/api/transactions/b')).toBe(1 + ASK_AGAIN);
  });

  it('takes a 404 the read models stood behind (not stale) at once', async () => {
    script.set('/api/transactions/c', [
      { status: 404, body: { code: 'transaction__not_found' } },
      { status: 200, body: { id: 'c' } },
    ]);
    const result = await probe('transactions/c');
    expect(result.error).toMatchObject({ status: 404 });
    expect(asked.get('/api/transactions/c')).toBe(1);
  });

  it('keeps a stale answer that found something (marked stale, shown as it is)', async () => {
    script.set('/api/rooms', [
      { status: 200, headers: { 'X-Read-Stale': 'true' }, body: [] },
      { status: 200, body: [{ id: 'r' }] },
    ]);
    const result = await probe('rooms');
    expect(result.data).toEqual([]);
    expect(asked.get('/api/rooms')).toBe(1);
  });
});

/**
 * Shed load (docs/product.md#overload): the server answers 503 with Retry-After before it ran the
 * request. The waits here are a hundredth of a second, so the test does not sleep for seconds.
 */
const overloaded: Answer = {
  status: 503,
  headers: { 'Retry-After': '0.01' },
  body: { error: 'service__overloaded', payload: [] },
};

describe('a request the server shed', () => {
  it('is asked again after the wait the server said, and then shows what it found', async () => {
    script.set('/api/timeslots/a', [overloaded, overloaded, { status: 200, body: [{ id: 'a' }] }]);
    const result = await probe('timeslots/a');
    expect(result.data).toEqual([{ id: 'a' }]);
    expect(asked.get('/api/timeslots/a')).toBe(3);
  });

  it('gives up after a few tries and shows the refusal', async () => {
    script.set('/api/timeslots/b', [overloaded]);
    const result = await probe('timeslots/b');
    expect(result.error).toMatchObject({ status: 503, data: { error: 'service__overloaded' } });
    expect(asked.get('/api/timeslots/b')).toBe(1 + ASK_AGAIN);
  });

  it('sends a command again only when it was shed, never after another 503 that may have written', async () => {
    script.set('/api/transactions/shed', [overloaded, { status: 201, body: { id: 'shed' } }]);
    expect((await poke('transactions/shed')).data).toEqual({ id: 'shed' });
    expect(asked.get('/api/transactions/shed')).toBe(2);

    script.set('/api/transactions/unavailable', [
      { ...overloaded, body: { error: 'service__unavailable', payload: [] } },
      { status: 201, body: { id: 'twice' } },
    ]);
    const once = await poke('transactions/unavailable');
    expect(once.error).toMatchObject({ status: 503 });
    expect(asked.get('/api/transactions/unavailable')).toBe(1);
  });

  it('takes a 503 without Retry-After at once', async () => {
    script.set('/api/timeslots/c', [
      { status: 503, body: { error: 'service__unavailable', payload: [] } },
      { status: 200, body: [] },
    ]);
    const result = await probe('timeslots/c');
    expect(result.error).toMatchObject({ status: 503 });
    expect(asked.get('/api/timeslots/c')).toBe(1);
  });
});
