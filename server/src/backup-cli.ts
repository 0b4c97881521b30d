import path from 'node:path';
import pg from 'pg';
import {
  createLogger,
  embeddedFallbackDir,
  loadConfig,
  type Config,
  type Logger,
} from '@rr/platform';
import { takeBackup } from './backup.ts';
import { openDatabase } from './database.ts';

/**
 * `npm run backup`: one pg_dump archive of the database into BACKUP_DIR (default
 * DATA_DIR/backups), keeping the newest BACKUP_KEEP. With DATABASE_URL that database; otherwise
 * the embedded one: the running server's cluster when it is up (the archive is taken while it
 * serves), else the cluster is started for the backup and stopped again.
 */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 'rr-backup');

/** The URL of the embedded cluster of DATA_DIR when a server has it running, else null. */
async function runningEmbedded(config: Config): Promise<string | null> {
  const url = `postgres://postgres:embedded@127.0.0.1:${config.EMBEDDED_PG_PORT}/reading_rooms`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const r = await client.query<{ dir: string }>(
      `SELECT current_setting('data_directory') AS dir`,
    );
    const ours = path.join(config.DATA_DIR, 'pg');
    // Another checkout's cluster on the same port is not this DATA_DIR's.
    const dir = r.rows[0]!.dir;
    return dir === ours || dir === embeddedFallbackDir(ours) ? url : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(logger: Logger): Promise<void> {
  const running = config.DATABASE_URL ? null : await runningEmbedded(config);
  const db = running
    ? { url: running, stop: () => Promise.resolve() }
    : await openDatabase(config, logger);
  try {
    const b = await takeBackup(db.url, config);
    console.log(`backup ${b.file}: ${b.bytes} bytes in ${b.ms} ms`);
    for (const f of b.removed) console.log(`removed ${f} (BACKUP_KEEP=${config.BACKUP_KEEP})`);
  } finally {
    await db.stop();
  }
}

main(logger).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
