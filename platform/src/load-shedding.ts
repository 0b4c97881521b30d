import type { Request, RequestHandler, Response } from 'express';
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
 * A bounded line for turns: at most `concurrency` hold a turn, at most `queue` wait for one in
 * arrival order, none longer than `maxWaitMs` (when given). Every bounded admission of the process
 * takes its turns here: the API's requests (shedLoad) and the what-if replays.
 */
export class AdmissionLine {
  private running = 0;
  private readonly waiting: { start: () => void; timer: NodeJS.Timeout | null }[] = [];

  constructor(
    private readonly limits: { concurrency: number; queue: number; maxWaitMs?: number },
  ) {}

  /** How full the waiting line is, 0 (empty) to 1 (full): what `retryAfterFor` spreads by. */
  get fill(): number {
    return this.limits.queue === 0 ? 1 : this.waiting.length / this.limits.queue;
  }

  /**
   * Asks for a turn: `start` runs with the turn's release when it comes (at once while a turn is
   * free and nobody waits); `refuse` runs instead when the line is full or the wait ran out.
   * Answers how to leave the line (a client that gave up); after its turn came, that does nothing.
   */
  ask(start: (release: () => void) => void, refuse: () => void): () => void {
    if (this.running < this.limits.concurrency && this.waiting.length === 0) {
      this.admit(start);
      return () => undefined;
    }
    if (this.waiting.length >= this.limits.queue) {
      refuse();
      return () => undefined;
    }
    const turn = {
      start: () => this.admit(start),
      timer:
        this.limits.maxWaitMs === undefined
          ? null
          : setTimeout(() => {
              if (leave()) refuse();
            }, this.limits.maxWaitMs),
    };
    const leave = () => {
      const at = this.waiting.indexOf(turn);
      if (at < 0) return false;
      this.waiting.splice(at, 1);
      if (turn.timer) clearTimeout(turn.timer);
      return true;
    };
    this.waiting.push(turn);
    return () => void leave();
  }

  private admit(start: (release: () => void) => void): void {
    this.running += 1;
    let done = false;
    start(() => {
      if (done) return;
      done = true;
      this.running -= 1;
      const turn = this.waiting.shift();
      if (turn) {
        if (turn.timer) clearTimeout(turn.timer);
        turn.start();
      }
    });
  }
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
  const line = new AdmissionLine(options);
  const retryAfter = () =>
    retryAfterFor(options.retryAfterSeconds, options.retryAfterSpread, line.fill);

  return (req, res, next) => {
    if (options.exempt?.(req)) return next();
    const leave = line.ask(
      (release) => {
        res.once('finish', release);
        res.once('close', release);
        next();
      },
      () => shed(res, retryAfter()),
    );
    // A client that gave up leaves the line.
    res.once('close', leave);
  };
}
