import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadlineAfter, post, type Outcome } from './outbound-request.ts';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** A receiver that takes the request and never answers. */
let hanging: http.Server;
let url: URL;
beforeAll(async () => {
  hanging = http.createServer(() => undefined);
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`);
});
afterAll(async () => {
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
});

const sendUntil = (deadline: AbortSignal): Promise<Outcome> =>
  post(url, { address: '127.0.0.1', family: 4 }, {}, '{}', deadline);

describe("a webhook attempt's deadline", () => {
  it('cuts off a receiver that never answers, though garbage is collected while it waits', async () => {
    const stop = new AbortController();
    const deadline = deadlineAfter(300, stop.signal);
    const outcome = sendUntil(deadline.signal);
    for (let i = 0; i < 5; i++) {
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Far past the deadline: an attempt still open then would hang for good.
    let guard: NodeJS.Timeout | undefined;
    const late = new Promise<'still open'>((resolve) => {
      guard = setTimeout(() => resolve('still open'), 5_000);
    });
    expect(await Promise.race([outcome, late])).toEqual({
      ok: false,
      status: null,
      error: 'timeout',
    });
    clearTimeout(guard);
    deadline.clear();
  });

  it("ends at the sender's stop as a stop, not a failure of the receiver", async () => {
    const stop = new AbortController();
    const deadline = deadlineAfter(60_000, stop.signal);
    const outcome = sendUntil(deadline.signal);
    setTimeout(() => stop.abort(), 50);
    expect(await outcome).toEqual({ ok: false, status: null, error: 'stopped' });
    deadline.clear();
  });
});
