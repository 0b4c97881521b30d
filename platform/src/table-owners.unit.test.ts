import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS, WRITERS_NOT_YET_WITH_THEIR_OWNER } from './table-owners.ts';

/**
 * Each table beside the log has one owner (table-owners.ts): this reads the SQL of every source
 * file (tests apart) and fails when a table is written outside its owner, or the schema has a
 * table without one. The SQL is what the files' string and template literals say (a template's
 * `${...}` read as `${}`); knex's query builder writes (`db('table').insert(...)`) count too.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
/** The packages of the repository (the root's workspaces), whose sources and migrations are read. */
const WORKSPACES: readonly string[] = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }
).workspaces.filter((w) => w !== 'tests');

/**
 * Files whose SQL names its table at run time, each with the tables it may write: what a static
 * reading cannot check is checked here by hand.
 */
const DYNAMIC_WRITERS: Record<string, string> = {
  // The row cache writes the table of the projection that keeps it (each its own).
  'projections/src/row-cache.ts': 'the table of the projection that keeps the cache',
  // A rebuild empties the tables the rebuilt projection declares as its own.
  'projections/src/rebuild.ts': "the rebuilt projection's tables",
  // knex's own record of the migrations applied (no table of the schema).
  'platform/src/migrations.ts': 'knex_migrations, knex_migrations_lock',
  // No table: its SQL is the text of the read models it writes, read here once they exist.
  'scripts/scaffold.ts': 'none (it writes source files)',
};

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory())
      return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(file);
    return /\.(ts|tsx|mts|mjs|js)$/.test(e.name) && !/\.test\.|\.d\.ts$/.test(e.name) ? [file] : [];
  });
}

/** The tables the migrations leave: created, minus dropped, renamed followed. */
function schemaTables(migrationDirs: readonly string[]): Set<string> {
  const tables = new Set<string>();
  // One sequence over every package's migrations, in the order of their numbers.
  const files = migrationDirs
    .flatMap((dir) => readdirSync(dir).map((name) => ({ name, full: path.join(dir, name) })))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const { full } of files) {
    const sql = readFileSync(full, 'utf8');
    const steps = sql.matchAll(
      /\b(?:CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)|DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?([\w\s,]+?)(?:\s+CASCADE)?\s*;|ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)\s+RENAME\s+TO\s+(\w+))/gi,
    );
    for (const [, created, dropped, from, to] of steps) {
      if (created) tables.add(created.toLowerCase());
      for (const t of dropped?.split(',') ?? []) tables.delete(t.trim().toLowerCase());
      if (from && to) {
        tables.delete(from.toLowerCase());
        tables.add(to.toLowerCase());
      }
    }
  }
  return tables;
}

/** One write a source file makes: the table, or `${}` for a name given at run time. */
interface Write {
  file: string;
  table: string;
}

const SQL_WRITE =
  /\b(?:INSERT\s+INTO|DELETE\s+FROM|MERGE\s+INTO|UPDATE(?:\s+ONLY)?|COPY)\s+(\$\{\}|[a-z_][a-z0-9_.]*)|\bTRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?((?:\$\{\}|[a-z_][a-z0-9_.]*)(?:\s*,\s*(?:\$\{\}|[a-z_][a-z0-9_.]*))*)/gi;
const BUILDER_WRITES = new Set([
  'insert',
  'update',
  'del',
  'delete',
  'truncate',
  'upsert',
  'merge',
  'increment',
  'decrement',
]);

const bare = (name: string) => name.replace(/^public\./i, '').toLowerCase();

/** The SQL writes a text makes (a COPY only when it copies into the table). */
function sqlWrites(text: string): string[] {
  const tables: string[] = [];
  for (const m of text.matchAll(SQL_WRITE)) {
    if (m[1]) {
      if (
        /^COPY/i.test(m[0]) &&
        !/^\s*(\([^)]*\))?\s*FROM\b/i.test(text.slice(m.index + m[0].length))
      )
        continue;
      tables.push(bare(m[1]));
    } else if (m[2]) tables.push(...m[2].split(',').map((t) => bare(t.trim())));
  }
  return tables;
}

