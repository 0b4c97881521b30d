import type { NextFunction, Request, Response } from 'express';
import { comparePositions, parsePosition, type Position } from '@rr/events';
import { problems, type Pool } from '@rr/platform';

/** Whether every named projection has applied everything up to the position. */
export async function projectionsReached(
  pool: Pool,
  names: string[],
  position: Position,
): Promise<boolean> {
  const r = await pool.query<{ name: string; tx: string; gp: string }>(
    'SELECT name, last_tx::text AS tx, last_gp::text AS gp FROM projection_checkpoints WHERE name = ANY($1)',
    [names],
  );
  if (r.rows.length < names.length) return false;
  return r.rows.every(
    (row) => comparePositions({ tx: BigInt(row.tx), gp: BigInt(row.gp) }, position) >= 0,
  );
}

/**
 * Read-your-writes: a request carrying `X-Min-Position` (the position a command answered) waits
 * briefly until the read models have caught up with it. After the timeout it is answered from the
 * read model as it is, marked `X-Read-Stale: true`.
 */
export function minPositionGate(pool: Pool, names: string[], timeoutMs: number) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('x-min-position');
    if (!header) return next();
    const position = parsePosition(header);
    if (!position)
      return next(problems.badRequest('validation__error', 'X-Min-Position is not a position'));
    const deadline = performance.now() + timeoutMs;
    let delay = 5;
    try {
      while (!(await projectionsReached(pool, names, position))) {
        if (performance.now() >= deadline) {
          res.setHeader('X-Read-Stale', 'true');
          break;
        }
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 50);
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}
