import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import type pg from 'pg';

/**
 * The database schema: one file per migration in a module's migrations folder (`NNN_name.ts`,
 * exporting `up(knex)`): the platform's `platform/migrations/` (MIGRATIONS_DIR), identity's
 * `identity/migrations/`. The numbers are unique over every folder: the files of all of them are
 * applied in the order of their names by knex's migrator and recorded in its table
 * `knex_migrations` under the file's name without `.ts` (the ids of the former list, so an
 * existing database's history maps one to one). The server names the folders
 * (server/src/schema.ts). A migration is never edited once released: add a new file with the next
 * number. Migrations are forward-only: a file may export `down`, none does; a mistake is
 * corrected by a further migration. In `knex.raw` a `?` is a placeholder: write a literal one
 * (the jsonb operators) as `\\?` in the template literal.
 */
export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '..', 'migrations');
/** knex's history table (and `knex_migrations_lock`, its lock row). */
export const MIGRATIONS_TABLE = 'knex_migrations';
/** `.ts` files under tsx and vitest; `.js` in the compiled release (`npm run build:server`). */
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const FILE = new RegExp(`^(\\d{3})_[a-z0-9_]+\\${EXT}$`);

interface MigrationModule {
  up: (knex: Knex) => Promise<unknown>;
  down?: (knex: Knex) => Promise<unknown>;
  config?: { transaction?: boolean };
}

/** One migration: its folder and file. */
interface MigrationFile {
  dir: string;
  file: string;
}

/**
 * The migrations of the folders in one order, by name; refuses misnamed files and a number two
 * files share, in one folder or in two.
 */
