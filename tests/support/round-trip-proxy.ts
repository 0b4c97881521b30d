import net from 'node:net';

export interface RoundTripProxy {
  /** The database URL through the proxy. */
  url: string;
  /** Round trips since the last reset: answers the client waited for after sending. */
  roundTrips(): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of PostgreSQL that counts round trips. It holds the server's answers
 * until the client has sent nothing for `quietMs`, so whatever a client sends before it waits
 * for an answer counts once, however the bytes were split and however fast the server was; a
 * client that waits for each answer before sending on counts once per statement.
 */
export async function roundTripProxy(databaseUrl: string, quietMs = 30): Promise<RoundTripProxy> {
  const target = new URL(databaseUrl);
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let held: Buffer[] = [];
    let sentSinceAnswer = false;
    let lastSent = 0;
    let timer: NodeJS.Timeout | undefined;
    const release = () => {
      timer = undefined;
      if (held.length === 0) return;
      const quietFor = performance.now() - lastSent;
      if (quietFor < quietMs) {
        timer = setTimeout(release, quietMs - quietFor);
        return;
      }
      if (sentSinceAnswer) count += 1;
      sentSinceAnswer = false;
      client.write(Buffer.concat(held));
      held = [];
    };
    const schedule = () => {
      if (!timer) timer = setTimeout(release, quietMs);
    };
    client.on('data', (d: Buffer) => {
      lastSent = performance.now();
      sentSinceAnswer = true;
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      held.push(d);
      schedule();
    });
    const end = () => {
      clearTimeout(timer);
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    roundTrips: () => count,
    reset: () => {
      count = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
