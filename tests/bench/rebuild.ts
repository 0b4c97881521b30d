/**
 * Rebuild of every read model from a large log against a raw read of that log (`npm run bench:rebuild`).
 *
 * Starts its own embedded PostgreSQL (or uses DATABASE_URL), writes a realistic log of BENCH_EVENTS
 * (default 1,000,000) events with generate.ts (10 rooms, a year of slots), then measures:
 *   baseline  a raw sequential read of the whole events table from Node, keyset-paged in the
 *             rebuild's batch size, every column, JSON parsed (what any replay must at least do)
 *   rebuild   `rebuildReadModels`, the function `npm run rebuild` runs, with every read model and
 *             without the insights' two projections; with BENCH_REBUILD_AB each of its choices
 *             turned the other way (totals, indexes, build tables logged from the start) and batches of 10,000
 * Prints events per second and the ratio to the baseline, checks the rebuilt read models against
 * what was generated, and writes the figures to `bench-results.json` under the key `rebuild`.
 */
import { EventStore, validateEvent, type Projection } from '@rr/events';
import {
  readModelProjections,
  REBUILD_BATCH_SIZE,
  rebuildReadModels,
  type RebuildOptions,
} from '@rr/projections';
import { generateLog, type GeneratedLog } from './generate.ts';
import {
  positiveNumber,
  printTable,
  round,
  runMain,
  settle,
  withBenchDatabase,
  writeResults,
} from './lib.ts';
import type { Pool } from '@rr/platform';

const EVENTS = Math.round(positiveNumber('BENCH_EVENTS', 1_000_000));
const ROOMS = Math.round(positiveNumber('BENCH_ROOMS', 10));
const DAYS = Math.round(positiveNumber('BENCH_DAYS', 365));
const TARGET = 20_000;

/** Reads the whole log in commit order, `batch` rows at a time, as the rebuild pages it. */
async function rawRead(pool: Pool, batch: number): Promise<number> {
  const client = await pool.connect();
  try {
    let tx = '0';
    let gp = '0';
    let n = 0;
    for (;;) {
      const r = await client.query<{ tx: string; gp: string; data: unknown; metadata: unknown }>(
        `SELECT transaction_id::text AS tx, global_position::text AS gp, stream_id,
                stream_version::text AS stream_version, event_id, event_type, data, metadata, created_at
           FROM events
          WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
            AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          ORDER BY transaction_id, global_position LIMIT $3`,
        [tx, gp, batch],
      );
      if (r.rows.length === 0) return n;
      n += r.rows.length;
      const last = r.rows[r.rows.length - 1]!;
      tx = last.tx;
      gp = last.gp;
    }
  } finally {
    client.release();
  }
}

