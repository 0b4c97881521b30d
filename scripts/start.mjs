// `npm start`: builds the frontend when its build is missing or older than its sources, then
// runs the all-in-one server (API, projections, frontend) on an embedded PostgreSQL.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'frontend', 'dist', 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const sources = [
  path.join(root, 'frontend', 'src'),
  path.join(root, 'frontend', 'index.html'),
  path.join(root, 'frontend', 'admin'),
];
const builtAt = existsSync(dist) ? statSync(dist).mtimeMs : 0;
const sourcesAt = Math.max(
  ...sources
    .filter(existsSync)
    .map((s) => (statSync(s).isDirectory() ? newestMtime(s) : statSync(s).mtimeMs)),
);
if (builtAt < sourcesAt) {
  console.log('Building the frontend...');
  const r = spawnSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'server', 'src', 'main.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
