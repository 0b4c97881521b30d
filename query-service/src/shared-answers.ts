import type { Pool } from '@rr/platform';

/**
 * One answer shared by the requests of a public read that crowds ask at once (the occupancy
 * display every foyer screen polls; the room list, a room and its month calendar at the opening
 * minute of its booking window): computed once per key while the read models stand at the same
 * position, and for at most `ttlMs` of the clock. A write moves the position, so the next request
 * computes afresh: a reader never gets an answer older than the position it read (read-your-writes
 * holds, the gate has waited for the reader's position first); and the instant it was computed at
 * is at most `ttlMs` old (holds end by time, not by a write). Concurrent requests for the same key
 * wait for one computation. Off with `ttlMs` 0.
 */
export class SharedAnswers<T> {
  private readonly entries = new Map<
    string,
    { position: string; at: number; answer: Promise<T> }
  >();

  constructor(
    private readonly ttlMs: number,
    private readonly maxKeys = 1000,
  ) {}

  async get(pool: Pool, key: string, now: Date, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    const position = await positionOf(pool).read();
    const at = now.getTime();
    const hit = this.entries.get(key);
    if (hit && hit.position === position && at >= hit.at && at - hit.at < this.ttlMs)
      return hit.answer;
    // Bounded: a flood of distinct keys (room ids, months) cannot grow the process.
    if (this.entries.size >= this.maxKeys) this.entries.clear();
    const entry = { position, at, answer: compute() };
    this.entries.set(key, entry);
    entry.answer.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.answer;
  }
}

/**
 * Where the read models stand, read for many requests at once: a crowd's requests would
 * otherwise each cost a round trip to PostgreSQL before their shared answer. A caller gets a read
 * that began after it asked (one that began earlier could predate the caller's own write, which
 * the gate has seen projected), so a crowd costs at most two reads at a time: the one under way
 * and the one everybody who came since waits for.
 */
export class ReadModelsPosition {
  private running: Promise<string> | null = null;
  private next: Promise<string> | null = null;
  /** Reads made: what the sharing saves is visible in tests. */
  reads = 0;

  constructor(private readonly query: () => Promise<string>) {}

  read(): Promise<string> {
    if (!this.running) return this.start();
    this.next ??= this.running.then(
      () => this.afterRunning(),
      () => this.afterRunning(),
    );
    return this.next;
  }

  private afterRunning(): Promise<string> {
    this.next = null;
    return this.start();
  }

  private start(): Promise<string> {
    this.reads += 1;
    const read = this.query().finally(() => {
      if (this.running === read) this.running = null;
    });
    this.running = read;
    return read;
  }
}

const positions = new WeakMap<Pool, ReadModelsPosition>();

/** The process's one position reader of a pool. */
export function positionOf(pool: Pool): ReadModelsPosition {
  let reader = positions.get(pool);
  if (!reader) {
    reader = new ReadModelsPosition(async () => {
      // Every checkpoint, one key lookup each (a handful of rows).
      const r = await pool.query<{ p: string | null }>({
        name: 'rr_read_models_position',
        text: `SELECT string_agg(name || ':' || last_tx::text || '_' || last_gp::text, ',' ORDER BY name) AS p
                 FROM projection_checkpoints`,
      });
      return r.rows[0]?.p ?? '';
    });
    positions.set(pool, reader);
  }
  return reader;
}
