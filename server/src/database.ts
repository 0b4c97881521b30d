import path from 'node:path';
import { ensureDatabase, startEmbeddedPostgres, type Config, type Logger } from '@rr/platform';

export interface Database {
  url: string;
  stop(): Promise<void>;
}

/** DATABASE_URL when set; otherwise an embedded PostgreSQL with its data under DATA_DIR/pg. */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: () => Promise.resolve() };
  logger.info({ dataDir: config.DATA_DIR }, 'starting embedded PostgreSQL');
  const cluster = await startEmbeddedPostgres({
    dataDir: path.join(config.DATA_DIR, 'pg'),
    port: config.EMBEDDED_PG_PORT,
    onLog: (m) => logger.debug({ pg: m.trim() }, 'postgres'),
  });
  if (cluster.dataDir !== path.resolve(config.DATA_DIR, 'pg')) {
    logger.warn(
      { dataDir: cluster.dataDir },
      'the postgres user cannot reach DATA_DIR; the cluster is kept here instead',
    );
  }
  const url = await ensureDatabase(cluster.url, 'reading_rooms');
  return { url, stop: () => cluster.stop() };
}
