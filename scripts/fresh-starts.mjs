// `npm run fresh-starts [-- count]`: starts the all-in-one server (as `npm start` does, on its
// embedded PostgreSQL) on an empty data folder, waits until it answers, stops it; `count` times
// (default 20), one after the other, and reports how many started. Not part of CI: it shows
// whether a first start fails now and then (each run takes the better part of a minute on
// 2 cores), and prints each failure's message.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureFrontendBuilt } from './frontend-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const count = Number(process.argv[2] ?? 20);
if (!Number.isInteger(count) || count < 1) {
  console.error('usage: npm run fresh-starts [-- count]');
  process.exit(2);
}
/** How long one start may take before it counts as failed. */
const START_TIMEOUT_MS = 180_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/**
 * One fresh start: resolves { ok, ms, output }. Every start uses the same PostgreSQL port, as
 * repeated `npm start`s do, and is ended with SIGINT (Ctrl-C), so a start may meet the
 * PostgreSQL of the one before still shutting down.
 */
async function freshStart(pgPort) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rr-fresh-start-'));
  const port = await freePort();
  const started = performance.now();
  let output = '';
  // The embedded PostgreSQL, as `npm start` without a database of its own.
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.READ_DATABASE_URL;
  delete env.SERVICE_ROLE;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'server', 'src', 'main.ts')],
    {
      cwd: root,
      env: {
        ...env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        EMBEDDED_PG_PORT: String(pgPort),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d) => (output += d.toString()));
  child.stderr.on('data', (d) => (output += d.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let ok = false;
  while (performance.now() - started < START_TIMEOUT_MS && child.exitCode === null) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/healthz`);
      if (r.ok) {
        ok = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const ms = performance.now() - started;
  if (child.exitCode === null) child.kill('SIGINT');
  await exited;
  await rm(dataDir, { recursive: true, force: true });
  return { ok, ms, output };
}

ensureFrontendBuilt();
const pgPort = await freePort();
let started = 0;
for (let i = 1; i <= count; i++) {
  const { ok, ms, output } = await freshStart(pgPort);
  if (ok) started++;
  const lines = output.trim().split('\n').slice(-8).join('\n      ');
  console.log(
    `${String(i).padStart(2)}: ${ok ? 'started' : 'FAILED '} in ${(ms / 1000).toFixed(1)} s${ok ? '' : `\n      ${lines}`}`,
  );
}
console.log(`${started} of ${count} fresh starts started`);
process.exit(started === count ? 0 : 1);
