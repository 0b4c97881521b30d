/**
 * The tables a rebuild writes beside the live read models (blue-green): copies of the live
 * tables' definitions in a schema of their own, swapped in for the live ones in one short
 * transaction once they have caught up with the log.
 */
import type { PoolClient } from '@rr/platform';

/** The schema the rebuilt tables are made in until they are swapped in. */
export const BUILD_SCHEMA = 'rr_rebuild';

export interface LiveTable {
  /** Its name as the projection names it (unqualified, found by the search path). */
  name: string;
  schema: string;
  oid: number;
  /** `schema.name` and the name alone, quoted as PostgreSQL's catalogue functions print them. */
  qualified: string;
  plain: string;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const buildTableName = (t: LiveTable) => `${BUILD_SCHEMA}.${ident(t.name)}`;

/** The live tables of these names, as the search path finds them. */
export async function liveTables(client: PoolClient, names: string[]): Promise<LiveTable[]> {
  if (names.length === 0) return [];
  const r = await client.query<LiveTable>(
    `SELECT t.name, n.nspname AS schema, c.oid::int AS oid,
            format('%I.%I', n.nspname, c.relname) AS qualified, quote_ident(c.relname) AS plain
       FROM unnest($1::text[]) WITH ORDINALITY AS t(name, i)
       JOIN pg_class c ON c.oid = to_regclass(t.name)
       JOIN pg_namespace n ON n.oid = c.relnamespace
      ORDER BY t.i`,
    [names],
  );
  if (r.rows.length !== names.length) {
    const missing = names.filter((n) => !r.rows.some((t) => t.name === n));
    throw new Error(`read-model tables not found: ${missing.join(', ')}`);
  }
  return r.rows;
}

/**
 * A statement of the live table's definition, aimed at its build table instead (the catalogue
 * prints the table schema-qualified, or not where the search path finds it).
 */
function aimed(def: string, t: LiveTable): string {
  for (const on of [` ON ${t.qualified} `, ` ON ${t.plain} `])
    if (def.includes(on)) return def.replace(on, ` ON ${buildTableName(t)} `);
  throw new Error(`cannot aim at the build table: ${def}`);
}

/** The secondary (not unique) indexes of the live table, as statements on its build table. */
export async function secondaryIndexes(client: PoolClient, t: LiveTable): Promise<string[]> {
  const r = await client.query<{ def: string }>(
    `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
      WHERE i.indrelid = $1 AND NOT i.indisunique
      ORDER BY i.indexrelid`,
    [t.oid],
  );
  return r.rows.map((row) => aimed(row.def, t));
}

/**
 * Makes the build table of a live table with exactly its definition and names: columns (types,
 * defaults, NOT NULL, identity, storage, comments), the table's comment and storage options, its
 * constraints (primary key, unique, check, exclusion, foreign keys) and indexes under their own
 * names (a schema of its own lets them keep them), and its triggers (the ticket counts' triggers
 * write the table the search path finds: the build schema's while the rebuild writes). With
 * `withoutSecondaryIndexes`, the indexes no constraint or ON CONFLICT needs are left for
 * `secondaryIndexes` once the rows are written; with `unlogged`, the table skips the WAL until
 * `SET LOGGED` before the swap.
 */
export async function createBuildTable(
  client: PoolClient,
  t: LiveTable,
  options: { withoutSecondaryIndexes: boolean; unlogged: boolean },
): Promise<void> {
  const build = buildTableName(t);
  await client.query(
    `CREATE ${options.unlogged ? 'UNLOGGED ' : ''}TABLE ${build} (LIKE ${t.qualified}
       INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE
       INCLUDING COMPRESSION INCLUDING COMMENTS)`,
  );
  const meta = await client.query<{ options: string[] | null; comment: string | null }>(
    `SELECT reloptions AS options, obj_description(oid, 'pg_class') AS comment FROM pg_class WHERE oid = $1`,
    [t.oid],
  );
  const { options: storage, comment } = meta.rows[0]!;
  if (storage?.length) await client.query(`ALTER TABLE ${build} SET (${storage.join(', ')})`);
  if (comment !== null)
    await client.query(`COMMENT ON TABLE ${build} IS ${client.escapeLiteral(comment)}`);
  const constraints = await client.query<{ name: string; def: string; contype: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def, contype FROM pg_constraint
      WHERE conrelid = $1 AND contype IN ('p', 'u', 'x', 'c', 'f') ORDER BY contype = 'f', oid`,
    [t.oid],
  );
  for (const c of constraints.rows)
    await client.query(`ALTER TABLE ${build} ADD CONSTRAINT ${ident(c.name)} ${c.def}`);
  const indexes = await client.query<{ def: string; unique: boolean }>(
    `SELECT pg_get_indexdef(i.indexrelid) AS def, i.indisunique AS unique FROM pg_index i
      WHERE i.indrelid = $1
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid
                          AND k.conrelid = i.indrelid AND k.contype IN ('p', 'u', 'x'))
      ORDER BY i.indexrelid`,
    [t.oid],
  );
  for (const i of indexes.rows)
    if (i.unique || !options.withoutSecondaryIndexes) await client.query(aimed(i.def, t));
  const triggers = await client.query<{ name: string; def: string; enabled: string }>(
    `SELECT tgname AS name, pg_get_triggerdef(oid) AS def, tgenabled AS enabled FROM pg_trigger
      WHERE tgrelid = $1 AND NOT tgisinternal ORDER BY oid`,
    [t.oid],
  );
  const enabling: Record<string, string> = {
    D: 'DISABLE',
    A: 'ENABLE ALWAYS',
    R: 'ENABLE REPLICA',
  };
  for (const tr of triggers.rows) {
    await client.query(aimed(tr.def, t));
    const how = enabling[tr.enabled];
    if (how) await client.query(`ALTER TABLE ${build} ${how} TRIGGER ${ident(tr.name)}`);
  }
}

/**
 * In the swap's transaction: the live tables go and the build tables take their place, names,
 * schema and all. A dependency on a live table (a view, a foreign key into it) makes the DROP
 * fail, and the swap with it, instead of dropping what depends on it.
 */
export async function swapInBuildTables(client: PoolClient, tables: LiveTable[]): Promise<void> {
  if (tables.length === 0) return;
  await client.query(`DROP TABLE ${tables.map((t) => t.qualified).join(', ')}`);
  for (const t of tables)
    await client.query(`ALTER TABLE ${buildTableName(t)} SET SCHEMA ${ident(t.schema)}`);
}

/**
 * The definition of tables as the catalogue states it (columns, constraints, indexes, triggers,
 * persistence, options, comments), to hold a rebuilt table to the live one it replaced.
 */
export async function tableDefinitions(
  client: Pick<PoolClient, 'query'>,
  names: string[],
): Promise<Record<string, unknown>> {
  const r = await client.query<{ name: string; def: unknown }>(
    `SELECT t.name, json_build_object(
       'persistence', c.relpersistence, 'options', c.reloptions,
       'comment', obj_description(c.oid, 'pg_class'),
       'columns', (SELECT json_agg(json_build_object('name', a.attname,
                     'type', format_type(a.atttypid, a.atttypmod), 'notNull', a.attnotnull,
                     'default', pg_get_expr(d.adbin, d.adrelid), 'identity', a.attidentity,
                     'generated', a.attgenerated, 'storage', a.attstorage,
                     'comment', col_description(c.oid, a.attnum)) ORDER BY a.attnum)
                     FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                    WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
       'constraints', (SELECT json_agg(json_build_object('name', k.conname, 'def', pg_get_constraintdef(k.oid)) ORDER BY k.conname)
                         FROM pg_constraint k WHERE k.conrelid = c.oid),
       'indexes', (SELECT json_agg(json_build_object('name', x.relname, 'def', pg_get_indexdef(i.indexrelid),
                     'persistence', x.relpersistence) ORDER BY x.relname)
                     FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid WHERE i.indrelid = c.oid),
       'triggers', (SELECT json_agg(json_build_object('name', g.tgname, 'def', pg_get_triggerdef(g.oid),
                      'enabled', g.tgenabled) ORDER BY g.tgname)
                      FROM pg_trigger g WHERE g.tgrelid = c.oid AND NOT g.tgisinternal)) AS def
       FROM unnest($1::text[]) AS t(name) JOIN pg_class c ON c.oid = to_regclass(t.name)`,
    [names],
  );
  return Object.fromEntries(r.rows.map((row) => [row.name, row.def]));
}
