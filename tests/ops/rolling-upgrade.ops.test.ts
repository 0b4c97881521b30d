import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, defaultTimeZone, makeClusterDir, todayIn } from '@rr/platform';
import { SCHEMA_MIGRATION_DIRS } from '@rr/server/schema';
import { Client } from '../support/app.ts';
import {
  BookingLoad,
  confirmationsOncePerBooking,
  createLoadRoom,
  type Outcome,
} from '../support/booking-load.ts';
import { createEmptyDatabase } from '../support/db.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  joinWaitlist,
  WAITLIST_OWNER,
} from '../support/fixtures.ts';
import { freePort } from '../support/ports.ts';
import { spawnService, type ServiceProcess } from '../support/processes.ts';
import { sleep } from '../support/wait-for.ts';

/**
 * An upgrade without downtime: the previous release (the commit before the one that added the
 * newest migration, checked out with `git worktree add` and `npm ci`'d) serves through the
 * gateway (writers, readers, projector) while visitors book; the current release (compiled)
 * starts beside it on the same database and runs the new migrations meanwhile; the previous
 * release's processes are stopped one by one (SIGTERM: requests in flight finish). The visitors
 * see no error and no acknowledged booking is lost: the new migrations are expansions the previous
 * release works with (docs/architecture.md#upgrades-without-downtime).
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const ADMIN_PASSWORD = 'upgrade-admin-password';
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim();

/**
 * The release before a migration: the parent of the commit that added it (the newest migration of
 * every module's folder when none is named), along main's first parents (a migration that came
 * with a merge was added by the merge commit).
 */
function releaseBefore(migration?: string): { commit: string; migration: string } {
  const files = SCHEMA_MIGRATION_DIRS.flatMap((d) =>
    readdirSync(d)
      .filter((f) => /^\d{3}_.*\.ts$/.test(f))
      .map((f) => [f, d] as const),
  ).sort(([a], [b]) => (a < b ? -1 : 1));
  const found = migration ? files.find(([f]) => f === `${migration}.ts`) : files.at(-1);
  if (!found) throw new Error(`no migration ${migration}`);
  const [file, dir] = found;
  const added = git(
    'log',
    '-m',
    '--first-parent',
    '--diff-filter=A',
    '--format=%H',
    '-1',
    '--',
    path.relative(root, path.join(dir, file)),
  );
  if (!added) throw new Error(`${file} is not committed: commit it to test the upgrade to it`);
  return { commit: git('rev-parse', `${added}^`), migration: file.replace(/\.ts$/, '') };
}

/**
 * The releases upgraded from: the one before the newest migration, and the one before the sites
 * (an installation of one building becomes one site), unless that is the same commit. UPGRADE_FROM
 * names another previous release (a commit) instead, e.g. for an upgrade across many migrations.
 */
const releases: { label: string; commit: string }[] = process.env.UPGRADE_FROM
  ? [
      {
        label: process.env.UPGRADE_FROM,
        commit: git('rev-parse', '--verify', `${process.env.UPGRADE_FROM}^{commit}`),
      },
    ]
  : [releaseBefore(), releaseBefore('073_sites')]
      .map((r) => ({ label: `the release before ${r.migration}`, commit: r.commit }))
      .filter((r, i, all) => all.findIndex((o) => o.commit === r.commit) === i);

/**
 * What a library's desk leaves in the previous release: a room with check-in and a waitlist, its
 * slot of tomorrow (check-in opens a day before it, so at any hour of the test) booked full by one
 * reader who is checked in, and a second reader in its line.
 */
async function deskOfPreviousRelease(admin: Client, baseUrl: string) {
  const roomId = await createRoom(admin, 'Desk room', { capacity: 1, openStartValue: 0 });
  const services = await admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: { waitlistOfferMinutes: 30, checkInMinutesBefore: 1440 },
  });
  expect(services.status, await services.clone().text()).toBe(200);
  const tomorrow = addDays(todayIn(new Date(), defaultTimeZone), 1);
  const slotId = await createSlot(admin, roomId, tomorrow, '00:00', '23:00', 1);
  const checkedIn = await bookAsNewVisitor(baseUrl, [slotId]);
  const checkIn = await admin.request('POST', `/api/admin/tickets/${checkedIn.ticketId}/check-in`);
  expect(checkIn.status, await checkIn.clone().text()).toBe(200);
  const { checkedInAt } = (await checkIn.json()) as { checkedInAt: string };
  const waiting = 'wartende.vor-dem-upgrade@example.at';
  const joined = await joinWaitlist(new Client(baseUrl), slotId, {
    ...WAITLIST_OWNER,
    email: waiting,
    language: 'de',
  });
  expect(joined.status, await joined.clone().text()).toBe(201);
  return { roomId, slotId, checkedIn, checkedInAt, waiting };
}

