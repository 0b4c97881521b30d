import http from 'node:http';
import https from 'node:https';

/*
 * One attempt's request of a webhook delivery or a push notification and what it came to: the
 * HTTP exchange the senders (webhooks/sender.ts, push/sender.ts) make with a receiver, to the
 * address checked, under one deadline.
 */

/** What an attempt came to: a 2xx answer, or the failure recorded (status code or error). */
export type Failure = { ok: false; status: number | null; error: string };
export type Outcome = { ok: true; status: number } | Failure;

/** An attempt cut off by the sender's stop: not the endpoint's failure, never recorded as one. */
export const STOPPED = 'stopped';

/** The outcome of an attempt whose deadline (or the sender's stop) came first. */
const cutOff = (deadline: AbortSignal): Failure => ({
  ok: false,
  status: null,
  error:
    deadline.reason instanceof DOMException && deadline.reason.name === 'TimeoutError'
      ? 'timeout'
      : STOPPED,
});

/**
 * A deadline `ms` from now that `stop` also ends, and how to let it go once the attempt is over.
 * Not `AbortSignal.any([stop, AbortSignal.timeout(ms)])`: Node 20 holds the timeout's own signal
 * only weakly there, so a garbage collection during a long attempt drops it and a hanging
 * receiver is never cut off. Here the timer holds its controller until it fires or is cleared.
 */
export function deadlineAfter(
  ms: number,
  stop: AbortSignal,
): { signal: AbortSignal; clear: () => void } {
  const timer = new AbortController();
  const timeout = setTimeout(
    () => timer.abort(new DOMException('The attempt took too long.', 'TimeoutError')),
    ms,
  );
  return { signal: AbortSignal.any([stop, timer.signal]), clear: () => clearTimeout(timeout) };
}

/** Resolves when `deadline` passes (never before). */
export const passing = (deadline: AbortSignal): Promise<Failure> =>
  new Promise((resolve) => {
    if (deadline.aborted) resolve(cutOff(deadline));
    else deadline.addEventListener('abort', () => resolve(cutOff(deadline)), { once: true });
  });

/**
 * Sends one request to the address checked, never to another: the connection's lookup answers
 * that address (DNS is not asked again), TLS still verifies the certificate for the host name.
 * Redirects are answers like any other (a failure), never followed. The deadline ends the whole
 * exchange, connection to the last byte of the answer, however steadily bytes arrive: no idle
 * timeout, which a receiver sending a byte a second would keep resetting.
 */
export function post(
  url: URL,
  address: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string | Buffer,
  deadline: AbortSignal,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const lib = url.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', onDeadline);
      resolve(outcome);
    };
    const req = lib.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: false,
        // A JSON body unless the caller names another type (a push notification's is encrypted).
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'reading-room-reservations-webhooks',
          ...headers,
          'Content-Length': String(Buffer.byteLength(body)),
        },
        // The one address checked, whatever the name resolves to by now (DNS rebinding).
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all)
            (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
              address,
            ]);
          else callback(null, address.address, address.family);
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // The answer's body is not needed: read and dropped (at most 64 KB, then cut off).
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > 65_536) res.destroy();
        });
        const finish = () =>
          done(
            status >= 200 && status < 300
              ? { ok: true, status }
              : {
                  ok: false,
                  status,
                  error: status >= 300 && status < 400 ? `redirect not followed` : `HTTP ${status}`,
                },
          );
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    // Outcome first, then the connection torn down (its own events then find the outcome settled).
    function onDeadline() {
      done(cutOff(deadline));
      req.destroy();
    }
    deadline.addEventListener('abort', onDeadline, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ ok: false, status: null, error: err.code ?? err.message }),
    );
    if (deadline.aborted) onDeadline();
    else req.end(body);
  });
}
