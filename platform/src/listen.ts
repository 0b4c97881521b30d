import type express from 'express';
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * How long the server keeps an idle keep-alive connection. Clients close theirs sooner (fetch
 * after 4 s, proxies and load balancers within a minute); a server that closed first could reset
 * a request a client sent on the connection at that moment (ECONNRESET), most often when a busy
 * event loop fires the timers late.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The open connections of each server `listen` started, with the answers each has under way. */
const connectionsOf = new WeakMap<Server, Map<Socket, Connection>>();
interface Connection {
  /** The answers not yet sent in full. */
  inFlight: Set<ServerResponse>;
  /** When it was accepted (performance.now()). */
  since: number;
}

/**
 * Answers that never end by themselves (event streams): a graceful close ends them rather than
 * waiting for them, and their clients connect again elsewhere.
 */
const endless = new WeakSet<ServerResponse>();

/** Marks an answer as one that never ends by itself (an event stream); see closeGracefully. */
export function endlessAnswer(res: ServerResponse): void {
  endless.add(res);
}

/**
 * How long a graceful close leaves a connection that has not sent a byte yet: one accepted just
 * before the close, whose request is still on its way (or waits in the kernel while a busy event
 * loop catches up). Closing it would reset a request the server never read.
 */
const FRESH_CONNECTION_GRACE_MS = 2_000;

/**
 * Starts serving `app` on `port` and `host` and answers the listening server. `backlog`: the
 * connections the kernel keeps for the process to accept (Linux caps it at net.core.somaxconn);
 * a crowd's connections beyond it are dropped and the clients send them again only after 1, 3, 7
 * and 15 s. Rejects when the address is taken (EADDRINUSE) or not the machine's.
 */
export function listen(
  app: express.Express,
  port: number,
  host: string,
  backlog = 511,
): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    // Express calls back with the error when the address cannot be taken (a port in use): the
    // start fails rather than going on with a server that listens nowhere.
    const server = app.listen(port, host, backlog, (err?: Error) =>
      err ? reject(err) : resolve(server),
    );
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Node requires the time to receive a request's headers to outlast the idle time.
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    const open = new Map<Socket, Connection>();
    connectionsOf.set(server, open);
    server.on('connection', (socket: Socket) => {
      open.set(socket, { inFlight: new Set(), since: performance.now() });
      socket.once('close', () => open.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const connection = open.get(req.socket);
      if (!connection) return;
      connection.inFlight.add(res);
      res.once('close', () => connection.inFlight.delete(res));
    });
  });
}

/**
 * Stops accepting connections and resolves once every request in flight has been answered. An
 * idle keep-alive connection would hold the server open for KEEP_ALIVE_TIMEOUT_MS, so idle
 * connections are closed now and again as each request in flight finishes and leaves its
 * connection idle; the answers carry `Connection: close` meanwhile. Node's own `server.close()`
 * would also close, at once, a connection accepted a moment before whose first request has not
 * been read yet (a gateway or load balancer that picked this instance just then would see a
 * reset for a request it cannot know was never read): such a connection gets
 * FRESH_CONNECTION_GRACE_MS to send it. Event streams (endlessAnswer) are ended at once.
 */
export function closeGracefully(server: Server): Promise<void> {
  const open = connectionsOf.get(server);
  if (!open) {
    // A server `listen` did not start: Node's close, idle connections closed as they appear.
    return new Promise<void>((resolve) => {
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      server.close(() => {
        clearInterval(sweep);
        resolve();
      });
    });
  }
  return new Promise<void>((resolve) => {
    const closeIdle = () => {
      const now = performance.now();
      for (const [socket, { inFlight, since }] of open) {
        if (inFlight.size > 0) continue;
        if (socket.bytesRead === 0 && now - since < FRESH_CONNECTION_GRACE_MS) continue;
        socket.destroy();
      }
    };
    const sweep = setInterval(closeIdle, 100);
    // Every answer from now on says the connection closes: those under way ...
    for (const { inFlight } of open.values())
      for (const res of inFlight) {
        if (!res.headersSent) res.setHeader('Connection', 'close');
        else if (endless.has(res)) res.end();
      }
    // ... and those to come, before the app's own listener, which may answer at once.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('Connection', 'close');
    });
    // net's close stops accepting and waits for the open connections, without http's closing
    // of every connection it deems idle, fresh ones included.
    NetServer.prototype.close.call(server, () => {
      clearInterval(sweep);
      resolve();
    });
    closeIdle();
  });
}