/**
 * The first commit whose jobs end their round at a stop. A release before it may hold a
 * projector's stop past its deadline when a rush left a backlog of queued mail rounds; it then
 * exits with 1 by that deadline, its unfinished work ending as at a kill (the fault tests show
 * that nothing is lost then). Such a release cannot be changed any more, so its stop is only
 * required to end by its own deadline; a release with the commit must stop cleanly.
 */
const JOBS_END_THEIR_ROUND_AT_A_STOP = '31c31c559849f3fe4185c6e0307a88f806aa4c0f';
const endsItsRoundAtAStop = (commit: string) =>
  spawnSync('git', ['merge-base', '--is-ancestor', JOBS_END_THEIR_ROUND_AT_A_STOP, commit], {
    cwd: root,
  }).status === 0;

/**
 * SIGTERM: the process finishes what it has under way and exits with 0 within its deadline (a
 * release whose jobs do not end their round at a stop: or with 1 by its deadline).
 */
async function stopCleanly(p: ServiceProcess, whose: string, commit?: string): Promise<void> {
  const stopping = performance.now();
  await p.kill('SIGTERM');
  const stopMs = Math.round(performance.now() - stopping);
  console.log(`${whose} ${p.role} stopped in ${stopMs} ms with exit code ${p.child.exitCode}`);
  const allowed = commit === undefined || endsItsRoundAtAStop(commit) ? [0] : [0, 1];
  expect(allowed, `${p.role} after ${stopMs} ms:\n${p.output()}`).toContain(p.child.exitCode);
}

