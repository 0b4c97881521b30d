import type { NextFunction, Request, Response } from 'express';
import { comparePositions, parsePosition, type Position } from '@rr/events';
import { problems, type Pool } from '@rr/platform';

/** Where each named projection stands: its checkpoint, by name (a missing one is absent). */
async function checkpoints(pool: Pool, names: string[]): Promise<Map<string, Position>> {
  const r = await pool.query<{ name: string; tx: string; gp: string }>(
    'SELECT name, last_tx::text AS tx, last_gp::text AS gp FROM projection_checkpoints WHERE name = ANY($1)',
    [names],
  );
  return new Map(r.rows.map((row) => [row.name, { tx: BigInt(row.tx), gp: BigInt(row.gp) }]));
}

const passed = (names: string[], at: Map<string, Position>, position: Position) =>
  names.every((name) => {
    const p = at.get(name);
    return p !== undefined && comparePositions(p, position) >= 0;
  });

/** Whether every named projection has applied everything up to the position. */
export async function projectionsReached(
  pool: Pool,
  names: string[],
  position: Position,
): Promise<boolean> {
  return passed(names, await checkpoints(pool, names), position);
}

/** Poll intervals of a watch while requests wait: short at first, then at most this. */
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 20;

interface Waiter {
  position: Position;
  done(reached: boolean): void;
  fail(err: unknown): void;
  timer: NodeJS.Timeout;
}

/**
 * The read models' checkpoints on one database server, read for every request that waits for a
 * position at once: one poll serves all of them. In a crowd hundreds of reads wait for the writes
 * just answered; each polling on its own cost a query every few milliseconds per request, which
 * the database and the process spent while the projections they waited for fell further behind.
 * Checkpoints only move forward, so what was last read stays true: a position it shows passed is
 * served at once, without a query.
 */
class CheckpointWatch {
  private last = new Map<string, Position>();
  private readonly waiters = new Set<Waiter>();
  private polling = false;

  constructor(
    private readonly pool: Pool,
    private readonly names: string[],
  ) {}

  /** Resolves true once the position is reached, false when `timeoutMs` ran out first. */
  reached(position: Position, timeoutMs: number): Promise<boolean> {
    if (passed(this.names, this.last, position)) return Promise.resolve(true);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        position,
        done: (reached) => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
        fail: (err) => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
        timer: setTimeout(() => waiter.done(false), timeoutMs),
      };
      this.waiters.add(waiter);
      if (!this.polling) void this.poll();
    });
  }

  /** Reads the checkpoints while anyone waits, and lets go of each whose position they passed. */
  private async poll(): Promise<void> {
    this.polling = true;
    let delay = FIRST_POLL_MS;
    try {
      while (this.waiters.size > 0) {
        const before = this.last;
        this.last = await checkpoints(this.pool, this.names);
        for (const w of this.waiters) if (passed(this.names, this.last, w.position)) w.done(true);
        if (this.waiters.size === 0) break;
        const moved = this.names.some((n) => {
          const [a, b] = [before.get(n), this.last.get(n)];
          return a === undefined || b === undefined || comparePositions(a, b) !== 0;
        });
        delay = moved ? FIRST_POLL_MS : Math.min(delay * 2, MAX_POLL_MS);
        await new Promise((r) => setTimeout(r, delay));
      }
    } catch (err) {
      for (const w of this.waiters) w.fail(err);
    } finally {
      this.polling = false;
    }
  }
}

/**
 * Read-your-writes: a request carrying `X-Min-Position` (the position a command answered) waits
 * briefly until the read models have caught up with it. After the timeout it is answered from the
 * read model as it is, marked `X-Read-Stale: true`.
 *
 * `sourceOf` names the database server the current request reads (a read replica pinned to it,
 * platform/src/read-pools.ts): each server's checkpoints are watched apart, by a poll that runs
 * in the context of a request pinned to that server.
 */
export function minPositionGate(
  pool: Pool,
  names: string[],
  timeoutMs: number,
  sourceOf: () => object = () => pool,
) {
  const watches = new WeakMap<object, CheckpointWatch>();
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('x-min-position');
    if (!header) return next();
    const position = parsePosition(header);
    if (!position)
      return next(problems.badRequest('validation__error', 'X-Min-Position is not a position'));
    const source = sourceOf();
    let watch = watches.get(source);
    if (!watch) {
      watch = new CheckpointWatch(pool, names);
      watches.set(source, watch);
    }
    try {
      if (!(await watch.reached(position, timeoutMs))) res.setHeader('X-Read-Stale', 'true');
      next();
    } catch (err) {
      next(err);
    }
  };
}
