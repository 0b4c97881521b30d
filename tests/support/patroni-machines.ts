import type { ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { httpStatus, postgresIds } from './ha-cluster.ts';
import type { Network } from './machines.ts';

/**
 * The `ha` profile's database parts (deploy/ha/) on machines of a test network
 * (tests/support/machines.ts), as their images run them: Patroni as `postgres` with
 * deploy/ha/patroni.yml, and HAProxy with deploy/ha/haproxy.cfg. Shared by the compose profile's
 * test and the two hosts of tests/support/two-hosts.ts.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
export const PATRONI_CONFIG = path.join(root, 'deploy', 'ha', 'patroni.yml');
export const DATABASE_HAPROXY_CONFIG = path.join(root, 'deploy', 'ha', 'haproxy.cfg');

/** What a node's Patroni REST API (port 8008 of deploy/ha/patroni.yml) says of it. */
export async function patroniRoleAt(ip: string): Promise<'primary' | 'replica' | 'sync' | 'down'> {
  const base = `http://${ip}:8008`;
  if ((await httpStatus(`${base}/primary`)) === 200) return 'primary';
  if ((await httpStatus(`${base}/sync`)) === 200) return 'sync';
  if ((await httpStatus(`${base}/replica`)) === 200) return 'replica';
  return 'down';
}

/**
 * A node's home (the volume the image mounts on /var/lib/postgresql): its data folder and its
 * Patroni configuration (`config`, the text of deploy/ha/patroni.yml or a variant), owned by
 * `postgres`.
 */
export function preparePatroniHome(home: string, config: string): void {
  const { uid, gid } = postgresIds();
  mkdirSync(path.join(home, 'data'), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(home, 'patroni.yml'), config);
  chmodSync(path.join(home, 'patroni.yml'), 0o600);
  for (const p of [home, path.join(home, 'data'), path.join(home, 'patroni.yml')])
    chownSync(p, uid, gid);
}

/**
 * Starts Patroni on a machine as its image does: the home bind-mounted on /var/lib/postgresql,
 * a /tmp (the file's pgpass) and socket folder of its own, then Patroni as postgres in that home
 * (the test's own folder may lie under the /tmp just hidden, where Patroni's initdb could not
 * start). `env`: the service's PATRONI_* variables.
 */
export function startPatroniOn(
  network: Network,
  machine: string,
  home: string,
  env: Record<string, string>,
  log: string,
): ChildProcess {
  return network.run(
    machine,
    [
      'sh',
      '-c',
      `set -e
       mount --bind "$1" /var/lib/postgresql
       mount -t tmpfs -o mode=1777 tmpfs /tmp
       mount -t tmpfs -o mode=2775,uid=$(id -u postgres),gid=$(id -g postgres) tmpfs /var/run/postgresql
       cd /var/lib/postgresql
       exec setpriv --reuid=postgres --regid=postgres --init-groups \\
         env HOME=/var/lib/postgresql /usr/bin/patroni /var/lib/postgresql/patroni.yml`,
      'patroni',
      home,
    ],
    { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env }, log },
  );
}

/**
 * deploy/ha/haproxy.cfg without its `resolvers docker`: Docker's DNS at 127.0.0.11 exists only in
 * a Docker network; a machine's hosts file names the nodes instead.
 */
export function databaseHaproxyConfig(file = DATABASE_HAPROXY_CONFIG): string {
  return readFileSync(file, 'utf8')
    .replace(/^resolvers docker\n(?:\s+.*\n)*/m, '')
    .replace(/ resolvers docker/g, '');
}
