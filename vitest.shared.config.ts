import { defineConfig } from 'vitest/config';

/** Extra checks against real-world files in ../shared (CI only; the project's own tests never need them). */
export default defineConfig({
  test: {
    include: ['tests/shared-fixtures/**/*.check.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
