import http from 'node:http';
import { endlessAnswer, express, problems, securityHeaders, type Logger } from '@rr/platform';
import { mountFrontend } from './app.ts';

export interface GatewayOptions {
  commandUrls: string[];
  queryUrls: string[];
  frontendDist: string;
  cspExtraOrigins: string[];
  logger: Logger;
}

/** Largest request body forwarded (the calendar upload is at most 5 MB). */
const MAX_BODY = 6 * 1024 * 1024;

function sendProblem(res: express.Response, status: number, body: object): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}

/**
 * The small gateway of the split deployment: writes (and sign-in) go to the command-service
 * instances, reads to the query-service instances, round robin; the SPA is served here. The
 * request body is read first, so an instance that refuses the connection, or resets it before
 * answering, is skipped and the next one gets the same request; when none answers the client gets
 * 503 problem+json, never a hang.
 */
export function createGateway(o: GatewayOptions): express.Express {
  const pools = {
    command: o.commandUrls.map((u) => new URL(u)),
    query: o.queryUrls.map((u) => new URL(u)),
  };
  const turn = { command: 0, query: 0 };
  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders(o.cspExtraOrigins));

  app.use('/api', (req, res) => {
    const read = req.method === 'GET' || req.method === 'HEAD';
    const kind = read && !req.originalUrl.startsWith('/api/auth/') ? 'query' : 'command';
    const targets = pools[kind];
    const first = turn[kind]++ % targets.length;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        sendProblem(res, 413, problems.tooLarge().toJSON());
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (i: number): void => {
        if (i >= targets.length) {
          res.setHeader('Retry-After', '2');
          sendProblem(res, 503, problems.unavailable().toJSON());
          return;
        }
        const target = targets[(first + i) % targets.length]!;
        const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress]
          .filter(Boolean)
          .join(', ');
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.originalUrl,
            headers: {
              ...req.headers,
              'x-forwarded-for': forwarded,
              'content-length': String(body.length),
            },
          },
          (answer) => {
            // An event stream (live availability) is passed on as it comes, for as long as it is
            // open: no idle timeout (its heartbeat is the instance's business), ended by a
            // graceful close like the instance's own, and closed upstream once the client left.
            const stream = String(answer.headers['content-type']).startsWith('text/event-stream');
            if (stream) {
              upstream.setTimeout(0);
              endlessAnswer(res);
              res.once('close', () => {
                if (!answer.complete) upstream.destroy();
              });
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            if (stream) res.flushHeaders();
            answer.pipe(res);
          },
        );
        upstream.setTimeout(30_000, () => upstream.destroy(new Error('upstream timeout')));
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          // The instance refused the connection, or reset it before any answer: a kept-alive
          // connection it closed as idle (it is stopping: a rolling upgrade) just as this request
          // went out on it, or a new one still waiting in the kernel's queue when the stopping
          // instance closed its listener (a busy event loop had not accepted it yet). Either way
          // it never read the request, so another may take it. (After a crash in the middle of a
          // request the same reset may follow a request it did read: sent again, a booking is
          // decided on its cart's stream and never taken twice; a second new cart expires with
          // its hold.)
          const unread =
            err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET' || err.code === 'EPIPE';
          if (unread && !res.headersSent) {
            o.logger.warn(
              { target: target.host, error: err.code, reusedSocket: upstream.reusedSocket },
              'instance refused or reset the connection before answering; trying the next one',
            );
            attempt(i + 1);
            return;
          }
          o.logger.error(
            {
              target: target.host,
              error: err.code ?? err.message,
              reusedSocket: upstream.reusedSocket,
              answered: res.headersSent,
            },
            'instance failed the request; answered 502',
          );
          sendProblem(res, 502, {
            type: 'about:blank',
            title: 'Bad gateway',
            status: 502,
            error: 'unknown',
            payload: [],
          });
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });

  mountFrontend(app, o.frontendDist);
  return app;
}
