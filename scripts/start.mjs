// `npm start`: builds the frontend and compiles the server when either is missing or older than
// its sources, then runs the all-in-one server (API, projections, frontend) with node on the
// compiled output (no TypeScript at run time), on an embedded PostgreSQL unless DATABASE_URL is set.
// `node scripts/start.mjs backup-cli [args]` runs another entry of server/src the same way
// (`npm run backup`, `npm run restore -- FILE`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureFrontendBuilt } from './frontend-build.mjs';
import { ensureServerBuilt } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const [entry = 'main', ...args] = process.argv.slice(2);
if (entry === 'main') ensureFrontendBuilt();
ensureServerBuilt();

const child = spawn(
  process.execPath,
  ['--conditions=rr-compiled', path.join(root, 'server', 'dist', 'src', `${entry}.js`), ...args],
  { cwd: root, stdio: 'inherit', env: process.env },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
