// Builds the frontend when frontend/dist is missing or older than its sources: what `npm start`
// and the test command (for the browser tests) both need before they serve the built app.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'frontend', 'dist', 'index.html');

function newestMtime(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/**
 * What the build reads: the app's sources, its pages, its static files (`public`: the web app
 * manifest and icons), its build configuration (`pwa`: the service worker's), and the request
 * contracts its forms check with (the contracts workspace).
 */
const sources = [
  ...[
    'src',
    'admin',
    'display',
    'public',
    'pwa',
    'index.html',
    'vite.config.ts',
    'package.json',
  ].map((s) => path.join(root, 'frontend', s)),
  path.join(root, 'contracts', 'src'),
];

export function frontendIsStale() {
  const builtAt = existsSync(dist) ? statSync(dist).mtimeMs : 0;
  return builtAt < Math.max(...sources.filter(existsSync).map(newestMtime));
}

/** Builds when stale; exits the process with the build's status when the build fails. */
export function ensureFrontendBuilt() {
  if (!frontendIsStale()) return;
  console.log('Building the frontend (frontend/dist is missing or older than its sources)...');
  const r = spawnSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
