import type { Request, Response, NextFunction, Router } from 'express';
import client from 'prom-client';
import { isConnectionError, type Pool } from '@rr/platform';
import type { CommitGroupCounts, EventStore } from '@rr/events';
import { commitGroupCounts } from '@rr/command-service';
import type { Release } from './release.ts';

/**
 * Operations endpoints: /api/readyz (database reachable, read models not lagging behind the log)
 * and /api/metrics (Prometheus: request latency, commands by outcome, projection lag, outbox backlog,
 * and the release: rr_build_info{version, commit} 1).
 */
export function mountOps(
  api: Router,
  pool: Pool,
  projections: string[],
  maxLag: number,
  release: Release,
  live?: {
    readonly streams: number;
    readonly watchedMonths: number;
    readonly polls: number;
    readonly refreshes: number;
    readonly monthsRead: number;
  },
  /** The store whose commands' commits are shared (events/src/commit-group.ts), for its counts. */
  store?: EventStore,
): { observe: (req: Request, res: Response, next: NextFunction) => void } {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const latency = new client.Histogram({
    name: 'rr_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status class',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new client.Gauge({
    name: 'rr_build_info',
    help: 'The release this process runs (always 1)',
    labelNames: ['version', 'commit'] as const,
    registers: [registry],
  }).set({ version: release.version, commit: release.commit }, 1);
  const commands = new client.Counter({
    name: 'rr_commands_total',
    help: 'State-changing requests by outcome (ok, refused, error)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lag = async () => {
    const r = await pool.query<{ name: string; lag: string }>(
      `SELECT c.name, (SELECT count(*) FROM events e WHERE (e.transaction_id, e.global_position) > (c.last_tx, c.last_gp))::text AS lag
         FROM projection_checkpoints c WHERE c.name = ANY($1)`,
      [projections],
    );
    return r.rows.map((x) => ({ name: x.name, lag: Number(x.lag) }));
  };
  new client.Gauge({
    name: 'rr_projection_lag_events',
    help: 'Events in the log not yet applied by each projection',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const p of await lag()) this.set({ projection: p.name }, p.lag);
    },
  });
  new client.Gauge({
    name: 'rr_mail_outbox_backlog',
    help: 'Mails waiting to be sent',
    registers: [registry],
    async collect() {
      const r = await pool.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM mail_outbox WHERE status = 'pending'`,
      );
      this.set(Number(r.rows[0]!.n));
    },
  });

  if (live) {
    new client.Gauge({
      name: 'rr_live_availability_streams',
      help: 'Open event streams of live availability',
      registers: [registry],
      collect() {
        this.set(live.streams);
      },
    });
    new client.Gauge({
      name: 'rr_live_availability_watched_months',
      help: "Rooms' months at least one open stream watches (the watcher reads only these)",
      registers: [registry],
      collect() {
        this.set(live.watchedMonths);
      },
    });
    const counters = [
      ['polls', 'Looks of the watcher where the read models stand (none while nobody watches)'],
      ['refreshes', 'Times the read models had moved and the watched months were read'],
      ['months_read', 'Watched months read in those times (a month nobody watches is not read)'],
    ] as const;
    for (const [name, help] of counters)
      new client.Counter({
        name: `rr_live_availability_${name}_total`,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(name === 'months_read' ? live.monthsRead : live[name]);
        },
      });
  }

  if (store) registerCommitGroupMetrics(registry, () => commitGroupCounts(store));

  api.get('/readyz', async (_req, res, next) => {
    try {
      const lags = await lag();
      const behind = lags.filter((p) => p.lag > maxLag);
      const ready = lags.length === projections.length && behind.length === 0;
      res
        .status(ready ? 200 : 503)
        .json({ status: ready ? 'ready' : 'catching-up', projections: lags });
    } catch (err) {
      if (isConnectionError(err)) {
        res.status(503).json({ status: 'database-unavailable' });
        return;
      }
      next(err);
    }
  });
  api.get('/metrics', async (_req, res, next) => {
    try {
      res.setHeader('Content-Type', registry.contentType);
      res.send(await registry.metrics());
    } catch (err) {
      next(err);
    }
  });

  return {
    observe: (req, res, next) => {
      const end = latency.startTimer();
      res.on('finish', () => {
        const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
        end({
          method: req.method,
          route: `${req.baseUrl}${route}`,
          status: `${Math.floor(res.statusCode / 100)}xx`,
        });
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          commands.inc({
            outcome: res.statusCode < 400 ? 'ok' : res.statusCode < 500 ? 'refused' : 'error',
          });
        }
      });
      next();
    },
  };
}

/** The commit groups' counters (events/src/commit-group.ts), read when scraped. */
function registerCommitGroupMetrics(
  registry: client.Registry,
  counts: () => CommitGroupCounts,
): void {
  const counters = [
    ['groups', 'Commit groups: two or more commands committed in one transaction'],
    ['grouped', 'Commands committed in commit groups'],
    ['alone', 'Commands of the grouping kind that committed alone'],
    ['busy', 'Commands that left a commit group for a stream another writer held'],
    ['fallbacks', 'Commit groups rolled back by a failed statement, their commands run alone'],
  ] as const;
  for (const [name, help] of counters)
    new client.Counter({
      name: name === 'groups' ? 'rr_commit_groups_total' : `rr_commit_group_${name}_total`,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(counts()[name]);
      },
    });
}
