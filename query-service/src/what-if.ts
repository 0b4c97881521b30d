import { Worker } from 'node:worker_threads';
import { WhatIfInput as WhatIfContract } from '@rr/contracts';
import {
  initialRoomState,
  totalOf,
  type RoomState,
  type SlotEvent,
  type SlotOutcome,
  type WhatIfChange,
  type WhatIfSlot,
} from '@rr/domain';
import {
  defineRoute,
  fromContract,
  localDateTime,
  Problem,
  problems,
  z,
  type RouteDef,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import type { WhatIfAnswer, WhatIfWork } from './what-if-worker.ts';

/**
 * The what-if replay of the insights (docs/product.md#insights): a room's recorded demand over a
 * period, read from its slots' streams and the refused requests, replayed under changed rules
 * in a worker thread (the event loop never runs it), one replay at a time per process, with a
 * cap on the events read (WHAT_IF_MAX_EVENTS: `insights__replay_too_large`, 400) and a time
 * and memory limit on the worker.
 */

const Body = fromContract(WhatIfContract).safeExtend({ roomId: z.uuid('Not a valid id') });

const outcome = z.object({ served: z.number(), refused: z.number(), waitlisted: z.number() });
const whatIfSchema = z
  .object({
    actual: outcome,
    whatIf: outcome,
    slots: z.array(
      z.object({
        timeSlotId: z.uuid(),
        date: z.string(),
        startTime: z.string(),
        actual: outcome,
        whatIf: outcome,
      }),
    ),
  })
  .openapi('WhatIf');

const WORKER_TIMEOUT_MS = 30_000;
const WORKER_HEAP_MB = 256;

/** The compiled release (`npm run build:server`) runs JavaScript and has no tsx. */
const COMPILED = import.meta.url.endsWith('.js');
const WORKER_URL = new URL(
  COMPILED ? './what-if-worker.js' : './what-if-worker.ts',
  import.meta.url,
).href;
/** Registers tsx's loader when running from source, then imports the worker module. */
const BOOTSTRAP = COMPILED
  ? `import(${JSON.stringify(WORKER_URL)});`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL)}); });`;

let queue: Promise<void> = Promise.resolve();

function replayOffThread(work: WhatIfWork): Promise<SlotOutcome[]> {
  const turn = queue.then(() => replayInWorker(work));
  queue = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

function replayInWorker(work: WhatIfWork): Promise<SlotOutcome[]> {
  return new Promise<SlotOutcome[]>((resolve, reject) => {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      execArgv: COMPILED ? ['--conditions=rr-compiled'] : [],
      workerData: work,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(tooLarge(null))), WORKER_TIMEOUT_MS);
    worker.on('message', (answer: WhatIfAnswer) =>
      settle(() => (answer.ok ? resolve(answer.slots) : reject(new Error(answer.error)))),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooLarge(null) : err)),
    );
    worker.on('exit', () => settle(() => reject(new Error('the what-if replay stopped'))));
  });
}

const tooLarge = (limit: number | null) =>
  new Problem(
    400,
    'insights__replay_too_large',
    limit === null
      ? 'The replay takes too long or too much memory: choose a shorter period'
      : `The period's slots have more than ${limit} events to replay: choose a shorter period`,
    limit === null ? [] : [String(limit)],
  );

/** The room's services as the replay needs them (its waitlist); nothing else of the room counts. */
async function roomOf(deps: QueryDeps, roomId: string): Promise<RoomState> {
  const r = await deps.pool.query<{ services: RoomState['services'] | null }>(
    'SELECT services FROM rm_rooms WHERE id = $1',
    [roomId],
  );
  if (!r.rows[0]) throw problems.notFound('Room');
  return {
    ...initialRoomState,
    status: 'active',
    services: { ...initialRoomState.services, ...(r.rows[0].services ?? {}) },
  };
}

export function whatIfRoutes(deps: QueryDeps): RouteDef[] {
  const at = (now: Date) => {
    const { date, time } = localDateTime(now, deps.timeZone);
    return { now, today: date, time };
  };

  async function whatIf(q: z.output<typeof Body>) {
    const room = await roomOf(deps, q.roomId);
    const ids = (
      await deps.pool.query<{ id: string }>(
        `SELECT time_slot_id AS id FROM rm_insight_slots
          WHERE room_id = $1 AND date BETWEEN $2::date AND $3::date ORDER BY date, start_min`,
        [q.roomId, q.fromDate, q.untilDate],
      )
    ).rows.map((r) => r.id);
    const streams = ids.map((id) => `timeslot-${id}`);
    const count = await deps.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM events WHERE stream_id = ANY($1::text[])',
      [streams],
    );
    if (Number(count.rows[0]!.n) > deps.whatIfMaxEvents) throw tooLarge(deps.whatIfMaxEvents);
    const [events, refusals] = await Promise.all([
      deps.store.readStreams(streams),
      deps.pool.query<{ id: string; at: Date }>(
        `SELECT time_slot_id AS id, first_refused_at AS at FROM cart_refusals
          WHERE time_slot_id = ANY($1::uuid[]) AND rule = 'timeslot_no_tickets_left'`,
        [ids],
      ),
    ]);
    const slots = new Map<string, WhatIfSlot>(
      ids.map((id) => [id, { timeSlotId: id, events: [], refusals: [] }]),
    );
    for (const e of [...events].sort((a, b) => a.streamVersion - b.streamVersion)) {
      const slot = slots.get(e.streamId.slice('timeslot-'.length));
      if (!slot) continue;
      const actor = e.metadata.actor.kind;
      slot.events.push({
        // The slot stream's events, as the catalogue validated them on append.
        event: { type: e.type, data: e.data } as SlotEvent,
        at: at(e.createdAt),
        byStaff: actor === 'admin' || actor === 'api-token',
      });
    }
    for (const r of refusals.rows) slots.get(r.id)?.refusals.push(at(r.at));
    const change: WhatIfChange = {
      capacity: q.change.capacity,
      cartHoldMinutes: q.change.cartHoldMinutes,
    };
    const outcomes = await replayOffThread({
      slots: [...slots.values()],
      room,
      limits: deps.limits,
      change,
    });
    return {
      actual: totalOf(outcomes, 'actual'),
      whatIf: totalOf(outcomes, 'whatIf'),
      slots: outcomes,
    };
  }

  return [
    defineRoute({
      method: 'post',
      path: '/admin/insights/what-if',
      summary:
        "Replays a room's recorded demand over a period under other rules (capacity, cart hold time): served, refused and waitlisted, actual and what-if",
      tags: ['reports'],
      access: ['admin', 'reports'],
      body: Body,
      responses: {
        200: { description: 'The replay', schema: whatIfSchema },
        400: { description: 'validation__error, insights__replay_too_large' },
        404: { description: 'No such room' },
      },
      handler: async ({ body }) => ({ body: await whatIf(body) }),
    }),
  ];
}
