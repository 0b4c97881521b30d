import pg from 'pg';
import type { PoolClient } from '@rr/platform';

/** A column of a read-model table and its PostgreSQL type (for the unnest casts). */
export interface ColumnSpec {
  name: string;
  type: string;
}

type Row = Record<string, unknown>;

// Timestamps are loaded as PostgreSQL's text, so a row written back keeps its exact value
// (a JS Date would cut microseconds); every other type as usual (dates are strings already).
const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const rawTimestamps = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown =>
    oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID
      ? (v: string) => v
      : pg.types.getTypeParser(oid, format),
};

/**
 * The rows of one read-model table that a batch of events touches, folded in memory and written
 * back with two set-based statements (a DELETE and a multi-row INSERT ... ON CONFLICT DO UPDATE).
 *
 * Its operations mean exactly what the per-event statements mean: `insertIfAbsent` is an INSERT
 * ... ON CONFLICT DO NOTHING, `update` an UPDATE by key (nothing when the row is absent), `remove`
 * a DELETE by key. Every key an operation uses must be loaded first (one SELECT for the batch).
 */
export class RowCache<R extends Row> {
  private readonly rows = new Map<string, R | null>();
  private readonly existed = new Set<string>();
  private readonly dirty = new Set<string>();

  constructor(
    private readonly table: string,
    private readonly columns: ColumnSpec[],
    /** The primary key column (first of `columns`). */
    private readonly key = columns[0]!,
  ) {}

  /** Loads the rows of the keys not loaded yet, in one query. */
  async load(client: PoolClient, keys: Iterable<string>): Promise<void> {
    const missing = [...new Set([...keys].map((k) => this.norm(k)))].filter(
      (k) => !this.rows.has(k),
    );
    if (missing.length === 0) return;
    const r = await client.query<R>({
      text: `SELECT ${this.columns.map((c) => c.name).join(', ')} FROM ${this.table} WHERE ${this.key.name} = ANY($1::${this.key.type}[])`,
      values: [missing],
      types: rawTimestamps,
    });
    for (const k of missing) this.rows.set(k, null);
    for (const row of r.rows) {
      const k = this.norm(String(row[this.key.name]));
      this.rows.set(k, row);
      this.existed.add(k);
    }
  }

  /** The current row of a loaded key, or null when it does not exist. */
  get(key: string): R | null {
    const k = this.norm(key);
    const row = this.rows.get(k);
    if (row === undefined) throw new Error(`${this.table}: key ${key} was not loaded`);
    return row;
  }

  /** INSERT ... ON CONFLICT DO NOTHING: the row (every column given) unless the key exists. */
  insertIfAbsent(row: R): void {
    const k = this.norm(String(row[this.key.name]));
    if (this.get(k) !== null) return;
    this.rows.set(k, { ...row, [this.key.name]: k });
    this.dirty.add(k);
  }

  /** UPDATE ... WHERE key = $1: sets the given columns, or nothing when the row is absent. */
  update(key: string | null, patch: Partial<R> | ((row: R) => Partial<R>)): void {
    if (key === null) return;
    const row = this.get(key);
    if (row === null) return;
    const k = this.norm(key);
    this.rows.set(k, { ...row, ...(typeof patch === 'function' ? patch(row) : patch) });
    this.dirty.add(k);
  }

  /** UPDATE ... WHERE <condition>, over the loaded rows only (the caller covers the others in SQL). */
  updateWhere(matches: (row: R) => boolean, patch: Partial<R>): void {
    for (const [k, row] of this.rows) {
      if (row === null || !matches(row)) continue;
      this.rows.set(k, { ...row, ...patch });
      this.dirty.add(k);
    }
  }

  /** Every key loaded (present or not). */
  loadedKeys(): string[] {
    return [...this.rows.keys()];
  }

  /** DELETE ... WHERE key = $1. */
  remove(key: string): void {
    const k = this.norm(key);
    if (this.get(k) === null) return;
    this.rows.set(k, null);
    this.dirty.add(k);
  }

  /** Writes the changed rows: a DELETE of the removed ones and one upsert of the others. */
  async flush(client: PoolClient): Promise<void> {
    const deleted: string[] = [];
    const upserts: R[] = [];
    for (const k of this.dirty) {
      const row = this.rows.get(k);
      if (row) upserts.push(row);
      else if (this.existed.has(k)) deleted.push(k);
    }
    if (deleted.length) {
      await client.query(
        `DELETE FROM ${this.table} WHERE ${this.key.name} = ANY($1::${this.key.type}[])`,
        [deleted],
      );
    }
    if (upserts.length) {
      const names = this.columns.map((c) => c.name);
      await client.query(
        `INSERT INTO ${this.table} (${names.join(', ')})
         SELECT * FROM unnest(${this.columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')})
         ON CONFLICT (${this.key.name}) DO UPDATE SET ${names
           .filter((n) => n !== this.key.name)
           .map((n) => `${n} = EXCLUDED.${n}`)
           .join(', ')}`,
        this.columns.map((c) => upserts.map((row) => row[c.name] ?? null)),
      );
    }
    for (const k of this.dirty) {
      if (this.rows.get(k)) this.existed.add(k);
      else this.existed.delete(k);
    }
    this.dirty.clear();
  }

  /** Forgets every row (after a statement outside the cache changed the table). */
  clear(): void {
    if (this.dirty.size) throw new Error(`${this.table}: clear() with unwritten changes`);
    this.rows.clear();
    this.existed.clear();
  }

  private norm(key: string): string {
    return this.key.type === 'uuid' ? key.toLowerCase() : key;
  }
}
