// The test command. `node tests/run-all.mjs [--unit|--int|--smoke|--e2e|--faults|--ha|--ops] [filters...]`:
//   (no kind)  the quick suite: unit and integration tests and the browser smoke test (`npm test`)
//   --unit     unit tests only, no PostgreSQL (`npm run test:unit`)
//   --int      integration tests against a real PostgreSQL (`npm run test:int`)
//   --smoke    the browser smoke test: each app once in Chromium (`npm run test:smoke`)
//   --e2e      the full browser matrix in Chromium: every screen, both languages, every width,
//              the axe sweeps (`npm run test:e2e`; not part of the others)
//   --faults   the fault-injection tests: processes killed with SIGKILL, PostgreSQL stopped under
//              load (`npm run test:faults`; not part of the others)
//   --ha       the failover tests on a Patroni cluster (`npm run test:ha`; not part of the others)
//   --ops      backups and restores, point-in-time recovery with pgBackRest, the compiled release
//              as the image runs it, a rolling upgrade (`npm run test:ops`; not part of the others)
// Builds the frontend first when the run includes browser tests and frontend/dist is missing or
// older than its sources. Ends with one line `N passed, N failed` counted from vitest's JSON report.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureFrontendBuilt } from '../scripts/frontend-build.mjs';
import { ensureServerBuilt, serverIsStale } from '../scripts/build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const kinds = args
  .filter((a) => ['--unit', '--int', '--smoke', '--e2e', '--faults', '--ha', '--ops'].includes(a))
  .map((a) => a.slice(2));
if (kinds.length > 1) {
  console.error('Give at most one of --unit, --int, --smoke, --e2e, --faults, --ha, --ops.');
  process.exit(2);
}
const kind = kinds[0];
// A report for each kind (kept for a look at the durations): CI runs the failover tests beside
// the date-shifted unit and integration tests, and each run must count its own.
const report = path.join(root, '.tmp', `vitest-report-${kind ?? 'all'}.json`);
mkdirSync(path.dirname(report), { recursive: true });
rmSync(report, { force: true });

const filters = args.filter((a) => !a.startsWith('--'));
const started = Date.now();
// The ops tests run the built release (frontend/dist in the image's folder).
if (kind === undefined || kind === 'smoke' || kind === 'e2e' || kind === 'ops')
  ensureFrontendBuilt();
// The compose profile's services run the image's command: the compiled release.
if (kind === 'ha' || kind === 'ops') ensureServerBuilt();
// The servers the tests start run the compiled release when it is current (CI compiles it before
// the tests): the same code, but a start from the sources through tsx costs about 1.5 s more CPU,
// and the browser matrix alone starts about eighty. Stale or missing, the sources run.
const compiledServer =
  existsSync(path.join(root, 'server', 'dist', 'src', 'main.js')) && !serverIsStale();

const run = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...filters,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      ...(kind ? { RR_TEST_KIND: kind } : {}),
      ...(compiledServer ? { RR_COMPILED_SERVER: '1' } : {}),
      FORCE_COLOR: process.env.CI ? '0' : '1',
    },
  },
);

let passed = 0;
let failed = 0;
// One line per failed test (`FAILED <file> > <test>: <first line of the error>`), so that the end
// of a long log (all a CI summary may keep) still names what failed and why.
const failures = [];
const firstLine = (text) =>
  stripVTControlCharacters(String(text ?? ''))
    .trim()
    .split('\n')[0];
if (existsSync(report)) {
  const data = JSON.parse(readFileSync(report, 'utf8'));
  passed = data.numPassedTests ?? 0;
  // A skipped test counts as failed, except those a name filter (-t) left out on purpose.
  const skippedFail = !filters.includes('-t');
  failed =
    (data.numFailedTests ?? 0) +
    (skippedFail ? (data.numPendingTests ?? 0) + (data.numTodoTests ?? 0) : 0);
  for (const file of data.testResults ?? []) {
    const name = path.relative(root, file.name ?? '');
    // A file that failed to load counts as a failure even though it ran no test.
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) {
      failed += 1;
      failures.push(`FAILED ${name}: ${firstLine(file.message)}`);
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed' || (!skippedFail && test.status !== 'failed')) continue;
      const reason = test.status === 'failed' ? firstLine(test.failureMessages?.[0]) : test.status;
      failures.push(`FAILED ${name} > ${test.fullName ?? test.title}: ${reason}`.slice(0, 400));
    }
  }
} else {
  failed = 1;
  failures.push('FAILED: vitest wrote no report');
}
if (failures.length > 0) console.log(`\n${failures.join('\n')}`);
console.log(`\n${kind ?? 'all'} tests took ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
