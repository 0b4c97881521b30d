import net from 'node:net';

/** A port free at the moment (another process may take it before it is used; see reservePort). */
export async function freePort(): Promise<number> {
  const reserved = await reservePort();
  reserved.release();
  return reserved.port;
}

/** A port this process listens on until `release`, so that no other process takes it meanwhile. */
export interface ReservedPort {
  port: number;
  /** Stops listening at once (the kernel frees the port before this returns). */
  release(): void;
}

/**
 * A free port held until the server that is to listen on it starts (`startTestApp` releases it
 * just before it listens): for a provider that must know the app's URL before the app runs. A
 * port from freePort stays free only by chance while a database and providers start, and another
 * test's process may take it then.
 */
export function reservePort(): Promise<ReservedPort> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      resolve({ port, release: () => void srv.close() });
    });
  });
}
