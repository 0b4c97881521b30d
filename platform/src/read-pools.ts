import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import { createPool, isConnectionError, type Pool, type PoolOptions } from './db.ts';
import type { Logger } from './logger.ts';

/** One place reads can go: a streaming replica, or the primary when no replica answers. */
interface ReadSource {
  /** host:port/database, never the password. */
  name: string;
  pool: Pool;
  up: boolean;
  probe: NodeJS.Timeout | null;
}

export interface ReadPools {
  /**
   * The pool of the query routes: every call goes to the source pinned to the current request
   * (see `pin`), or, outside a request, to a source chosen for that call.
   */
  pool: Pool;
  /**
   * Express middleware: picks one source for the rest of the request (a replica that is up, in
   * turn; the primary when none is), so the read-your-writes gate and the read that follows it
   * ask the same server.
   */
  pin: (req: Request, res: Response, next: NextFunction) => void;
  /** The replicas and whether they take reads now. */
  status(): { name: string; up: boolean }[];
  /** Resolves once every replica has been asked once (reads go to the primary until then). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface ReadPoolOptions {
  logger?: Logger;
  /** How often a replica that failed with a connection error is asked again (ms). */
  probeMs?: number;
  /** How the replicas' connections talk to PostgreSQL (createPool). */
  connections?: PoolOptions;
}

/** host:port/database of a connection URL, for logs. */
export function describeDatabaseUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

/**
 * Pools over streaming replicas (READ_DATABASE_URL) for the query routes; writes, sessions,
 * projections and jobs keep the primary's pool. Each URL must reach one server (a replica's own
 * address, or a proxy port in front of one node): checkpoints and the read models of one request
 * are read on one server, which is what read-your-writes needs.
 *
 * A replica takes reads once a probe (`SELECT 1`) has answered: at start, and again every
 * `probeMs` after one of its queries or connections failed with a connection error; while no
 * replica is up, reads go to the primary. The request that met the error is answered 503 by the
 * problem handler.
 */
export function createReadPools(
  urls: string[],
  primary: Pool,
  max: number,
  options: ReadPoolOptions = {},
): ReadPools {
  return readPoolsOver(
    urls.map((url) => ({
      name: describeDatabaseUrl(url),
      pool: createPool(url, max, options.connections),
    })),
    primary,
    options,
  );
}

/** createReadPools over pools made elsewhere (tests). */
export function readPoolsOver(
  replicas: { name: string; pool: Pool }[],
  primary: Pool,
  options: ReadPoolOptions = {},
): ReadPools {
  const probeMs = options.probeMs ?? 1000;
  const sources: ReadSource[] = replicas.map((r) => ({ ...r, up: false, probe: null }));
  const primarySource: ReadSource = { name: 'primary', pool: primary, up: true, probe: null };
  const pinned = new AsyncLocalStorage<ReadSource>();
  let turn = 0;

  const choose = (): ReadSource => {
    for (let i = 0; i < sources.length; i++) {
      const source = sources[turn++ % sources.length]!;
      if (source.up) return source;
    }
    return primarySource;
  };

  /** Asks a replica until it answers, then gives it reads again; the first try settles `asked`. */
  const probe = (source: ReadSource): Promise<void> =>
    new Promise((asked) => {
      let probing = false;
      let failures = 0;
      const ask = () => {
        if (probing) return;
        probing = true;
        source.pool.query('SELECT 1').then(
          () => {
            probing = false;
            if (source.probe) clearInterval(source.probe);
            source.probe = null;
            source.up = true;
            options.logger?.info({ replica: source.name }, 'replica takes reads');
            asked();
          },
          (err: unknown) => {
            probing = false;
            // Once per outage, not every probe.
            if (failures++ === 0)
              options.logger?.warn(
                { replica: source.name, err: String(err) },
                'replica not available; reads go elsewhere until it answers',
              );
            asked();
          },
        );
      };
      source.probe = setInterval(ask, probeMs);
      source.probe.unref();
      ask();
    });

  const markDown = (source: ReadSource) => {
    if (source === primarySource || !source.up) return;
    source.up = false;
    void probe(source);
  };

  const firstProbes = Promise.all(sources.map(probe)).then(() => undefined);

  const pool = new Proxy(primary, {
    get(_target, prop) {
      const source = pinned.getStore() ?? choose();
      const target = source.pool;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop !== 'query' && prop !== 'connect')
        return (value as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        const result: unknown = Reflect.apply(value, target, args);
        if (result instanceof Promise) {
          result.catch((err: unknown) => {
            if (isConnectionError(err)) markDown(source);
          });
        }
        return result;
      };
    },
  });

  return {
    pool,
    pin: (_req, _res, next) => pinned.run(choose(), next),
    status: () => sources.map((s) => ({ name: s.name, up: s.up })),
    ready: () => firstProbes,
    close: async () => {
      for (const s of sources) if (s.probe) clearInterval(s.probe);
      await Promise.all(sources.map((s) => s.pool.end().catch(() => undefined)));
    },
  };
}
