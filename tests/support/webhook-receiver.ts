import http from 'node:http';

/** A request a receiver got: its headers (lower case) and its body as sent. */
export interface Received {
  headers: Record<string, string>;
  body: string;
  /** Whether its connection has ended (answered, or closed by either side). */
  closed: boolean;
}

/**
 * The answer to a request: a status, a redirect target, `'hang'` (the request is read and never
 * answered), `'drip'` (a 200 whose body comes one byte a second and never ends), or a promise of
 * a status (answered when the test resolves it: a request held open as long as the test wants).
 */
export type Answer = number | { redirect: string } | 'hang' | 'drip' | Promise<number>;

export interface WebhookReceiver {
  url: string;
  port: number;
  received: Received[];
  /** The answer to the next request, by its number (from 0). */
  answer: (n: number) => Answer;
  /** Requests whose connection is open now, and the most there were at once. */
  open: number;
  mostOpen: number;
  close(): Promise<void>;
}

/**
 * An HTTP receiver of webhooks on a loopback address (127.0.0.1 or another of 127.0.0.0/8):
 * records every request and answers 200 unless told otherwise.
 */
export async function startReceiver(host = '127.0.0.1', port = 0): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    answer: () => 200,
    open: 0,
    mostOpen: 0,
    close: () => Promise.resolve(),
  };
  const server = http.createServer((req, res) => {
    receiver.open += 1;
    receiver.mostOpen = Math.max(receiver.mostOpen, receiver.open);
    let drip: NodeJS.Timeout | undefined;
    let record: Received | undefined;
    res.on('close', () => {
      clearInterval(drip);
      receiver.open -= 1;
      if (record) record.closed = true;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = receiver.received.length;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      record = { headers, body: Buffer.concat(chunks).toString('utf8'), closed: false };
      receiver.received.push(record);
      const answer = receiver.answer(n);
      if (answer === 'hang') return;
      if (answer instanceof Promise) {
        void answer.then((status) => {
          if (!res.destroyed) res.writeHead(status).end();
        });
        return;
      }
      if (answer === 'drip') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.flushHeaders();
        drip = setInterval(() => res.write('.'), 1000);
      } else if (typeof answer === 'number') res.writeHead(answer).end();
      else res.writeHead(307, { Location: answer.redirect }).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  receiver.port = typeof address === 'object' && address ? address.port : port;
  receiver.url = `http://${host}:${receiver.port}/hooks`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return receiver;
}
