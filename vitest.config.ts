import { defineConfig } from 'vitest/config';

/**
 * The test kinds, by file name: `*.unit.test.ts` need nothing but Node (seconds), integration
 * tests (`*.int.test.ts`, tests/api, tests/topology) a real PostgreSQL, browser tests
 * (tests/e2e) PostgreSQL, the built frontend and Chromium. RR_TEST_KIND (set by tests/run-all.mjs:
 * `npm run test:unit`, `test:int`, `test:e2e`, `test:ha`) picks one; unset, all but `ha` run
 * (`npm test`). `ha` (`*.ha.test.ts`: a Patroni cluster with etcd and HAProxy, from Debian's
 * packages) runs only on its own.
 */
const kinds = {
  unit: ['*/src/**/*.unit.test.{ts,tsx}'],
  int: ['*/src/**/*.int.test.{ts,tsx}', 'tests/api/**/*.test.ts', 'tests/topology/**/*.test.ts'],
  e2e: ['tests/e2e/**/*.test.ts'],
  ha: ['tests/topology/**/*.ha.test.ts'],
};
const kind = process.env.RR_TEST_KIND as keyof typeof kinds | undefined;
if (kind !== undefined && !(kind in kinds))
  throw new Error(`RR_TEST_KIND must be one of ${Object.keys(kinds).join(', ')}, not ${kind}`);

export default defineConfig({
  test: {
    include: kind ? kinds[kind] : Object.values(kinds).flat(),
    exclude: ['**/node_modules/**', '**/dist/**', ...(kind === 'ha' ? [] : ['**/*.ha.test.ts'])],
    // Unit tests start no PostgreSQL; the HA test starts its own cluster.
    globalSetup: kind === 'unit' || kind === 'ha' ? [] : ['tests/support/global-setup.ts'],
    pool: 'forks',
    // The HA files start a cluster each and measure its failover: one at a time.
    maxWorkers: kind === 'ha' ? 1 : 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
