import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool, migrate, migrationNames, type Pool } from '@rr/platform';
import { SCHEMA_MIGRATION_DIRS } from '@rr/server/schema';
import { createEmptyDatabase } from '../../tests/support/db.ts';
import { legacyMigrate, legacyMigrations } from '../../tests/support/legacy-migrations.ts';

/**
 * The migrations are files run by knex's migrator. A new database gets each once, however many
 * processes start at once; a database made by the former migration list (the frozen copy in
 * tests/support/legacy-migrations.ts) goes on from where it stood, without applying anything
 * again, keeps its data and ends with the schema of a new one.
 */
const LEGACY_IDS = legacyMigrations.map((m) => m.id);
const HISTORY_TABLES = ['knex_migrations', 'knex_migrations_lock', 'schema_migrations'];

const dbs: { drop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((d) => d.drop()));
});
async function emptyDatabase() {
  const db = await createEmptyDatabase();
  dbs.push(db);
  return db;
}

/** Every module's migrations, in the order they are applied. */
const migrationFiles = () => migrationNames(SCHEMA_MIGRATION_DIRS);

/** `n` processes (a pool each) migrating the database of `url` at once. */
async function migrateAtOnce(url: string, n: number): Promise<string[][]> {
  const pools = Array.from({ length: n }, () => createPool(url, 2));
  try {
    return await Promise.all(pools.map((p) => migrate(p, SCHEMA_MIGRATION_DIRS)));
  } finally {
    await Promise.all(pools.map((p) => p.end()));
  }
}

/**
 * The schema from the catalogs, one line per object (what pg_dump writes, in a form that needs no
 * pg_dump of the server's version): relations, columns, constraints, indexes, sequences,
 * functions, triggers, extensions. Without the migrations' history tables.
 */
async function schemaOf(pool: Pool): Promise<string[]> {
  const r = await pool.query<{ line: string }>(
    `WITH rel AS (
       SELECT c.oid, c.relname, c.relkind, c.relpersistence FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
          AND c.relname NOT LIKE ALL ($1::text[]))
     SELECT format('relation %s kind %s persistence %s', relname, relkind, relpersistence) AS line FROM rel
     UNION ALL
     SELECT format('column %s.%s #%s %s%s%s', r.relname, a.attname, a.attnum,
                   format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN ' NOT NULL' END,
                   ' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid))
       FROM rel r JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE r.relkind IN ('r', 'p', 'v', 'm')
     UNION ALL
     SELECT format('constraint %s on %s: %s', co.conname, r.relname, pg_get_constraintdef(co.oid))
       FROM pg_constraint co JOIN rel r ON r.oid = co.conrelid
     UNION ALL
     SELECT format('index %s', pg_get_indexdef(i.indexrelid)) FROM pg_index i JOIN rel r ON r.oid = i.indexrelid
     UNION ALL
     SELECT format('sequence %s %s start %s increment %s owned by %s', r.relname,
                   format_type(s.seqtypid, NULL), s.seqstart, s.seqincrement,
                   (SELECT t.relname || '.' || a.attname FROM pg_depend d
                      JOIN pg_class t ON t.oid = d.refobjid
                      JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
                     WHERE d.objid = r.oid AND d.deptype = 'a'))
       FROM rel r JOIN pg_sequence s ON s.seqrelid = r.oid
     UNION ALL
     SELECT format('function %s', pg_get_functiondef(p.oid)) FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
     UNION ALL
     SELECT format('trigger %s', pg_get_triggerdef(t.oid)) FROM pg_trigger t JOIN rel r ON r.oid = t.tgrelid
      WHERE NOT t.tgisinternal
     UNION ALL
     SELECT format('extension %s %s', extname, extversion) FROM pg_extension
     ORDER BY 1`,
    [HISTORY_TABLES.map((t) => `${t}%`)],
  );
  return r.rows.map((x) => x.line);
}

/**
 * `pg_dump --schema-only` of the database without the history tables, or null when the pg_dump
 * on the PATH is older than the server (it refuses to dump a newer one: Debian 12's pg_dump 15
 * and the embedded PostgreSQL 17; with DATABASE_URL of a PostgreSQL 15 this comparison runs too).
 */
async function pgDumpSchema(pool: Pool, url: string): Promise<string | null> {
  const run = promisify(execFile);
  let version: string;
  try {
    version = (await run('pg_dump', ['--version'])).stdout;
  } catch {
    return null;
  }
  const dumpMajor = Number(/(\d+)\.\d+/.exec(version)?.[1]);
  const server = await pool.query<{ v: string }>(
    `SELECT current_setting('server_version_num') AS v`,
  );
  if (!(dumpMajor >= Math.floor(Number(server.rows[0]!.v) / 10000))) return null;
  const { stdout } = await run('pg_dump', [
    '--schema-only',
    '--no-owner',
    '--no-privileges',
    ...HISTORY_TABLES.flatMap((t) => ['--exclude-table', `${t}*`]),
    url,
  ]);
  // Lines that differ between any two dumps: the restrict key of recent pg_dumps, comments.
  return stdout
    .split('\n')
    .filter((l) => !/^\\(un)?restrict /.test(l) && !l.startsWith('--'))
    .join('\n');
}

