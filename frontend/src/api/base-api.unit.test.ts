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
