import type { Request, Response, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { Problem } from './problem.ts';

/**
 * A per-client rate limit answering 429 problem+json with Retry-After. The counters live in the
 * process (each instance limits on its own); behind a proxy set TRUST_PROXY so the client address
 * is the real one.
 */
export function limitRequests(options: {
  windowMs: number;
  limit: number;
  key?: (req: Request) => string;
}): RequestHandler {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(options.key ? { keyGenerator: options.key } : {}),
    handler: (_req: Request, res: Response) => {
      const retryAfter = Math.ceil(options.windowMs / 1000);
      const problem = new Problem(
        429,
        'http__too_many_requests',
        'Too many requests, please try again later',
      );
      res.setHeader('Retry-After', String(retryAfter));
      res.status(429).type('application/problem+json').send(JSON.stringify(problem.toJSON()));
    },
  });
}
