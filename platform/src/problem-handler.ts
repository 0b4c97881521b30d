import type { Request, Response, NextFunction } from 'express';
import { Problem, problems } from './problem.ts';
import { problemOfRefusal, Refused } from './refusal-problem.ts';
import { isConnectionError, isRefusedInputData } from './db.ts';
import type { Logger } from './logger.ts';

/** The one error handler: every failure becomes problem+json; no stack or internal text leaks. */
export function problemHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let problem: Problem;
    if (err instanceof Problem) problem = err;
    else if (err instanceof Refused) problem = problemOfRefusal(err);
    else if (isMalformedPathEncoding(err)) problem = malformedPath();
    else if (isRefusedInputData(err)) {
      // The edge's validation let through a value PostgreSQL refuses: the client's fault all the
      // same, but the validation needs a fix. Code and route only: the value may be personal.
      logger.warn({ code: err.code, route: routeOf(req) }, 'database refused a value of a request');
      problem = problems.badRequest(
        'validation__error',
        'The request contains a value that is not valid',
      );
    } else if (isBodyParserError(err)) {
      problem =
        err.type === 'entity.too.large'
          ? problems.tooLarge()
          : problems.badRequest('validation__error', 'The request body is not valid JSON');
    } else if ((err as { name?: string }).name === 'ConcurrencyError')
      problem = problems.versionConflict();
    else if (isConnectionError(err)) {
      logger.warn({ err: String(err) }, 'database unavailable');
      problem = problems.unavailable();
      res.setHeader('Retry-After', '2');
    } else {
      logger.error({ err }, 'unhandled error');
      problem = problems.internal();
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(problem.headers ?? {})) res.setHeader(k, v);
    res
      .status(problem.status)
      .type('application/problem+json')
      .send(JSON.stringify(problem.toJSON()));
  };
}

/**
 * The router's refusal of a path parameter that is not percent-encoded UTF-8 (`%`, `%E0%A4%A`,
 * `%C0%AE`, an encoded lone surrogate `%ED%A0%80`): decodeURIComponent's URIError, marked 400.
 */
function isMalformedPathEncoding(err: unknown): boolean {
  return err instanceof URIError && (err as { status?: unknown }).status === 400;
}

const malformedPath = () =>
  problems.validation([
    { field: 'path', rule: 'invalid_encoding', message: 'The path is not percent-encoded UTF-8' },
  ]);

/** The route's path template, never the path itself (e-mail addresses in blacklist paths). */
export function routeOf(req: Request): string {
  return `${req.baseUrl}${(req.route as { path?: string } | undefined)?.path ?? 'unmatched'}`;
}

function isBodyParserError(err: unknown): err is { type: string; status: number } {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { type?: unknown }).type === 'string' &&
    typeof (err as { status?: unknown }).status === 'number'
  );
}
