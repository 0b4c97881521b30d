import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createLogger,
  embeddedFallbackDir,
  ensureDatabase,
  loadConfig,
  startEmbeddedPostgres,
} from '@rr/platform';
import { databaseIsEmpty, restoreArchive } from './backup.ts';

/**
 * `npm run restore -- FILE`: restores a pg_dump archive (`npm run backup`, the server's own
 * backups) into an empty data folder: DATA_DIR/pg must not exist or be empty (a new embedded
 * cluster is made there). With DATABASE_URL, into that database, which must hold no tables.
 * The next start of the server migrates the restored database when the archive is older than
 * the release, and its jobs catch up (expired carts, personal data due for erasure).
 */
const config = loadConfig();
const logger = createLogger('warn', 'rr-restore');
const file = process.argv[2];

async function nonEmpty(dir: string): Promise<boolean> {
  return existsSync(dir) && (await readdir(dir)).length > 0;
}

async function main(): Promise<void> {
  if (!file || !existsSync(path.resolve(process.env.INIT_CWD ?? process.cwd(), file)))
    throw new Error('Usage: npm run restore -- FILE (a backup archive)');
  // `npm run restore` runs in the project's folder; the name is the caller's (INIT_CWD).
  const archive = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  if (config.DATABASE_URL) {
    if (!(await databaseIsEmpty(config.DATABASE_URL)))
      throw new Error(
        'Refusing to restore: the database at DATABASE_URL holds tables. Restore into a new, empty database.',
      );
    report(await restoreArchive(archive, config.DATABASE_URL, config));
    return;
  }
  const dataDir = path.join(config.DATA_DIR, 'pg');
  for (const dir of [dataDir, embeddedFallbackDir(dataDir)]) {
    if (await nonEmpty(dir))
      throw new Error(
        `Refusing to restore: the data folder ${dir} is not empty. Restore only into an empty data folder: move it away (or set DATA_DIR to a new folder) and run again.`,
      );
  }
  const cluster = await startEmbeddedPostgres({
    dataDir,
    port: config.EMBEDDED_PG_PORT,
    onLog: (m) => logger.debug({ pg: m.trim() }, 'postgres'),
  });
  try {
    const url = await ensureDatabase(cluster.url, 'reading_rooms');
    report(await restoreArchive(archive, url, config));
  } finally {
    await cluster.stop();
  }
}

function report(r: { events: number; bookings: number; migrations: string[] }): void {
  console.log(
    `restored ${file}: ${r.events} events, ${r.bookings} bookings, schema at ${r.migrations.at(-1) ?? 'none'}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
