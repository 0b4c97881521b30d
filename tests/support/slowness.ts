import { createHash } from 'node:crypto';
import os from 'node:os';

/**
 * How long the calibration's work takes on this project's reference machine (2 cores, idle):
 * the median of its rounds there. A run on a slower or busier machine measures more and scales
 * every time budget of the tests by the ratio.
 */
export const REFERENCE_MS = 25;

/** The most a budget is stretched: beyond this, a test that still does not finish is stuck. */
const MAX_FACTOR = 4;

export interface Slowness {
  /** What the time budgets are multiplied by (1 to 4). */
  factor: number;
  /** The median round of the calibration here, against REFERENCE_MS. */
  cpuMs: number;
  /** The one-minute load average per core when the run started. */
  loadPerCore: number;
}

/** One round: hashing and JSON, the kind of work the servers under test do. */
function round(): number {
  const started = process.hrtime.bigint();
  const rows = Array.from({ length: 2_000 }, (_, i) => ({
    id: i,
    name: `row ${i}`,
    seats: i % 40,
  }));
  let digest = '';
  for (let i = 0; i < 20; i += 1) {
    const text = JSON.stringify(rows);
    digest = createHash('sha256').update(text).update(digest).digest('hex');
    JSON.parse(text);
  }
  if (digest.length !== 64) throw new Error('calibration hash has the wrong length');
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Measures at the start of a test run how much slower than the reference this machine is now:
 * the CPU's speed (the median of seven rounds of work) times the load other jobs put on the
 * cores (one plus the load average per core: another CPU-bound test run beside this one on two
 * cores about doubles every duration). RR_TEST_SLOWNESS set by hand wins.
 */
export function measureSlowness(): Slowness {
  const rounds = Array.from({ length: 7 }, round).sort((a, b) => a - b);
  const cpuMs = rounds[3]!;
  const loadPerCore = os.loadavg()[0]! / Math.max(1, os.availableParallelism());
  const given = Number(process.env.RR_TEST_SLOWNESS);
  const measured = Math.max(1, cpuMs / REFERENCE_MS) * (1 + Math.min(loadPerCore, 2));
  const factor = given > 0 ? given : Math.min(MAX_FACTOR, Math.round(measured * 10) / 10);
  return { factor, cpuMs: Math.round(cpuMs), loadPerCore: Math.round(loadPerCore * 100) / 100 };
}