/** The text of a string or template literal, its substitutions as `${}`. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((s) => '${}' + s.literal.text).join('');
  return null;
}

/** The writes of one source file: its SQL literals, and knex builder chains ending in a write. */
function writesOf(file: string, source: string, tables: ReadonlySet<string>): Write[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false);
  const writes: Write[] = [];
  const visit = (node: ts.Node): void => {
    const text = literalText(node);
    if (text !== null) {
      for (const table of sqlWrites(text))
        if (table === '${}' || tables.has(table)) writes.push({ file, table });
      // A template's substitutions hold literals of their own.
      if (!ts.isTemplateExpression(node)) return;
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      BUILDER_WRITES.has(node.expression.name.text)
    ) {
      // db('table').where(...).update(...), knex.into('table').insert(...): the chain's table.
      let link: ts.Expression = node.expression.expression;
      while (ts.isCallExpression(link) || ts.isPropertyAccessExpression(link)) {
        if (ts.isCallExpression(link)) {
          const first = link.arguments[0];
          const name = first ? literalText(first)?.split(/\s/)[0] : undefined;
          if (name && tables.has(bare(name))) writes.push({ file, table: bare(name) });
        }
        link = link.expression;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return writes;
}

/** Whether an owner path (a file, a folder, or a module's name without extension) covers a file. */
function ownerCovers(owner: string, file: string): boolean {
  return (
    file === owner ||
    file.startsWith(`${owner}/`) ||
    file.replace(/\.(ts|tsx|mts|mjs|js)$/, '') === owner
  );
}

function repositoryWrites(tables: ReadonlySet<string>): Write[] {
  const files = [
    ...WORKSPACES.flatMap((w) => sourceFiles(path.join(ROOT, w, 'src'))),
    ...sourceFiles(path.join(ROOT, 'scripts')),
  ];
  return files.flatMap((abs) =>
    writesOf(path.relative(ROOT, abs).split(path.sep).join('/'), readFileSync(abs, 'utf8'), tables),
  );
}

const owners: Record<string, string> = TABLE_OWNERS;
const tables = schemaTables(
  WORKSPACES.map((w) => path.join(ROOT, w, 'migrations')).filter((dir) => existsSync(dir)),
);
const writes = repositoryWrites(tables);

describe('the owners of the tables', () => {
  it('reads the writes of the sources', () => {
    // The scan itself works: it finds writes to most tables, and a statement of each kind.
    expect(new Set(writes.map((w) => w.table)).size).toBeGreaterThan(30);
    expect(sqlWrites('UPDATE a x SET b = 1')).toEqual(['a']);
    expect(
      sqlWrites('WITH m AS (DELETE FROM a RETURNING id) INSERT INTO b SELECT * FROM m'),
    ).toEqual(['a', 'b']);
    expect(sqlWrites('TRUNCATE TABLE a, b; MERGE INTO c USING d ON true')).toEqual(['a', 'b', 'c']);
    expect(sqlWrites('COPY a (x) FROM STDIN; COPY (SELECT 1) TO STDOUT')).toEqual(['a']);
    expect(
      writesOf('x.ts', "db('bookings').where({ a: 1 }).update({ b: 2 });", new Set(['bookings'])),
    ).toEqual([{ file: 'x.ts', table: 'bookings' }]);
  });

  it('names an owner for every table of the schema, and no other table', () => {
    expect([...tables].filter((t) => !(t in owners)).sort()).toEqual([]);
    expect(Object.keys(owners).filter((t) => !tables.has(t))).toEqual([]);
  });

  it('names owners that exist', () => {
    const missing = Object.values(owners).filter(
      (o) => !existsSync(path.join(ROOT, o)) && !existsSync(path.join(ROOT, `${o}.ts`)),
    );
    expect(missing).toEqual([]);
  });

  it('finds every table written by its owner only', () => {
    const known = (w: Write) =>
      WRITERS_NOT_YET_WITH_THEIR_OWNER.some((k) => k.table === w.table && k.file === w.file);
    const outside = writes
      .filter((w) => w.table !== '${}' && !ownerCovers(owners[w.table]!, w.file) && !known(w))
      .map((w) => `${w.table} written in ${w.file} (owner: ${owners[w.table]})`);
    expect([...new Set(outside)].sort()).toEqual([]);
  });

  it('knows every writer whose table is named at run time', () => {
    const dynamic = writes.filter((w) => w.table === '${}' && !(w.file in DYNAMIC_WRITERS));
    expect(dynamic.map((w) => w.file)).toEqual([]);
  });

  it('lists no writer outside its owner that no longer writes the table', () => {
    const stale = WRITERS_NOT_YET_WITH_THEIR_OWNER.filter(
      (k) => !writes.some((w) => w.table === k.table && w.file === k.file),
    );
    expect(stale).toEqual([]);
  });
});
