import http from 'node:http';

/** A request a receiver got: its headers (lower case) and its body as sent. */
export interface Received {
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: Received[];
  /** The answer to the next request, by its number (from 0): a status, or a redirect target. */
  answer: (n: number) => number | { redirect: string };
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
    close: () => Promise.resolve(),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = receiver.received.length;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      receiver.received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = receiver.answer(n);
      if (typeof answer === 'number') res.writeHead(answer).end();
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