async function verify(pool: Pool, g: GeneratedLog): Promise<Record<string, unknown>> {
  const q = async <T>(sql: string) => (await pool.query<T & Record<string, unknown>>(sql)).rows;
  const failures: string[] = [];
  const check = (what: string, actual: unknown, expected: unknown) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      failures.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  };
  const statusCounts = async (table: string) =>
    Object.fromEntries(
      (
        await q<{ status: string; n: number }>(
          `SELECT status, count(*)::int AS n FROM ${table} GROUP BY status`,
        )
      ).map((r) => [r.status, r.n]),
    );
  const tickets = await statusCounts('rm_tickets');
  for (const [s, n] of Object.entries(g.ticketsByStatus))
    check(`rm_tickets ${s}`, tickets[s] ?? 0, n);
  const txs = await statusCounts('rm_transactions');
  for (const [s, n] of Object.entries(g.transactionsByStatus))
    check(`rm_transactions ${s}`, txs[s] ?? 0, n);
  const [slots] = await q<{ n: number; seats: number; capacity: number }>(
    'SELECT count(*)::int AS n, sum(ticket_count)::int AS seats, count(*) FILTER (WHERE ticket_count > capacity OR ticket_count < 0)::int AS capacity FROM rm_time_slots',
  );
  check('rm_time_slots rows', slots!.n, g.slots);
  check('rm_time_slots ticket_count sum', slots!.seats, g.seatsTaken);
  check('rm_time_slots over capacity or negative', slots!.capacity, 0);
  // Each slot's count agrees with its held and booked tickets (the two projections agree row by row).
  const [mismatch] = await q<{ n: number }>(
    `SELECT count(*)::int AS n FROM rm_time_slots s
       LEFT JOIN (SELECT time_slot_id, count(*)::int AS c FROM rm_tickets WHERE status IN ('NEW', 'BOOKED') GROUP BY 1) t
         ON t.time_slot_id = s.id
      WHERE s.ticket_count <> coalesce(t.c, 0)`,
  );
  check('slots whose ticket_count differs from their tickets', mismatch!.n, 0);
  const [booked] = await q<{ n: number; missing: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE owner_id IS NULL OR booking_number IS NULL OR booked_at IS NULL)::int AS missing
       FROM rm_tickets WHERE status IN ('BOOKED', 'CANCELLED')`,
  );
  check('booked tickets without owner, number or time', booked!.missing, 0);
  const [flags] = await q<{ n: number; erased: number }>(
    `SELECT count(*) FILTER (WHERE t.personal_data_erased = EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = t.owner_id))::int AS n,
            count(*) FILTER (WHERE t.personal_data_erased)::int AS erased
       FROM rm_tickets t WHERE t.owner_id IS NOT NULL`,
  );
  check('tickets whose personal_data_erased flag is wrong', flags!.n, 0);
  const [other] = await q<{ rooms: number; holidays: number; blacklist: number }>(
    'SELECT (SELECT count(*) FROM rm_rooms)::int AS rooms, (SELECT count(*) FROM rm_holidays)::int AS holidays, (SELECT count(*) FROM rm_blacklist)::int AS blacklist',
  );
  check('rm_rooms', other!.rooms, g.rooms.length);
  check('rm_holidays', other!.holidays, g.holidays);
  check('rm_blacklist', other!.blacklist, g.blacklistEntries);
  const [cp] = await q<{ n: number }>(
    `SELECT count(*)::int AS n FROM projection_checkpoints c
      WHERE (c.last_tx, c.last_gp) = (SELECT transaction_id, global_position FROM events ORDER BY 1 DESC, 2 DESC LIMIT 1)`,
  );
  check('checkpoints at the last event', cp!.n, readModelProjections.length);
  if (failures.length)
    throw new Error(`rebuilt read models are wrong:\n  ${failures.join('\n  ')}`);
  return {
    tickets,
    transactions: txs,
    slots: slots!.n,
    seatsTaken: slots!.seats,
    erasedTickets: flags!.erased,
  };
}

async function main(): Promise<void> {
  await withBenchDatabase({ poolSize: 12 }, async ({ pool, server }) => {
    console.log(
      `generating ${EVENTS.toLocaleString('en')} events (${ROOMS} rooms, ${DAYS} days) ...`,
    );
    const g = await generateLog(pool, { rooms: ROOMS, days: DAYS, events: EVENTS, erase: true });
    console.log(
      `log: ${g.events.toLocaleString('en')} events, ${g.streams.toLocaleString('en')} streams, ${g.slots.toLocaleString('en')} slots, ${g.tickets.toLocaleString('en')} tickets, ${g.bookings.toLocaleString('en')} bookings (${round(g.seconds, 1)} s)\n`,
    );
    const [{ n }] = (await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM events'))
      .rows as [{ n: string }];
    if (Number(n) !== g.events)
      throw new Error(`expected ${g.events} events in the table, found ${n}`);
    await settle(pool);
    const store = new EventStore(pool, { validate: validateEvent });

    // Warm the cache once (both runs then read from memory), then time each.
    await rawRead(pool, REBUILD_BATCH_SIZE);
    let t0 = performance.now();
    const read = await rawRead(pool, REBUILD_BATCH_SIZE);
    const baselineSeconds = (performance.now() - t0) / 1000;
    if (read !== g.events) throw new Error(`raw read saw ${read} events, expected ${g.events}`);

    t0 = performance.now();
    const rebuilt = await rebuildReadModels(pool, store, readModelProjections);
    const rebuildSeconds = (performance.now() - t0) / 1000;
    const checked = await verify(pool, g);
    // Optionally the way it was done before: each projection on its own pass, event by event.
    let perEvent: { seconds: number; perSecond: number } | null = null;
    if (process.env.BENCH_COMPARE_PER_EVENT) {
      t0 = performance.now();
      for (const p of readModelProjections) {
        const one: Projection = {
          name: p.name,
          tables: p.tables,
          handles: p.handles,
          apply: (client, event) => p.apply(client, event),
        };
        await rebuildReadModels(pool, store, [one], 2000);
      }
      const seconds = (performance.now() - t0) / 1000;
      perEvent = { seconds: round(seconds), perSecond: Math.round(g.events / seconds) };
      await verify(pool, g);
    }
    // Optionally the rebuild without one projection, in the same run: that projection's cost.
    const without = process.env.BENCH_COMPARE_WITHOUT;
    let withoutOne: { seconds: number; perSecond: number } | null = null;
    if (without) {
      const others = readModelProjections.filter((p) => p.name !== without);
      if (others.length === readModelProjections.length)
        throw new Error(`BENCH_COMPARE_WITHOUT: no projection ${without}`);
      t0 = performance.now();
      await rebuildReadModels(pool, store, others);
      const seconds = (performance.now() - t0) / 1000;
      withoutOne = { seconds: round(seconds), perSecond: Math.round(g.events / seconds) };
      // The left-out projection's tables stay as the full rebuild left them.
      await verify(pool, g);
    }
    // Always: the rebuild without the insights' two projections, in the same run.
    const insightNames = new Set(['insights', 'insight-lead', 'insight-seats']);
    t0 = performance.now();
    await rebuildReadModels(
      pool,
      store,
      readModelProjections.filter((p) => !insightNames.has(p.name)),
    );
    const noInsightsSeconds = (performance.now() - t0) / 1000;
    await verify(pool, g);
    // Optionally each choice of the rebuild turned the other way, in the same run (A/B).
    const variants: { what: string; seconds: number; perSecond: number }[] = [];
    if (process.env.BENCH_REBUILD_AB) {
      const choices: [string, RebuildOptions, number][] = [
        ['A/B: totals kept batch by batch', { totalsAfter: false }, REBUILD_BATCH_SIZE],
        ['A/B: every index made with the tables', { indexesAfter: false }, REBUILD_BATCH_SIZE],
        ['A/B: build tables logged from the start', { unlogged: false }, REBUILD_BATCH_SIZE],
        ['A/B: batches of 5,000 events', {}, 5_000],
      ];
      for (const [what, choice, size] of choices) {
        t0 = performance.now();
        await rebuildReadModels(pool, store, readModelProjections, size, choice);
        const seconds = (performance.now() - t0) / 1000;
        await verify(pool, g);
        variants.push({ what, seconds: round(seconds), perSecond: Math.round(g.events / seconds) });
        console.log(`${what}: ${round(seconds)} s`);
      }
    }
    console.log('read models verified against the generated log\n');

    const baselinePerSecond = g.events / baselineSeconds;
    const rebuildPerSecond = g.events / rebuildSeconds;
    printTable(
      ['scenario', 'events', 'seconds', 'events/s', 'ratio'],
      [
        [
          'baseline: raw read of the log',
          g.events,
          round(baselineSeconds),
          Math.round(baselinePerSecond),
          1,
        ],
        [
          'rebuild of all read models',
          g.events,
          round(rebuildSeconds),
          Math.round(rebuildPerSecond),
          round(rebuildPerSecond / baselinePerSecond, 3),
        ],
        [
          'rebuild without the insights',
          g.events,
          round(noInsightsSeconds),
          Math.round(g.events / noInsightsSeconds),
          round(g.events / noInsightsSeconds / baselinePerSecond, 3),
        ],
        ...variants.map((v) => [
          v.what,
          g.events,
          v.seconds,
          v.perSecond,
          round(v.perSecond / baselinePerSecond, 3),
        ]),
        ...(perEvent
          ? [
              [
                'before: per projection, per event',
                g.events,
                perEvent.seconds,
                perEvent.perSecond,
                round(perEvent.perSecond / baselinePerSecond, 3),
              ],
            ]
          : []),
        ...(withoutOne
          ? [
              [
                `rebuild without ${without}`,
                g.events,
                withoutOne.seconds,
                withoutOne.perSecond,
                round(withoutOne.perSecond / baselinePerSecond, 3),
              ],
            ]
          : []),
      ],
    );
    console.log(
      `\ntarget >= ${TARGET.toLocaleString('en')} events/s: ${rebuildPerSecond >= TARGET ? 'met' : 'NOT met'}`,
    );
    for (const p of rebuilt)
      console.log(
        `  ${p.name}: ${p.applied.toLocaleString('en')} of ${p.events.toLocaleString('en')} events applied in ${p.applyMs.toLocaleString('en')} ms`,
      );

    await writeResults('rebuild', {
      postgres: server,
      log: {
        events: g.events,
        streams: g.streams,
        rooms: g.rooms.length,
        days: DAYS,
        slots: g.slots,
        tickets: g.tickets,
        bookings: g.bookings,
        generateSeconds: round(g.seconds, 1),
      },
      batchSize: REBUILD_BATCH_SIZE,
      unit: 'events per second over the whole log',
      baseline: {
        what: 'raw keyset-paged read of the events table, JSON parsed',
        seconds: round(baselineSeconds),
        perSecond: Math.round(baselinePerSecond),
      },
      rebuild: {
        what: 'rebuildReadModels (npm run rebuild), every read model',
        seconds: round(rebuildSeconds),
        perSecond: Math.round(rebuildPerSecond),
        ratioToBaseline: round(rebuildPerSecond / baselinePerSecond, 3),
        target: TARGET,
        met: rebuildPerSecond >= TARGET,
        projections: rebuilt,
      },
      withoutInsights: {
        what: 'rebuildReadModels without insights and insight-lead',
        seconds: round(noInsightsSeconds),
        perSecond: Math.round(g.events / noInsightsSeconds),
        ratioToBaseline: round(g.events / noInsightsSeconds / baselinePerSecond, 3),
      },
      ...(variants.length ? { variants } : {}),
      verified: checked,
      ...(perEvent ? { beforePerEvent: perEvent } : {}),
      ...(withoutOne ? { without: { projection: without, ...withoutOne } } : {}),
    });
  });
}

runMain(main);
