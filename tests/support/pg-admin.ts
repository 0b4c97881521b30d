import pg from 'pg';

/** One statement on a connection of its own to the run's PostgreSQL (CREATE and DROP DATABASE). */
export async function runAsAdmin(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** The URL of the database `name` on the server of `adminUrl`, with its credentials. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
