// `npm run build:server`: compiles the services (tsconfig.build.json) and puts each package's
// JavaScript into its own dist/ (platform/dist/src, platform/dist/migrations, identity/dist/src,
// identity/dist/migrations, integrations/dist/src, integrations/dist/migrations, server/dist/src,
// …), where the `rr-compiled` export condition of the @rr packages points; writes
// server/dist/build-info.json (the release's version and commit, for /api/healthz and metrics).
// `node --conditions=rr-compiled server/dist/src/main.js` runs the result (scripts/start.mjs, the
// Dockerfile).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_PACKAGES = [
  'contracts',
  'platform',
  'identity',
  'insights',
  'events',
  'domain',
  'command-service',
  'query-service',
  'projections',
  'integrations',
  'server',
];
const out = path.join(root, '.tmp', 'server-build');
const stamp = path.join(root, 'server', 'dist', 'build-info.json');

function newestMtime(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = s.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** What the build reads: every package's src, the migrations, the build configuration. */
const sources = () => [
  ...SERVER_PACKAGES.map((p) => path.join(root, p, 'src')),
  path.join(root, 'platform', 'migrations'),
  path.join(root, 'identity', 'migrations'),
  path.join(root, 'integrations', 'migrations'),
  path.join(root, 'tsconfig.build.json'),
  path.join(root, 'tsconfig.base.json'),
  path.join(root, 'package.json'),
];

/**
 * Whether the compiled output is missing or older than its sources. A release without sources
 * (the image: compiled output only) is never stale.
 */
export function serverIsStale() {
  const present = sources().filter(existsSync);
  if (!present.some((p) => p.endsWith('src'))) return false;
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  return builtAt < Math.max(...present.map(newestMtime));
}

/** The release's version (package.json) and commit (RR_COMMIT, else git, else unknown). */
function buildInfo() {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  let commit = process.env.RR_COMMIT || 'unknown';
  if (commit === 'unknown') {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .trim();
    } catch {
      // not a git checkout (e.g. the image's build context): RR_COMMIT names it
    }
  }
  return { version, commit };
}

export function buildServer() {
  rmSync(out, { recursive: true, force: true });
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`tsc failed (exit ${r.status})`);
  for (const pkg of SERVER_PACKAGES) {
    const dist = path.join(root, pkg, 'dist');
    rmSync(dist, { recursive: true, force: true });
    renameSync(path.join(out, pkg), dist);
  }
  writeFileSync(stamp, `${JSON.stringify(buildInfo(), null, 2)}\n`);
}

/** Builds when stale; exits the process with an error when the build fails. */
export function ensureServerBuilt() {
  if (!serverIsStale()) return;
  console.log('Compiling the server (server/dist is missing or older than its sources)...');
  try {
    buildServer();
  } catch (err) {
    console.error(String(err));
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  buildServer();
  console.log(
    `compiled ${SERVER_PACKAGES.length} packages into their dist/ in ${Math.round(performance.now() - started)} ms`,
  );
}
