// `npm start`: builds the frontend when its build is missing or older than its sources, then
// runs the all-in-one server (API, projections, frontend) on an embedded PostgreSQL.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureFrontendBuilt } from './frontend-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
ensureFrontendBuilt();

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
