import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, listensOn } from './ports.ts';
import { budget } from './time-budget.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface ServiceProcess {
  role: string;
  url: string;
  /** The port it listens on: the one asked for, or the free one it was started on. */
  port: number;
  child: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface SpawnOptions {
  /** The checkout or release folder to run (default: this checkout). */
  root?: string;
  /**
   * Runs the compiled release (server/dist, `npm run build:server`) instead of the sources. By
   * default this checkout's compiled release when tests/run-all.mjs found it current.
   */
  compiled?: boolean;
  /** A program the service runs under, e.g. ['ip', 'netns', 'exec', 'rr-a']. */
  prefix?: string[];
  /** The port to listen on (default: a free one). */
  port?: number;
  /**
   * The address it is reached at (default 127.0.0.1): a machine's of a test network
   * (tests/support/machines.ts), with `prefix` running it there; it listens on every address.
   */
  host?: string;
  /** Runs as this user (the tests run as root; the image as `node`). */
  uid?: number;
  gid?: number;
}

/**
 * The process groups of the services still running under a prefix program (a group of their
 * own, see spawnService, which a Ctrl-C in the terminal does not reach): they end with this
 * process when it exits.
 */
const running = new Set<number>();
process.once('exit', () => {
  for (const group of running) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // ended already
    }
  }
});

/**
 * Compiles the server (`npm run build:server`) when its output is older than the sources, as
 * tests/run-all.mjs does before a full run: for a `compiled` spawn outside of it. Throws with the
 * build's output when it fails.
 */
export function ensureCompiledServer(): void {
  const build = spawnSync(
    process.execPath,
    ['-e', "import('./scripts/build-server.mjs').then((m) => m.ensureServerBuilt())"],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] },
  );
  if (build.status !== 0) throw new Error(`compiling the server failed:\n${build.stderr}`);
}

/**
 * Node's arguments that start the product in `dir`: its compiled release, or its sources through
 * tsx. The compiled one by default where tests/run-all.mjs found this checkout's compiled release
 * current (RR_COMPILED_SERVER=1: server/dist newer than every source).
 */
export function productEntry(
  dir = root,
  compiled = dir === root && process.env.RR_COMPILED_SERVER === '1',
): string[] {
  return compiled
    ? ['--conditions=rr-compiled', path.join(dir, 'server', 'dist', 'src', 'main.js')]
    : ['--import', 'tsx', path.join(dir, 'server', 'src', 'main.ts')];
}

/** A service's settings, or settings that name its port (its public address, a folder of its own). */
export type ServiceEnv = Record<string, string> | ((port: number) => Record<string, string>);

/**
 * Starts one process of the product (server/src/main.ts) in a role, and waits until it answers.
 * On a port of its choosing it starts again on another when another process answers there.
 */
export async function spawnService(
  role: string,
  env: ServiceEnv,
  options: SpawnOptions = {},
  attempt = 1,
): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const settings = typeof env === 'function' ? env(port) : env;
  let out = '';
  const dir = options.root ?? root;
  const entry = productEntry(dir, options.compiled);
  const node = [
    // Extra node flags for the service, e.g. RR_NODE_ARGS=--cpu-prof to profile a benchmark's server.
    ...(process.env.RR_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...entry,
  ];
  const prefixed = options.prefix !== undefined;
  // On a port of its choosing, the service must be the one answering (listensOn); under a
  // prefix program it is that program's child, and perhaps in another network namespace.
  const chosen = options.port === undefined && !prefixed;
  const [command, ...args] = options.prefix
    ? [...options.prefix, process.execPath, ...node]
    : [process.execPath, ...node];
  const child = spawn(command!, args, {
    cwd: dir,
    // Under a prefix program a group of its own, so a signal reaches the server too: a program
    // that forks the server and waits for it may not pass signals on. Without one the service
    // stays in this process's group, and a Ctrl-C in the terminal ends it with the tests.
    detached: prefixed,
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
    env: {
      ...process.env,
      SERVICE_ROLE: role,
      PORT: String(port),
      HOST: options.host === undefined ? '127.0.0.1' : '0.0.0.0',
      LOG_LEVEL: 'warn',
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (prefixed && child.pid !== undefined) {
    const group = child.pid;
    running.add(group);
    child.once('exit', () => running.delete(group));
  }
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (prefixed) process.kill(-child.pid!, signal);
      else child.kill(signal);
    } catch {
      // the group has ended already
    }
  };
  if (role !== 'projector') {
    // A start compiles the sources with tsx first: minutes on a loaded 2-core machine.
    const deadline = Date.now() + budget(60_000);
    for (;;) {
      if (child.exitCode !== null) {
        signalGroup('SIGKILL');
        // Another process took the port between freePort and the listen.
        if (chosen && attempt < 3 && out.includes('EADDRINUSE'))
          return spawnService(role, env, options, attempt + 1);
        throw new Error(`${role} exited early:\n${out}`);
      }
      try {
        if ((await fetch(`${url}/api/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        signalGroup('SIGKILL');
        throw new Error(`${role} did not start:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    if (chosen && !(await listensOn(child.pid!, port))) {
      signalGroup('SIGKILL');
      if (attempt === 3) throw new Error(`${role}: another process answers on port ${port}`);
      // Settings named after the port (a data folder) may be the other process's: left to it.
      return spawnService(role, env, options, attempt + 1);
    }
  }
  return {
    role,
    url,
    port,
    child,
    output: () => out,
    kill: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      signalGroup(signal);
      await exited;
    },
  };
}