describe.each(releases)('a rolling upgrade from $label', ({ commit }) => {
  let dir: string;
  let previous: string;
  let db: Awaited<ReturnType<typeof createEmptyDatabase>>;
  const procs: ServiceProcess[] = [];

  beforeAll(async () => {
    dir = await makeClusterDir('rr-upgrade-');
    previous = path.join(dir, 'previous');
    git('worktree', 'add', '--detach', previous, commit);
    const started = performance.now();
    const install = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: previous,
      encoding: 'utf8',
    });
    expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
    console.log(
      `previous release ${commit.slice(0, 10)} checked out and installed in ${Math.round(performance.now() - started)} ms`,
    );
    db = await createEmptyDatabase();
  });

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await db?.drop();
    if (previous) spawnSync('git', ['worktree', 'remove', '--force', previous], { cwd: root });
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves visitors without an error and loses no booking, waitlist entry or check-in while the new release and its migrations replace the previous one', async () => {
    const env = {
      DATABASE_URL: db.url,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
      SEED_DEMO_DATA: 'false',
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_CARTS: '1000000',
      RATE_LIMIT_OWNER_LOOKUPS: '1000000',
      DATA_DIR: path.join(dir, 'data'),
    };
    const old = { root: previous };
    const current = { compiled: true };
    // The previous release: it migrates the empty database to its schema.
    const oldCommand = await spawnService('command', env, old);
    const oldQuery = await spawnService('query', env, old);
    const oldProjector = await spawnService('projector', env, old);
    procs.push(oldCommand, oldQuery, oldProjector);
    const schemaBefore = await db.pool.query<{ name: string }>(
      'SELECT name FROM knex_migrations ORDER BY name',
    );
    // The gateway knows both releases' addresses from the start; the new ones refuse
    // connections until they listen, and the gateway passes a refused request on.
    const [newCommandPort, newQueryPort] = [await freePort(), await freePort()];
    const gateway = await spawnService(
      'gateway',
      {
        GATEWAY_COMMAND_URLS: `${oldCommand.url},http://127.0.0.1:${newCommandPort}`,
        GATEWAY_QUERY_URLS: `${oldQuery.url},http://127.0.0.1:${newQueryPort}`,
      },
      current,
    );
    procs.push(gateway);
    const admin = new Client(gateway.url);
    expect((await admin.login('admin', ADMIN_PASSWORD)).status).toBe(200);
    const { slots } = await createLoadRoom(admin, 'Upgrade room', 3);
    const desk = await deskOfPreviousRelease(admin, gateway.url);

    const log: Outcome[] = [];
    const visitors = new BookingLoad(() => gateway.url);
    const load = visitors.start(slots, log, 3);
    const t0 = performance.now();
    await sleep(3000);
    // The current release starts beside the previous one; its first process migrates.
    const migrating = performance.now();
    const newCommand = await spawnService('command', env, { ...current, port: newCommandPort });
    const migratedMs = Math.round(performance.now() - migrating);
    procs.push(newCommand);
    const newQuery = await spawnService('query', env, { ...current, port: newQueryPort });
    const newProjector = await spawnService('projector', env, current);
    procs.push(newQuery, newProjector);
    await sleep(3000);
    // The previous release goes, one process at a time.
    for (const p of [oldCommand, oldQuery, oldProjector]) {
      await stopCleanly(p, "previous release's", commit);
      await sleep(2000);
    }
    await sleep(3000);
    await load.stop();
    const seconds = (performance.now() - t0) / 1000;

    const failures = log.filter((o) => o.status < 200 || o.status >= 300);
    const schemaAfter = await db.pool.query<{ name: string }>(
      'SELECT name FROM knex_migrations ORDER BY name',
    );
    // By name, not by position: a migration merged later may bear a lower number (079 after 080).
    const before = new Set(schemaBefore.rows.map((r) => r.name));
    const added = schemaAfter.rows.map((r) => r.name).filter((name) => !before.has(name));
    const bookings = log.filter((o) => o.op === 'book');
    console.log(
      'rolling upgrade',
      JSON.stringify({
        seconds: +seconds.toFixed(1),
        requests: log.length,
        bookings: bookings.length,
        reads: log.filter((o) => o.op === 'read').length,
        errors: failures.length,
        migrationsRun: added,
        newCommandStartedWithMigrationsMs: migratedMs,
      }),
    );
    expect(
      failures.map((o) => `${o.op} ${o.status}`),
      `the gateway's log:\n${gateway.output()}`,
    ).toEqual([]);
    expect(added.length).toBeGreaterThan(0);
    expect(bookings.length).toBeGreaterThan(10);

    // No acknowledged booking is lost: each is in the log and the visitor sees it (read through
    // the new release), and its confirmation is queued once (the rush's bookings and the desk's
    // reader's, booked before it).
    const booked = await db.pool.query<{ owner: string }>(
      `SELECT data->>'ownerId' AS owner FROM events WHERE event_type = 'TransactionBooked'`,
    );
    expect(new Set(booked.rows.map((r) => r.owner))).toEqual(
      new Set([...visitors.acknowledgedOwners, desk.checkedIn.ownerId]),
    );
    for (const o of bookings) {
      const tickets = (await (
        await new Client(gateway.url).get(`/api/owners/${o.ownerId}/tickets`, {
          'X-Min-Position': o.position!,
        })
      ).json()) as { status: string }[];
      expect(tickets.map((t) => t.status)).toEqual(['BOOKED']);
    }
    expect(await confirmationsOncePerBooking(db.pool)).toBe(bookings.length + 1);
    const releases = await db.pool.query<{ version: string }>(
      'SELECT version FROM release_history',
    );
    expect(releases.rowCount).toBeGreaterThan(0);

    // The previous release's installation is one site now: the first, holding its room.
    const sites = (await (await admin.get('/api/sites')).json()) as {
      content: { id: string; roomCount: number }[];
    };
    expect(sites.content).toEqual([expect.objectContaining({ id: FIRST_SITE_ID, roomCount: 2 })]);
    const rooms = (await (await admin.get('/api/admin/rooms?limit=999')).json()) as {
      content: { id: string; siteId: string }[];
    };
    expect(rooms.content.map((r) => r.siteId)).toEqual([FIRST_SITE_ID, FIRST_SITE_ID]);

    // The desk's morning, made by the previous release, read through the new one: the check-in
    // and the line of the full slot are kept.
    const tickets = (await (
      await new Client(gateway.url).get(`/api/owners/${desk.checkedIn.ownerId}/tickets`)
    ).json()) as { id: string; status: string; checkedInAt: string | null }[];
    expect(tickets).toEqual([
      expect.objectContaining({
        id: desk.checkedIn.ticketId,
        status: 'BOOKED',
        checkedInAt: desk.checkedInAt,
      }),
    ]);
    const line = (await (
      await admin.get(`/api/admin/rooms/${desk.roomId}/timeslots/${desk.slotId}/waitlist`)
    ).json()) as { content: { email: string | null; status: string }[] };
    expect(line.content).toEqual([
      expect.objectContaining({ email: desk.waiting, status: 'waiting' }),
    ]);

    // The current release stops as cleanly, its mail of the rush sent or left for the next.
    for (const p of [newCommand, newQuery, newProjector]) await stopCleanly(p, "new release's");
  });
});
