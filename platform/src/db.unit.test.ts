import net from 'node:net';
import { once } from 'node:events';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { CoalescingSocket, isConnectionError, isRefusedInputData } from './db.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const databaseError = (code: string) => {
  const err = new pg.DatabaseError('refused', 0, 'error');
  err.code = code;
  return err;
};

describe('database errors', () => {
  it('takes a lost or refused connection for the database being unavailable', () => {
    for (const message of [
      // node-postgres, when a pooled client's connection failed between its queries
      'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
      'Connection terminated unexpectedly',
      'Connection terminated',
      'timeout exceeded when trying to connect',
    ])
      expect(isConnectionError(new Error(message)), message).toBe(true);
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      '57P01',
      '57P03',
      '08006',
      '53300',
    ])
      expect(isConnectionError(withCode('gone', code)), code).toBe(true);
    // During a failover: a write on a demoted primary, a read a replica's replay cancelled.
    expect(isConnectionError(databaseError('25006'))).toBe(true);
    expect(
      isConnectionError(
        Object.assign(databaseError('40001'), {
          message: 'canceling statement due to conflict with recovery',
        }),
      ),
    ).toBe(true);
    expect(isConnectionError(databaseError('40001'))).toBe(false);
    // The pool wraps the socket's error.
    expect(
      isConnectionError(
        new Error('Connection terminated due to connection timeout', {
          cause: withCode('connect', 'ECONNREFUSED'),
        }),
      ),
    ).toBe(true);
    expect(isConnectionError(new Error('wrapped', { cause: withCode('x', 'ECONNRESET') }))).toBe(
      true,
    );
  });

  it('does not take a bad query or a refused value for one', () => {
    expect(isConnectionError(databaseError('42P01'))).toBe(false);
    expect(isConnectionError(databaseError('22021'))).toBe(false);
    expect(isConnectionError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isConnectionError('Connection terminated')).toBe(false);
    const cyclic = new Error('a');
    cyclic.cause = cyclic;
    expect(isConnectionError(cyclic)).toBe(false);
  });

  it('knows the data exceptions a request value causes', () => {
    for (const code of ['22021', '22P05', '22008', '22007', '22003', '22001', '22P02'])
      expect(isRefusedInputData(databaseError(code)), code).toBe(true);
    expect(isRefusedInputData(databaseError('23505'))).toBe(false);
    expect(isRefusedInputData(databaseError('22012'))).toBe(false);
    // Only PostgreSQL's own errors: a code alone is not one.
    expect(isRefusedInputData(withCode('x', '22021'))).toBe(false);
  });
});

describe('the socket to PostgreSQL (CoalescingSocket)', () => {
  it("sends the queries written in one turn of the event loop together, at the turn's end", async () => {
    const received: Buffer[] = [];
    const server = net.createServer((c) => c.on('data', (d: Buffer) => received.push(d)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = new CoalescingSocket();
    try {
      socket.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
      await once(socket, 'connect');
      // As the driver writes a query: corked around its messages.
      const query = (bytes: number) => {
        socket.cork();
        socket.write(Buffer.alloc(bytes, 1));
        socket.write(Buffer.alloc(bytes, 2));
        socket.uncork();
      };
      query(10);
      query(20);
      // Both queries are still held in the socket: nothing was handed to the system yet.
      expect(socket.writableLength).toBe(60);
      await new Promise((resolve) => process.nextTick(resolve));
      expect(socket.writableLength).toBe(0);
      // A query in a later turn leaves at the end of that turn, on its own.
      await new Promise((resolve) => setImmediate(resolve));
      query(5);
      expect(socket.writableLength).toBe(10);
      await new Promise((resolve) => process.nextTick(resolve));
      expect(socket.writableLength).toBe(0);
      await vi.waitFor(() => expect(Buffer.concat(received).length).toBe(70));
    } finally {
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
