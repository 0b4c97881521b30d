import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Machines on one network, for a topology test that runs a compose file's services under their
 * own host names without a Docker engine: each machine is a Linux network namespace with its own
 * address on one bridge, and its own `/etc/hosts` naming every machine (`ip netns exec` binds
 * `/etc/netns/<namespace>/hosts` over `/etc/hosts`, as Docker's network names the containers).
 * A command run on a machine gets a private mount namespace too (`ip netns exec` makes one), so
 * it may mount its own `/tmp` or data folder without touching the host. Killing a machine kills
 * every process in its namespace; cutting it takes its link down (a network partition).
 * Needs root and iproute2 (`ip`).
 */

export interface Machine {
  name: string;
  /** Further names the other machines know it by (a compose service's name for its replicas). */
  aliases: string[];
  /** The network namespace's name. */
  ns: string;
  ip: string;
  /** The host's end of the machine's link (on the bridge). */
  link: string;
}

export interface Network {
  machines: Map<string, Machine>;
  /** The machines a host name resolves to on the network (by name or alias). */
  resolve(hostname: string): Machine[];
  /** The machine of a name (throws for an unknown one). */
  machine(name: string): Machine;
  /** Runs a command on a machine; its output goes to `log` (a file, appended). */
  run(
    name: string,
    command: string[],
    options: { env: Record<string, string>; log: string; cwd?: string },
  ): ChildProcess;
  /** kill -9 of every process on the machine (its power cut). */
  kill(name: string): void;
  /** Takes the machine's link down (no packet in or out) or up again. */
  cut(name: string): void;
  heal(name: string): void;
  stop(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] });

/** A /24 of 10.231.x.0 that no route of the host uses yet. */
function freeSubnet(): string {
  const routes = ip('route').toString();
  for (let i = 0; i < 50; i++) {
    const subnet = `10.231.${Math.floor(Math.random() * 250) + 1}`;
    if (!routes.includes(`${subnet}.`)) return subnet;
  }
  throw new Error('no free 10.231.x.0/24 subnet for the test network');
}

/**
 * Creates a bridge and one namespace per machine, each naming all of them (names and aliases) in
 * its hosts file.
 */
export function createNetwork(specs: { name: string; aliases?: string[] }[]): Network {
  if (process.getuid?.() !== 0)
    throw new Error('The machines of a topology test are network namespaces: run the test as root');
  if (specs.length > 200) throw new Error('at most 200 machines');
  const tag = randomBytes(2).toString('hex');
  const bridge = `rrc${tag}`;
  const subnet = freeSubnet();
  const hostIp = `${subnet}.1`;
  const machines = new Map<string, Machine>(
    specs.map(({ name, aliases = [] }, i) => [
      name,
      {
        name,
        aliases,
        ns: `rrc${tag}-${name}`,
        ip: `${subnet}.${i + 2}`,
        link: `rrc${tag}v${i}`,
      },
    ]),
  );
  const hosts =
    [
      '127.0.0.1 localhost',
      ...[...machines.values()].map((m) => [m.ip, m.name, ...m.aliases].join(' ')),
    ].join('\n') + '\n';

  const stop = () => {
    for (const m of machines.values()) {
      try {
        killAll(m);
        ip('netns', 'del', m.ns);
      } catch {
        // not there
      }
      rmSync(`/etc/netns/${m.ns}`, { recursive: true, force: true });
    }
    try {
      ip('link', 'del', bridge);
    } catch {
      // not there
    }
  };
  const killAll = (m: Machine) => {
    let pids: number[] = [];
    try {
      pids = ip('netns', 'pids', m.ns).toString().split('\n').filter(Boolean).map(Number);
    } catch {
      return;
    }
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  };
  process.once('exit', stop);

  try {
    ip('link', 'add', bridge, 'type', 'bridge');
    ip('addr', 'add', `${hostIp}/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    for (const m of machines.values()) {
      ip('netns', 'add', m.ns);
      ip('link', 'add', m.link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', m.ns);
      ip('link', 'set', m.link, 'master', bridge, 'up');
      ip('-n', m.ns, 'addr', 'add', `${m.ip}/24`, 'dev', 'eth0');
      ip('-n', m.ns, 'link', 'set', 'eth0', 'up');
      ip('-n', m.ns, 'link', 'set', 'lo', 'up');
      mkdirSync(`/etc/netns/${m.ns}`, { recursive: true });
      writeFileSync(`/etc/netns/${m.ns}/hosts`, hosts);
    }
  } catch (err) {
    stop();
    throw err;
  }

  const machine = (name: string): Machine => {
    const m = machines.get(name);
    if (!m) throw new Error(`no machine ${name}`);
    return m;
  };
  return {
    machines,
    resolve: (hostname) =>
      [...machines.values()].filter((m) => m.name === hostname || m.aliases.includes(hostname)),
    machine,
    run: (name, command, { env, log, cwd }) => {
      const out = openSync(log, 'a');
      const child = spawn('ip', ['netns', 'exec', machine(name).ns, ...command], {
        cwd,
        env,
        stdio: ['ignore', out, out],
      });
      closeSync(out);
      child.on('error', () => undefined);
      return child;
    },
    kill: (name) => killAll(machine(name)),
    cut: (name) => void ip('link', 'set', machine(name).link, 'down'),
    heal: (name) => void ip('link', 'set', machine(name).link, 'up'),
    stop: () => {
      process.removeListener('exit', stop);
      stop();
    },
  };
}
