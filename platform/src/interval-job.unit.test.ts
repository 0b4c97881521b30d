import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { startIntervalJob } from './interval-job.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('startIntervalJob', () => {
  it('runs one round at a time, goes on after a failed round, and stops after the round in progress', async () => {
    let active = 0;
    let most = 0;
    let rounds = 0;
    const job = startIntervalJob(
      'test',
      async () => {
        active += 1;
        most = Math.max(most, active);
        rounds += 1;
        await sleep(15);
        active -= 1;
        if (rounds === 1) throw new Error('first round fails');
      },
      5,
      createLogger('silent'),
      { runAtStart: true },
    );
    await sleep(80);
    await job.stop();
    const after = rounds;
    expect(active).toBe(0);
    expect(most).toBe(1);
    expect(rounds).toBeGreaterThan(1);
    await sleep(30);
    expect(rounds).toBe(after);
  });

  it('skips the ticks that come during a slow round instead of queuing rounds, so a stop waits for the one round running', async () => {
    let rounds = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const job = startIntervalJob(
      'test',
      async () => {
        rounds += 1;
        await gate;
      },
      2,
      createLogger('silent'),
      { runAtStart: true },
    );
    // Many ticks pass while the first round waits.
    await sleep(40);
    expect(rounds).toBe(1);
    release();
    await job.stop();
    expect(rounds).toBe(1);
  });
});
