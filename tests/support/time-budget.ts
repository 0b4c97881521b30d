/**
 * How much slower than the reference machine this run is: measured once at the start of the run
 * (tests/support/slowness.ts, from vitest.config.ts) and handed to every test process.
 */
export const SLOWNESS =
  Number(process.env.RR_TEST_SLOWNESS) > 0 ? Number(process.env.RR_TEST_SLOWNESS) : 1;

/**
 * A time budget for a test, a hook or a wait, in milliseconds: what it needs on the reference
 * machine (generously), stretched by this run's slowness.
 */
export const budget = (ms: number): number => Math.round(ms * SLOWNESS);
