import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, listensOn } from '../support/ports.ts';

/**
 * The test servers' check that the process answering on their port is their own (listensOn): a
 * server spawned on a port another test's server took in the meantime would otherwise pass its
 * health checks on the other server, and its file would run against the other's database.
 */
describe('listensOn', () => {
  it("tells a child's listening socket from this process's", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${port}, '127.0.0.1', () => console.log('up'))`,
    ]);
    try {
      await once(child.stdout, 'data');
      expect(await listensOn(child.pid!, port)).toBe(true);
      expect(await listensOn(process.pid, port)).toBe(false);
      expect(await listensOn(child.pid!, port + 1)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('sees a socket of this process while it listens, and not after', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    expect(await listensOn(process.pid, port)).toBe(true);
    await new Promise((resolve) => server.close(resolve));
    expect(await listensOn(process.pid, port)).toBe(false);
  });
});
