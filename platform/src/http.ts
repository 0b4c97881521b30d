import express, { type Request, type Response, type NextFunction } from 'express';
import helmet from 'helmet';
import { Problem, problems } from './problem.ts';
import type { Logger } from './logger.ts';
import { routeOf } from './problem-handler.ts';

export { problemHandler } from './problem-handler.ts';

/**
 * State-changing requests must carry X-Requested-With: XMLHttpRequest (CSRF defence). A request
 * authenticated by an API token needs none: a browser never attaches a bearer token by itself.
 * Nor do the POSTs to `crossSiteFormPosts` (paths below /api): forms the browser posts across
 * sites that carry their own proof, such as the SAML identity provider's answer (a signed
 * assertion answering one of our requests, used once). Nor any request below `machinePrefixes`:
 * services for machines that never act on a session (Apple Wallet's web service).
 */
export function requireXhrHeader(
  crossSiteFormPosts: readonly string[] = [],
  machinePrefixes: readonly string[] = [],
) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const safe = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
    const formPost = req.method === 'POST' && crossSiteFormPosts.includes(req.path);
    // A machine's service (a wallet's web service): it uses no session, and its writes carry a
    // credential of their own in the Authorization header, which no page sends across sites.
    const machine = machinePrefixes.some((prefix) => req.path.startsWith(prefix));
    if (
      !safe &&
      !formPost &&
      !machine &&
      !req.apiTokenUser &&
      req.get('x-requested-with') !== 'XMLHttpRequest'
    ) {
      next(new Problem(403, 'http__access_denied_exception', 'Missing X-Requested-With header'));
      return;
    }
    next();
  };
}

/**
 * Helmet with a strict CSP: scripts only from this origin (the built SPA has no inline script).
 * `extraOrigins` (CSP_EXTRA_ORIGINS) admits the human-check service's script and frames when one
 * is configured (data-recaptcha-src), and nothing else.
 */
export function securityHeaders(extraOrigins: string[] = []) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", ...extraOrigins],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'", ...extraOrigins],
        'frame-src': ["'self'", ...extraOrigins],
        'frame-ancestors': ["'self'"],
        // The visitor app's web app manifest and service worker (docs/product.md#installable-app).
        'manifest-src': ["'self'"],
        'worker-src': ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}

export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      // Path template only: ids and query strings (e-mail addresses in blacklist paths) stay out.
      logger.info(
        {
          method: req.method,
          route: routeOf(req),
          status: res.statusCode,
          ms: Math.round(ms),
        },
        'request',
      );
    });
    next();
  };
}

/** Unknown /api paths answer problem+json 404 rather than the SPA. */
export function apiNotFound(_req: Request, _res: Response, next: NextFunction): void {
  next(problems.notFound('Endpoint'));
}

export { express };
