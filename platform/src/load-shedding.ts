import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { problems } from './problem.ts';

export interface LoadSheddingOptions {
  /** Requests that run at once in this process. */
  concurrency: number;
  /** Requests that wait for a turn, at most; one more is answered 503 at once. */
  queue: number;
  /** The longest a request waits for its turn before it is answered 503. */
  maxWaitMs: number;
  /** What the 503 tells the client to wait before asking again, at least (retryAfterFor). */
  retryAfterSeconds: number;
  /** How many times `retryAfterSeconds` it tells at most, when the line is full. */
  retryAfterSpread: number;
  /** Paths (within the router) never held back: health and readiness must answer however busy. */
  exempt?: (req: Request) => boolean;
}

/**
 * The wait a 503 names: `base` seconds while the line is empty, up to `spread` times that when
 * it is full (`fill`, waiting over the line's bound), drawn at random in between: a crowd turned
 * away in the same second does not come back in the same second, and the fuller the line the
 * longer it stays away. A spread of 1 names `base` always.
 */
export function retryAfterFor(
  base: number,
  spread: number,
  fill: number,
  random: () => number = Math.random,
) {
  const most = base * (1 + (spread - 1) * Math.min(1, Math.max(0, fill)));
  return Math.max(1, Math.round(base + (most - base) * random()));
}

/** The answer to a request that was not run: the client may send it again unchanged. */
function shed(res: Response, retryAfterSeconds: number): void {
  const problem = problems.overloaded();
  res.setHeader('Retry-After', String(retryAfterSeconds));
  res.status(503).type('application/problem+json').send(JSON.stringify(problem.toJSON()));
}

/**
 * Bounded admission per process (docs/product.md#overload): at most `concurrency` requests run,
 * at most `queue` wait for a turn in arrival order, none longer than `maxWaitMs`. Beyond that a
 * request is answered 503 `service__overloaded` with `Retry-After` before any of its work
 * started, so it can be sent again unchanged (nothing was written) and a crowd meets a quick "try
 * again in N seconds" instead of waits that grow without bound. Waiting requests hold no database
 * connection: they have not started.
 */
export function shedLoad(options: LoadSheddingOptions): RequestHandler {
  let running = 0;
  const waiting: { start: () => void; timer: NodeJS.Timeout }[] = [];

  const admit = (res: Response, next: NextFunction) => {
    running += 1;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      running -= 1;
      const turn = waiting.shift();
      if (turn) {
        clearTimeout(turn.timer);
        turn.start();
      }
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };

  const retryAfter = () =>
    retryAfterFor(
      options.retryAfterSeconds,
      options.retryAfterSpread,
      options.queue === 0 ? 1 : waiting.length / options.queue,
    );

  return (req, res, next) => {
    if (options.exempt?.(req)) return next();
    if (running < options.concurrency && waiting.length === 0) return admit(res, next);
    if (waiting.length >= options.queue) return shed(res, retryAfter());
    const turn = {
      start: () => admit(res, next),
      timer: setTimeout(() => {
        const at = waiting.indexOf(turn);
        if (at >= 0) waiting.splice(at, 1);
        shed(res, retryAfter());
      }, options.maxWaitMs),
    };
    waiting.push(turn);
    // A client that gave up leaves the line.
    res.once('close', () => {
      const at = waiting.indexOf(turn);
      if (at >= 0) {
        waiting.splice(at, 1);
        clearTimeout(turn.timer);
      }
    });
  };
}
