import { readdir, readFile, readlink } from 'node:fs/promises';
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

/**
 * Whether process `pid` itself listens on TCP `port` (Linux: the kernel's tables of listening
 * sockets against the process's descriptors). A server spawned on a port from freePort that
 * another test's server took meanwhile exits for the port in use, but until it has, the other
 * server answers its health checks; a test that went on would talk to the other server.
 */
export async function listensOn(pid: number, port: number): Promise<boolean> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const f = line.trim().split(/\s+/);
      const local = f[1];
      if (!local || f[3] !== '0A') continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(f[9]!);
    }
  }
  if (inodes.size === 0) return false;
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && inodes.has(inode)) return true;
  }
  return false;
}
