import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanCheck } from '@rr/command-service';
import { createLogger } from '@rr/platform';
import { freePort } from '../support/ports.ts';

let server: http.Server;
let url: string;
const seen: URLSearchParams[] = [];

beforeAll(async () => {
  const port = await freePort();
  // A local stand-in of the siteverify service: form-encoded secret + response in, JSON out.
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          success: form.get('secret') === 's3cret' && form.get('response') === 'human-token',
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${port}/siteverify`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe('human check against a siteverify service', () => {
  const logger = createLogger('silent');

  it('passes a verified token, fails a wrong or missing one, sending the secret', async () => {
    const check = humanCheck('s3cret', url, logger);
    expect(await check('human-token')).toBe(true);
    expect(await check('bot-token')).toBe(false);
    expect(await check(undefined)).toBe(false);
    expect(seen.at(-1)?.get('secret')).toBe('s3cret');
  });

  it('fails closed when the service cannot be reached, and is disabled without a secret', async () => {
    expect(await humanCheck('s3cret', 'http://127.0.0.1:1/siteverify', logger)('human-token')).toBe(
      false,
    );
    expect(await humanCheck(undefined, url, logger)(undefined)).toBe(true);
  });
});