/**
 * Every row of every table but the history tables, as JSON, in a fixed order (without the events'
 * transaction ids, which differ between two databases given the same data).
 */
async function dataOf(pool: Pool): Promise<Record<string, unknown[]>> {
  const tables = await pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> ALL ($1)
      ORDER BY 1`,
    [HISTORY_TABLES],
  );
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    const drop = name === 'events' ? ` - 'transaction_id'` : '';
    const r = await pool.query<{ rows: unknown[] }>(
      `SELECT coalesce(json_agg(j ORDER BY j::text), '[]') AS rows
         FROM (SELECT to_jsonb(x)${drop} AS j FROM ${name} x) y`,
    );
    out[name] = r.rows[0]!.rows;
  }
  return out;
}

const HOLIDAY_ID = '7b0c8a0e-6a55-4a55-8f43-2b8f6f0c1a01';
const ROOM_ID = '3f6d2c1b-9a8e-4d7c-b6a5-1e2f3a4b5c6d';
const SLOT_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const TX_ID = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const OWNER_ID = '0123456789abcdef0123456789abcdef';

/** What an installation holds: events, a holiday, a room, a slot and a booking with personal data and its mail. */
async function putData(pool: Pool, upTo: string): Promise<void> {
  const at = '2026-03-02T09:00:00Z';
  const meta = JSON.stringify({ actor: { kind: 'system', job: 'test' } });
  await pool.query(
    `INSERT INTO streams (stream_id, stream_type, version) VALUES ('holidays', 'holidays', 1),
       ('transaction-${TX_ID}', 'transaction', 1)`,
  );
  await pool.query(
    `INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata, created_at) VALUES
       ('holidays', 1, '5e1f0c4a-1d2b-4c3d-9e4f-5a6b7c8d9e01', 'HolidayCreated', $1, $3, $4),
       ('transaction-${TX_ID}', 1, '5e1f0c4a-1d2b-4c3d-9e4f-5a6b7c8d9e02', 'TicketBooked', $2, $3, $4)`,
    [
      JSON.stringify({ holidayId: HOLIDAY_ID, date: '2026-12-24', name: 'Heiliger Abend' }),
      JSON.stringify({ transactionId: TX_ID, ownerId: OWNER_ID }),
      meta,
      at,
    ],
  );
  await pool.query(
    `INSERT INTO rm_holidays (id, version, name, description, date) VALUES ($1, 1, 'Heiliger Abend', NULL, '2026-12-24')`,
    [HOLIDAY_ID],
  );
  if (upTo >= '018')
    await pool.query(
      `INSERT INTO holiday_state (holiday_id, date, name, description, version) VALUES ($1, '2026-12-24', 'Heiliger Abend', NULL, 1)`,
      [HOLIDAY_ID],
    );
  await pool.query(
    `INSERT INTO rm_rooms (id, version, name, description, capacity, open_start_type, open_start_value,
       open_end_type, open_end_value, sort_order, created_at)
     VALUES ($1, 1, 'Großer Lesesaal', '', 20, 'DAY', 2, 'DAY', 30, 0, $2)`,
    [ROOM_ID, at],
  );
  await pool.query(
    `INSERT INTO rm_time_slots (id, room_id, date, start_time, end_time, capacity, ticket_count, version)
     VALUES ($1, $2, '2026-03-10', '09:00', '12:00', 20, 1, 1)`,
    [SLOT_ID, ROOM_ID],
  );
  await pool.query(
    `INSERT INTO bookings (owner_id, transaction_id, visitor_key, booking_number, language, created_at)
     VALUES ($1, $2, 'key', 'R-7K3QX2', 'de', $3)`,
    [OWNER_ID, TX_ID, at],
  );
  await pool.query(
    `INSERT INTO personal_data (owner_id, salutation, first_name, last_name, email, erase_after)
     VALUES ($1, 'MS', 'Anna', 'Huber', 'anna@example.org', '2026-03-11')`,
    [OWNER_ID],
  );
  await pool.query(
    `INSERT INTO rm_tickets (id, transaction_id, owner_id, time_slot_id, room_id, date, start_time, end_time,
       status, booking_number, created_at, booked_at)
     VALUES ('9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', $1, $2, $3, $4, '2026-03-10', '09:00', '12:00', 'BOOKED', 'R-7K3QX2', $5, $5)`,
    [TX_ID, OWNER_ID, SLOT_ID, ROOM_ID, at],
  );
  await pool.query(
    `INSERT INTO mail_outbox (id, kind, owner_id, status, attempts, next_attempt_at, last_error, created_at)
     VALUES ('booked-1', 'booked', $1, 'pending', 1, $2, '550 <anna@example.org> mailbox unavailable', $2)`,
    [OWNER_ID, at],
  );
}

describe('migrations', () => {
  it('gives a new database every migration once, with several processes starting at once', async () => {
    const db = await emptyDatabase();
    const files = await migrationFiles();
    expect(files.slice(0, LEGACY_IDS.length)).toEqual(LEGACY_IDS);

    const results = await migrateAtOnce(db.url, 4);
    // One of them applied everything, in order; the others found nothing left; none failed.
    expect(results.filter((r) => r.length > 0)).toEqual([files]);
    expect(results.flat()).toEqual(files);

    const history = await db.pool.query<{ name: string; batch: number }>(
      'SELECT name, batch FROM knex_migrations ORDER BY id',
    );
    expect(history.rows).toEqual(files.map((name) => ({ name, batch: 1 })));
    const lock = await db.pool.query('SELECT is_locked FROM knex_migrations_lock');
    expect(lock.rows).toEqual([{ is_locked: 0 }]);
    expect((await db.pool.query(`SELECT to_regclass('schema_migrations') AS t`)).rows[0]).toEqual({
      t: null,
    });
    expect(await migrate(db.pool, SCHEMA_MIGRATION_DIRS)).toEqual([]);
  });

  it('takes a database of the former migration list forward: nothing again, data and schema as they should be', async () => {
    const fresh = await emptyDatabase();
    await migrate(fresh.pool, SCHEMA_MIGRATION_DIRS);
    const old = await emptyDatabase();
    expect(await legacyMigrate(old.pool)).toEqual(LEGACY_IDS);
    await putData(old.pool, '018');
    const before = await dataOf(old.pool);
    const appliedAt = await old.pool.query<{ id: string; applied_at: Date }>(
      'SELECT id, applied_at FROM schema_migrations ORDER BY id',
    );

    // Several processes of the new version start on it at once.
    const results = await migrateAtOnce(old.url, 3);
    const newer = (await migrationFiles()).filter((f) => !LEGACY_IDS.includes(f));
    expect(results.flat()).toEqual(newer);

    // The history: the former ids (batch 0, their times), then what was applied now.
    const history = await old.pool.query<{ name: string; batch: number; migration_time: Date }>(
      'SELECT name, batch, migration_time FROM knex_migrations ORDER BY id',
    );
    expect(history.rows.slice(0, LEGACY_IDS.length)).toEqual(
      appliedAt.rows.map((r) => ({ name: r.id, batch: 0, migration_time: r.applied_at })),
    );
    expect(history.rows.map((r) => r.name)).toEqual([...LEGACY_IDS, ...newer]);
    expect((await old.pool.query(`SELECT to_regclass('schema_migrations') AS t`)).rows[0]).toEqual({
      t: null,
    });

    if (newer.length === 0) expect(await dataOf(old.pool)).toEqual(before);
    expect(await schemaOf(old.pool)).toEqual(await schemaOf(fresh.pool));
    const dumps = await Promise.all([
      pgDumpSchema(old.pool, old.url),
      pgDumpSchema(fresh.pool, fresh.url),
    ]);
    expect(dumps[0]).toEqual(dumps[1]);
    expect(await migrate(old.pool, SCHEMA_MIGRATION_DIRS)).toEqual([]);
  });

  it('applies the files after where the former list stopped (016) as the list did', async () => {
    const fresh = await emptyDatabase();
    await migrate(fresh.pool, SCHEMA_MIGRATION_DIRS);
    // Two installations at 016 with the same data: one goes on with the former list, one with the files.
    const [byList, byFiles] = [await emptyDatabase(), await emptyDatabase()];
    for (const db of [byList, byFiles]) {
      expect(await legacyMigrate(db.pool, '016')).toEqual(LEGACY_IDS.slice(0, 16));
      await putData(db.pool, '016');
    }
    expect(await legacyMigrate(byList.pool)).toEqual(LEGACY_IDS.slice(16));
    const files = await migrationFiles();
    expect(await migrate(byFiles.pool, SCHEMA_MIGRATION_DIRS)).toEqual(files.slice(16));

    // 017 took the address out of the mail's error, 018 made the holiday's state from its event.
    const mail = await byFiles.pool.query('SELECT last_error FROM mail_outbox');
    expect(mail.rows).toEqual([{ last_error: '550 <<address>> mailbox unavailable' }]);
    const holiday = await byFiles.pool.query('SELECT * FROM holiday_state');
    expect(holiday.rows).toEqual([
      {
        holiday_id: HOLIDAY_ID,
        date: '2026-12-24',
        name: 'Heiliger Abend',
        description: null,
        version: 1,
        // 079: a holiday of no site, the whole system's.
        site_id: null,
      },
    ]);
    if (files.length === LEGACY_IDS.length)
      expect(await dataOf(byFiles.pool)).toEqual(await dataOf(byList.pool));
    const history = await byFiles.pool.query<{ name: string; batch: number }>(
      'SELECT name, batch FROM knex_migrations ORDER BY id',
    );
    expect(history.rows).toEqual([
      ...LEGACY_IDS.slice(0, 16).map((name) => ({ name, batch: 0 })),
      ...files.slice(16).map((name) => ({ name, batch: 1 })),
    ]);
    expect(await schemaOf(byFiles.pool)).toEqual(await schemaOf(fresh.pool));
  });
});