async function migrationFiles(dirs: readonly string[]): Promise<MigrationFile[]> {
  const files: MigrationFile[] = [];
  const numbers = new Map<string, string>();
  for (const dir of dirs) {
    for (const file of (await readdir(dir)).filter((f) => f.endsWith(EXT))) {
      const number = FILE.exec(file)?.[1];
      if (!number) throw new Error(`${file} in ${dir} is not named NNN_lower_case${EXT}`);
      const other = numbers.get(number);
      if (other) throw new Error(`two migrations numbered ${number}: ${other} and ${file}`);
      numbers.set(number, file);
      files.push({ dir, file });
    }
  }
  return files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

const nameOf = (m: MigrationFile) => m.file.slice(0, -EXT.length);

/** The names of the folders' migrations, in the order they are applied. */
export async function migrationNames(dirs: readonly string[]): Promise<string[]> {
  return (await migrationFiles(dirs)).map(nameOf);
}

/** The files of the folders as knex's migration source. */
const fileSource = (dirs: readonly string[]): Knex.MigrationSource<MigrationFile> => ({
  getMigrations: () => migrationFiles(dirs),
  getMigrationName: nameOf,
  async getMigration(migration) {
    const m = (await import(
      pathToFileURL(path.join(migration.dir, migration.file)).href
    )) as MigrationModule;
    const name = nameOf(migration);
    return {
      up: m.up,
      // knex wants a down of every migration; ours are forward-only.
      down:
        m.down ?? (() => Promise.reject(new Error(`migration ${name} is forward-only (no down)`))),
      ...(m.config ? { config: m.config } : {}),
    };
  },
});

const migratorConfig = (dirs: readonly string[]): Knex.MigratorConfig => ({
  tableName: MIGRATIONS_TABLE,
  migrationSource: fileSource(dirs),
});

/**
 * Applies the migrations of the folders `dirs` not applied yet and returns their names. Several processes starting at
 * once migrate exactly once: each waits for the session advisory lock `rr:migrations` (taken on a
 * connection of `pool`, released when it ends, also by a crash) before knex looks at its tables, so
 * knex never races to create them and never finds its own lock row taken; the new migrations run in
 * one transaction. knex connects with the pool's own connection settings (its connection string:
 * DATABASE_URL or the embedded PostgreSQL's) on one connection of its own, closed at the end.
 */
export async function migrate(pool: pg.Pool, dirs: readonly string[]): Promise<string[]> {
  const config = migratorConfig(dirs);
  // Loaded here, not with @rr/platform: only migrating needs knex in platform.
  const { default: createKnex } = await import('knex');
  const lock = await pool.connect();
  const o = pool.options;
  const knex = createKnex({
    client: 'pg',
    // The pool's connection settings (createPool gives a connection string and a timeout).
    connection: {
      connectionString: o.connectionString,
      host: o.host,
      port: o.port,
      user: o.user,
      password: o.password,
      database: o.database,
      ssl: o.ssl,
      connectionTimeoutMillis: o.connectionTimeoutMillis,
    },
    pool: { min: 0, max: 1 },
  });
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('rr:migrations'))`);
    await adoptSchemaMigrations(knex, config);
    // Only a crash between knex's lock and its release leaves its lock row set (with every
    // migration in one transaction, not even then); under the advisory lock nobody else migrates.
    await knex.raw(`DO $$ BEGIN
      IF to_regclass('${MIGRATIONS_TABLE}_lock') IS NOT NULL THEN
        UPDATE ${MIGRATIONS_TABLE}_lock SET is_locked = 0 WHERE is_locked <> 0;
      END IF;
    END $$`);
    const newer = await newerMigrations(knex, dirs);
    const [, applied] = (await knex.migrate.latest(
      newer.length ? { ...config, disableMigrationsListValidation: true } : config,
    )) as [number, string[]];
    return applied;
  } finally {
    await knex.destroy();
    await lock.query(`SELECT pg_advisory_unlock(hashtext('rr:migrations'))`).catch(() => undefined);
    lock.release();
  }
}

/**
 * Migrations in the database's history that this release does not have: a newer release's
 * (an upgrade in progress, or a rollback of the code). They are expansions this release's code
 * works with (docs/architecture.md#upgrades-without-downtime), so a process of the previous
 * release may still (re)start while the new one runs. A missing migration older than this
 * release's newest is a damaged history: refused, as knex would.
 */
async function newerMigrations(knex: Knex, dirs: readonly string[]): Promise<string[]> {
  const exists = await knex.schema.hasTable(MIGRATIONS_TABLE);
  if (!exists) return [];
  const ours = await migrationNames(dirs);
  const newest = ours.at(-1) ?? '';
  const history = await knex<{ name: string }>(MIGRATIONS_TABLE).select('name');
  const unknown = history.map((r) => r.name).filter((n) => !ours.includes(n));
  const damaged = unknown.filter((n) => n <= newest);
  if (damaged.length)
    throw new Error(
      `The database's migration history has migrations this release lacks: ${damaged.join(', ')}`,
    );
  return unknown;
}

/**
 * A database migrated before knex kept its history in `schema_migrations (id, applied_at)`. Its
 * first run here copies that history into knex's table (same names, batch 0, the original times)
 * and drops `schema_migrations`, in one transaction: nothing is applied again, and the schema is
 * the one a new database gets.
 */
async function adoptSchemaMigrations(knex: Knex, config: Knex.MigratorConfig): Promise<void> {
  await knex.transaction(async (trx) => {
    const legacy = await trx.raw<{ rows: { present: boolean }[] }>(
      `SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
    );
    if (!legacy.rows[0]?.present) return;
    // Creates knex's tables as knex makes them (in this transaction).
    await trx.migrate.currentVersion(config);
    await trx.raw(`INSERT INTO ${MIGRATIONS_TABLE} (name, batch, migration_time)
      SELECT s.id, 0, s.applied_at FROM schema_migrations s
       WHERE NOT EXISTS (SELECT 1 FROM ${MIGRATIONS_TABLE} k WHERE k.name = s.id)
       ORDER BY s.id`);
    await trx.schema.dropTable('schema_migrations');
  });
}
