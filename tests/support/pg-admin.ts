import pg from 'pg';

/** One statement on a connection of its own to a PostgreSQL server (CREATE and DROP DATABASE). */
export async function runAsAdmin(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
