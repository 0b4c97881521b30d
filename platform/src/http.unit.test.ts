import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import { createConnection, type AddressInfo, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import type { Request, Response } from 'express';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { express, problemHandler } from './http.ts';
import { closeGracefully, endlessAnswer, listen } from './listen.ts';
import { createLogger } from './logger.ts';

/** Runs the problem handler on an error; answers the response and the log lines. */
function handle(err: unknown) {
  const logs: { level: number; msg: string; code?: string; route?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logs.push(JSON.parse(line) as (typeof logs)[number]);
      done();
    },
  });
  const answer = { status: 0, type: '', headers: {} as Record<string, string>, body: '' };
  const res = {
    headersSent: false,
    setHeader(name: string, value: string) {
      answer.headers[name] = value;
      return this;
    },
    status(code: number) {
      answer.status = code;
      return this;
    },
    type(t: string) {
      answer.type = t;
      return this;
    },
    send(body: string) {
      answer.body = body;
      return this;
    },
  };
  const req = { baseUrl: '/api', route: { path: '/rooms/:id' } };
  problemHandler(createLogger('info', 'test', sink))(
    err,
    req as unknown as Request,
    res as unknown as Response,
    () => undefined,
  );
  return { ...answer, problem: JSON.parse(answer.body) as { error: string }, logs };
}

/** What router 2 throws for a path parameter it cannot decode. */
function routerDecodeError(value: string): URIError {
  try {
    decodeURIComponent(value);
  } catch (err) {
    return Object.assign(err as URIError, { status: 400, statusCode: 400 });
  }
  throw new Error(`${value} decodes`);
}

describe('problem handler', () => {
  it('answers a path parameter that is not percent-encoded UTF-8 with 400, no error log', () => {
    for (const value of ['%', '%E0%A4%A', '%C0%AE', '%ED%A0%80']) {
      const r = handle(routerDecodeError(value));
      expect(r.status, value).toBe(400);
      expect(r.type).toBe('application/problem+json');
      expect(r.problem.error).toBe('validation__error');
      expect(r.logs).toEqual([]);
    }
  });

  it('answers a value PostgreSQL refused with 400 and a warning naming code and route only', () => {
    const err = new pg.DatabaseError('invalid byte sequence for encoding "UTF8": 0x00', 0, 'error');
    err.code = '22021';
    const r = handle(err);
    expect(r.status).toBe(400);
    expect(r.problem.error).toBe('validation__error');
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]).toMatchObject({ level: 40, code: '22021', route: '/api/rooms/:id' });
    expect(JSON.stringify(r.logs)).not.toContain('0x00');
  });

  it('answers a lost database connection with 503 and Retry-After', () => {
    const r = handle(new Error('Client has encountered a connection error and is not queryable'));
    expect(r.status).toBe(503);
    expect(r.headers['Retry-After']).toBe('2');
    expect(r.problem.error).toBe('service__unavailable');
    expect(r.logs.every((l) => l.level < 50)).toBe(true);
  });

  it('still answers anything else with 500 and logs it as an error', () => {
    const r = handle(new TypeError('x is undefined'));
    expect(r.status).toBe(500);
    expect(r.logs.map((l) => l.level)).toEqual([50]);
    // A URIError of the service's own code is no client's fault.
    expect(handle(new URIError('URI malformed')).status).toBe(500);
  });
});

describe('graceful close', () => {
  /** A raw connection to `server`, accepted by it (its `connection` event has fired). */
  async function connect(server: Server): Promise<Socket> {
    const accepted = new Promise((resolve) => server.once('connection', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = createConnection({ host: '127.0.0.1', port });
    await Promise.all([new Promise((resolve) => socket.once('connect', resolve)), accepted]);
    return socket;
  }
  /** Everything the server sends on `socket` until it closes the connection. */
  const answerOn = (socket: Socket) =>
    new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.once('close', () => resolve(text));
    });

  it('answers a request sent on a connection accepted just before the close, then closes', async () => {
    const app = express();
    app.get('/ping', (_req, res) => void res.send('pong'));
    const server = await listen(app, 0, '127.0.0.1');
    const socket = await connect(server);
    const answer = answerOn(socket);
    const closed = closeGracefully(server);
    // The request leaves after the close began: Node's own close would have reset the connection.
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write('GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text.endsWith('pong')).toBe(true);
    await closed;
    expect(server.listening).toBe(false);
  });

  it('closes an idle keep-alive connection at once and waits for a request in flight', async () => {
    const app = express();
    let release = () => {};
    app.get('/slow', (_req, res) => {
      release = () => void res.send('done');
    });
    app.get('/ping', (_req, res) => void res.send('pong'));
    const server = await listen(app, 0, '127.0.0.1');
    const idle = await connect(server);
    const idleAnswer = answerOn(idle);
    idle.write('GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise<void>((resolve) => idle.once('data', () => resolve()));
    const busy = await connect(server);
    const busyAnswer = answerOn(busy);
    busy.write('GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    let done = false;
    const closed = closeGracefully(server).then(() => (done = true));
    expect(await idleAnswer).toMatch(/pong$/);
    expect(done).toBe(false);
    release();
    expect(await busyAnswer).toMatch(/\r\nconnection: close\r\n[\s\S]*done$/i);
    await closed;
  });

  it('ends an event stream (an endless answer) instead of waiting for it', async () => {
    const app = express();
    app.get('/stream', (_req, res) => {
      endlessAnswer(res);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('event: ready\ndata: {}\n\n');
    });
    const server = await listen(app, 0, '127.0.0.1');
    const stream = await connect(server);
    const answer = answerOn(stream);
    stream.write('GET /stream HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise<void>((resolve) => stream.once('data', () => resolve()));
    await closeGracefully(server);
    expect(server.listening).toBe(false);
    expect(await answer).toMatch(/event: ready/);
  });
});

describe('listen', () => {
  it('asks the kernel for the backlog it is given (ss shows it as the Send-Q of the listener)', async () => {
    const app = express();
    for (const backlog of [511, 1024]) {
      const server = await listen(app, 0, '127.0.0.1', backlog);
      try {
        const port = (server.address() as AddressInfo).port;
        const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' });
        // State, Recv-Q, Send-Q (the backlog), local address.
        expect(line.trim().split(/\s+/)[2]).toBe(String(backlog));
      } finally {
        await closeGracefully(server);
      }
    }
  });

  it('fails on a port that another server listens on, and nothing listens for it', async () => {
    const first = await listen(express(), 0, '127.0.0.1');
    try {
      const port = (first.address() as AddressInfo).port;
      await expect(listen(express(), port, '127.0.0.1')).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
      // The first server still answers on it.
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    } finally {
      await closeGracefully(first);
    }
  });
});
