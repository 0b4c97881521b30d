import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { SweepsFirst } from './tests/support/sequencer.ts';
import { measureSlowness } from './tests/support/slowness.ts';

/**
 * The test kinds, by file name: `*.unit.test.ts` need nothing but Node (seconds), integration
 * tests (`*.int.test.ts`, tests/api, tests/topology) a real PostgreSQL, the browser smoke test
 * (`tests/e2e/*.smoke.test.ts`: each app once in Chromium) PostgreSQL, the built frontend and
 * Chromium; unset, these three run (`npm test`, the quick suite). The full browser matrix
 * (`tests/e2e/*.e2e.test.ts`: every screen, both languages, every width, the axe sweeps) runs on
 * its own (`npm run test:e2e`), as do `faults` (`*.faults.test.ts`: processes killed with
 * SIGKILL, PostgreSQL stopped under load), `ha` (`*.ha.test.ts`: a Patroni cluster with etcd and
 * HAProxy, from Debian's packages) and `ops` (`*.ops.test.ts`: backups and restores,
 * point-in-time recovery with pgBackRest, the compiled release as the image runs it, a rolling
 * upgrade). RR_TEST_KIND (set by tests/run-all.mjs: `npm run test:unit`, `test:int`,
 * `test:smoke`, `test:e2e`, `test:faults`, `test:ha`, `test:ops`) picks one.
 */
const kinds = {
  unit: ['*/src/**/*.unit.test.{ts,tsx}'],
  int: ['*/src/**/*.int.test.{ts,tsx}', 'tests/api/**/*.test.ts', 'tests/topology/**/*.test.ts'],
  smoke: ['tests/e2e/**/*.smoke.test.ts'],
  e2e: ['tests/e2e/**/*.e2e.test.ts'],
  faults: ['**/*.faults.test.ts'],
  ha: ['tests/topology/**/*.ha.test.ts'],
  ops: ['tests/ops/**/*.ops.test.ts'],
};
const kind = process.env.RR_TEST_KIND as keyof typeof kinds | undefined;
if (kind !== undefined && !(kind in kinds))
  throw new Error(`RR_TEST_KIND must be one of ${Object.keys(kinds).join(', ')}, not ${kind}`);
const onTheirOwn = ['e2e', 'faults', 'ha', 'ops']
  .filter((k) => k !== kind)
  .map((k) => `**/*.${k}.test.ts`);

// Every time budget of the tests (these defaults, the ones a test names through
// tests/support/time-budget.ts) is stretched by how slow this machine is at the start of the run.
const slowness = measureSlowness();
const cores = os.availableParallelism();
if (!process.env.VITEST_POOL_ID && !process.env.RR_SLOWNESS_SHOWN) {
  process.env.RR_SLOWNESS_SHOWN = '1';
  console.log(
    `time budgets ×${slowness.factor} (calibration ${slowness.cpuMs} ms, load ${slowness.loadPerCore} per core)`,
  );
}

export default defineConfig({
  test: {
    include: kind ? kinds[kind] : [...kinds.unit, ...kinds.int, ...kinds.smoke],
    exclude: ['**/node_modules/**', '**/dist/**', ...onTheirOwn],
    // Unit tests start no PostgreSQL; the HA test starts its own cluster.
    globalSetup: kind === 'unit' || kind === 'ha' ? [] : ['tests/support/global-setup.ts'],
    pool: 'forks',
    // One test process per worker serves file after file (no fresh process and module graph per
    // file): loading the server's modules again for each of the suite's files cost more than a
    // third of the unit and integration runs' CPU. Every file starts its own database, app or
    // server and browser, so nothing a test relies on outlives its file. The fault, failover and
    // operations files kill and restart processes: each keeps its own. RR_TEST_ISOLATE=1 isolates
    // every file (to rule out one file's leftovers when a test fails only in the whole run).
    isolate:
      process.env.RR_TEST_ISOLATE === '1' || kind === 'faults' || kind === 'ha' || kind === 'ops',
    // The HA files start a cluster each and measure its failover; the fault files kill and
    // restart what the others share the cores with: one at a time. Unit tests keep the cores
    // busy on their own. An integration or browser test spends most of its time waiting on the
    // server, PostgreSQL and Chromium: two files a core keep the cores busy (a browser file alone
    // keeps about one core busy with its Chromium and server, so the browser matrix is CPU-bound).
    // The ops files build, restore and upgrade whole releases: one at a time too.
    maxWorkers:
      kind === 'ha' || kind === 'faults' || kind === 'ops'
        ? 1
        : kind === 'unit'
          ? cores
          : Math.max(2, 2 * cores),
    sequence: { sequencer: SweepsFirst },
    env: { RR_TEST_SLOWNESS: String(slowness.factor) },
    // Budgets before stretching: generous, the slowest test takes under a minute (a failover
    // test under Patroni's timing several).
    // expect.poll waits for what another process or a projection does next: five seconds
    // before stretching (vitest's default of one second is too short on a busy machine).
    expect: { poll: { timeout: 5_000 * slowness.factor } },
    testTimeout: (kind === 'ha' || kind === 'ops' ? 300_000 : 120_000) * slowness.factor,
    hookTimeout: (kind === 'ha' || kind === 'ops' ? 300_000 : 180_000) * slowness.factor,
  },
});
