import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sleep } from './runner-sleep.ts';

describe('the projection runner sleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('leaves no abort listener behind when the timer fires (a standby runner sleeps every second)', async () => {
    vi.useFakeTimers();
    const abort = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 50; i++) {
        const slept = sleep(1000, abort.signal);
        expect(getEventListeners(abort.signal, 'abort')).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(1000);
        await slept;
        expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
      }
      // Node emits the warning on the next tick.
      await new Promise((resolve) => process.nextTick(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('ends early when the signal aborts', async () => {
    vi.useFakeTimers();
    const abort = new AbortController();
    let done = false;
    const slept = sleep(60_000, abort.signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toBe(false);
    abort.abort();
    await slept;
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });

  it('ends at once when the signal has already aborted', async () => {
    vi.useFakeTimers();
    const abort = new AbortController();
    abort.abort();
    let done = false;
    void sleep(60_000, abort.signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
