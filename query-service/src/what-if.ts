import { Worker } from 'node:worker_threads';
import { WhatIfInput as WhatIfContract } from '@rr/contracts';
import {
  initialRoomState,
  totalOf,
  type RoomState,
  type SlotEvent,
  type SlotOutcome,
  type WhatIfChange,
  type WhatIfHistory,
} from '@rr/domain';
import {
  timeSlotStreamId,
  transactionStreamId,
  visitorStreamId,
  type TransactionEvent,
  type VisitorEvent,
} from '@rr/events';
import {
  cartKeyOf,
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

/** A stream id's kind and id: `timeslot-<id>`, `transaction-<id>`, `visitor-<key>`. */
function splitStreamId(streamId: string): [string, string] {
  const dash = streamId.indexOf('-');
  return [streamId.slice(0, dash), streamId.slice(dash + 1)];
}

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
    const slotStreams = ids.map(timeSlotStreamId);
    // A changed limit per visitor and day needs who asked: the carts that held the slots' seats
    // (their streams: what else they held, whether and by which visitor key they were booked) and
    // those visitors' streams (their other bookings). Keys only, no personal data.
    const cartIds = q.change.maxTicketsPerDay === undefined ? [] : await cartsOf(slotStreams);
    const cartStreams = cartIds.map(transactionStreamId);
    const visitorStreams = (await visitorsOf(cartStreams)).map(visitorStreamId);
    const streams = [...slotStreams, ...cartStreams, ...visitorStreams];
    const count = await deps.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM events WHERE stream_id = ANY($1::text[])',
      [streams],
    );
    if (Number(count.rows[0]!.n) > deps.whatIfMaxEvents) throw tooLarge(deps.whatIfMaxEvents);
    const [events, refusals] = await Promise.all([
      deps.store.readStreams(streams),
      deps.pool.query<{ id: string; at: Date; cart_key: string }>(
        `SELECT time_slot_id AS id, first_refused_at AS at, cart_key FROM cart_refusals
          WHERE time_slot_id = ANY($1::uuid[]) AND rule = 'timeslot_no_tickets_left'`,
        [ids],
      ),
    ]);
    const history: WhatIfHistory = { slotIds: ids, log: [], refusals: [] };
    // In commit order (readStreams): the replay decides each request on what came before it.
    for (const e of events) {
      const [stream, id] = splitStreamId(e.streamId);
      const when = at(e.createdAt);
      // The streams' events, as the catalogue validated them on append.
      if (stream === 'timeslot') {
        const actor = e.metadata.actor.kind;
        history.log.push({
          stream: 'slot',
          timeSlotId: id,
          event: { type: e.type, data: e.data } as SlotEvent,
          at: when,
          byStaff: actor === 'admin' || actor === 'api-token',
        });
      } else if (stream === 'transaction')
        history.log.push({
          stream: 'cart',
          cartId: id,
          event: { type: e.type, data: e.data } as TransactionEvent,
          at: when,
        });
      else if (stream === 'visitor')
        history.log.push({
          stream: 'visitor',
          visitorKey: id,
          event: { type: e.type, data: e.data } as VisitorEvent,
          at: when,
        });
    }
    // A refused cart is known by the hash of its id: the carts read are matched by theirs.
    const cartOfKey = new Map(cartIds.map((id) => [cartKeyOf(id), id]));
    for (const r of refusals.rows)
      history.refusals.push({ timeSlotId: r.id, at: at(r.at), cartId: cartOfKey.get(r.cart_key) });
    const change: WhatIfChange = {
      capacity: q.change.capacity,
      cartHoldMinutes: q.change.cartHoldMinutes,
      maxTicketsPerDay: q.change.maxTicketsPerDay,
    };
    const outcomes = await replayOffThread({ history, room, limits: deps.limits, change });
    return {
      actual: totalOf(outcomes, 'actual'),
      whatIf: totalOf(outcomes, 'whatIf'),
      slots: outcomes,
    };
  }

  /** The carts that held a seat of the slots (staff's and taken offers' included). */
  async function cartsOf(slotStreams: string[]): Promise<string[]> {
    const r = await deps.pool.query<{ id: string }>(
      `SELECT DISTINCT data->>'transactionId' AS id FROM events
        WHERE stream_id = ANY($1::text[]) AND event_type = 'TicketHeld'`,
      [slotStreams],
    );
    return r.rows.map((row) => row.id);
  }

  /** The visitor keys the carts were booked under. */
  async function visitorsOf(cartStreams: string[]): Promise<string[]> {
    if (cartStreams.length === 0) return [];
    const r = await deps.pool.query<{ key: string }>(
      `SELECT DISTINCT data->>'visitorKey' AS key FROM events
        WHERE stream_id = ANY($1::text[]) AND event_type = 'TransactionBooked'`,
      [cartStreams],
    );
    return r.rows.map((row) => row.key);
  }

  return [
    defineRoute({
      method: 'post',
      path: '/admin/insights/what-if',
      summary:
        "Replays a room's recorded demand over a period under other rules (capacity, cart hold time, tickets per visitor and day): served, refused and waitlisted, actual and what-if",
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
