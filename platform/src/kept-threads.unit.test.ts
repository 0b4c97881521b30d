import { describe, expect, it } from 'vitest';
import { budget } from '../../tests/support/time-budget.ts';
import { KeptThreads, ThreadStopped, workerModule } from './kept-threads.ts';
import type { TestRun } from './testing/kept-threads-worker.ts';

const module = workerModule(import.meta.url, './testing/kept-threads-worker');
const run = (pool: KeptThreads, message: TestRun, timeoutMs = budget(20_000)) =>
  pool.run<string>({ message, timeoutMs, heapMb: 64 });

describe('threads kept between runs', () => {
  it('serves runs one after the other from one thread, and keeps it', async () => {
    const pool = new KeptThreads(module, 1);
    expect(await run(pool, { echo: 'a' })).toBe('a');
    expect(await run(pool, { echo: 'b' })).toBe('b');
    expect(pool.started).toBe(1);
    expect(pool.kept).toBe(1);
  });

  it.each(['exit', 'throw'] as const)(
    'lets go of an idle thread that ends on its own (%s), and the next run starts another',
    async (afterwards) => {
      const pool = new KeptThreads(module, 1);
      expect(await run(pool, { echo: 'a', afterwards })).toBe('a');
      // The thread ends a moment after its answer, while kept: the pool must not keep it, or
      // the next run would be sent to a thread that is gone and wait out its time.
      await expect.poll(() => pool.kept).toBe(0);
      expect(await run(pool, { echo: 'b' })).toBe('b');
      expect(pool.started).toBe(2);
      expect(pool.kept).toBe(1);
    },
  );

  it('stops a run over its time, and the next one starts a thread of its own', async () => {
    const pool = new KeptThreads(module, 1);
    await expect(run(pool, { echo: 'a' }, 1)).rejects.toEqual(new ThreadStopped('time'));
    expect(pool.kept).toBe(0);
    expect(await run(pool, { echo: 'b' })).toBe('b');
    expect(pool.started).toBe(2);
  });
});
