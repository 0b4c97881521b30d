import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeGracefully, createLogger, listen } from '@rr/platform';
import { createGateway } from './gateway.ts';

/**
 * The split deployment's gateway passes a request that an instance never read to the next one:
 * a refused connection, and a connection reset before any answer (a stopping instance's kernel
 * resets the connections still waiting in its listener's queue, and closes kept-alive ones it
 * found idle). A failure after the instance answered is not sent again. Real sockets on loopback.
 */

const servers: net.Server[] = [];
let frontend = '';

beforeAll(() => {
  frontend = mkdtempSync(path.join(os.tmpdir(), 'rr-gateway-'));
});
afterAll(() => rmSync(frontend, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
  );
});

const urlOf = (s: net.Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

async function serve(s: net.Server): Promise<string> {
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return urlOf(s);
}

/** An instance that answers every request with 201 and counts what it read. */
function answering() {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(`${req.method} ${req.url} ${body}`);
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"booked":true}');
    });
  });
  return { server, bodies };
}

/** An instance whose connections are reset as soon as they are made: nothing is read. */
function resetting() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.resetAndDestroy();
  });
  return { server, connections: () => connections };
}

/** An instance that starts its answer and then breaks the connection. */
function breakingMidAnswer() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"part');
      setTimeout(() => res.socket?.resetAndDestroy(), 20);
    });
  });
  return { server };
}

async function gatewayOf(commandUrls: string[]) {
  const app = createGateway({
    commandUrls,
    queryUrls: commandUrls,
    frontendDist: frontend,
    cspExtraOrigins: [],
    logger: createLogger('silent'),
  });
  const server = await listen(app, 0, '127.0.0.1');
  return {
    url: urlOf(server),
    close: () => closeGracefully(server),
  };
}

const book = (url: string) =>
  fetch(`${url}/api/transactions/t1/booking`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"firstName":"Anna"}',
  });

describe('the gateway', () => {
  it('sends a request an instance reset before reading it to the next instance, once', async () => {
    const reset = resetting();
    const good = answering();
    const gateway = await gatewayOf([await serve(reset.server), await serve(good.server)]);
    try {
      const answer = await book(gateway.url);
      expect(answer.status).toBe(201);
      expect(await answer.json()).toEqual({ booked: true });
      expect(reset.connections()).toBe(1);
      expect(good.bodies).toEqual(['POST /api/transactions/t1/booking {"firstName":"Anna"}']);
    } finally {
      await gateway.close();
    }
  });

  it('sends a request an instance refused to the next instance', async () => {
    const closed = net.createServer();
    const refusing = await serve(closed);
    servers.splice(servers.indexOf(closed), 1);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const good = answering();
    const gateway = await gatewayOf([refusing, await serve(good.server)]);
    try {
      expect((await book(gateway.url)).status).toBe(201);
      expect(good.bodies).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });

  it('answers 503 with Retry-After when every instance resets the connection', async () => {
    const a = resetting();
    const b = resetting();
    const gateway = await gatewayOf([await serve(a.server), await serve(b.server)]);
    try {
      const answer = await book(gateway.url);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(a.connections() + b.connections()).toBe(2);
    } finally {
      await gateway.close();
    }
  });

  it('never sends a request again once its instance began to answer', async () => {
    const breaking = breakingMidAnswer();
    const good = answering();
    const gateway = await gatewayOf([await serve(breaking.server), await serve(good.server)]);
    try {
      // The answer's head went out already: the client sees the break, not a second answer.
      await expect(book(gateway.url).then((r) => r.text())).rejects.toThrow();
      expect(good.bodies).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});
