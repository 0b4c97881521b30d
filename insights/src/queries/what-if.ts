import type { Response } from 'express';
import { WhatIfInput as WhatIfContract } from '@rr/contracts';
import {
  AdmissionLine,
  defineRoute,
  fromContract,
  Problem,
  problems,
  KeptThreads,
  ThreadStopped,
  workerModule,
  z,
  type RouteDef,
} from '@rr/platform';
import { totalOf, type SlotOutcome } from '../replay/what-if.ts';
import type { InsightsDeps } from '../deps.ts';
import type { WhatIfAnswer, WhatIfStats, WhatIfWork } from './what-if-worker.ts';

/**
 * The what-if replay of the insights (docs/product.md#insights): a room's recorded demand over a
 * period, read from its slots' streams and the refused requests, replayed under changed rules
 * in a worker thread that reads them itself, in batches (the event loop neither reads nor
 * replays them); WHAT_IF_CONCURRENCY replays at a time per process and WHAT_IF_QUEUE waiting
 * (beyond them `insights__replay_busy`, 503), a cap on the events read (WHAT_IF_MAX_EVENTS:
 * `insights__replay_too_large`, 400) and a time and memory limit on the worker.
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

/** A replay's heap: larger, it is stopped and refused (insights__replay_too_large), as a longer one. */
const WORKER_HEAP_MB = 256;

/** A thread per replay, ended after it: a replay of a long history leaves much of its heap behind. */
const replayers = new KeptThreads(workerModule(import.meta.url, './what-if-worker'), 0);

const tooLarge = (limit: number | null) =>
  new Problem(
    400,
    'insights__replay_too_large',
    limit === null
      ? 'The replay takes too long or too much memory: choose a shorter period'
      : `The period's slots have more than ${limit} events to replay: choose a shorter period`,
    limit === null ? [] : [String(limit)],
  );

/** The what-if request as the worker takes it. */
export type WhatIfRequest = Pick<WhatIfWork, 'roomId' | 'fromDate' | 'untilDate' | 'change'>;

/**
 * Runs one replay in a worker thread of its own, which reads the history itself (what-if-worker.ts):
 * this thread only waits. Answers the slots' outcomes and what the replay cost; refuses an
 * unknown room (404) and a history over the cap, too long or too large (400). `signal` stops the
 * worker (the client gave up).
 */
export async function replayInWorker(
  deps: Pick<InsightsDeps, 'whatIf' | 'limits' | 'timeZone'>,
  request: WhatIfRequest,
  signal?: AbortSignal,
): Promise<{ slots: SlotOutcome[]; stats: WhatIfStats }> {
  const work: WhatIfWork = {
    ...request,
    databaseUrl: deps.whatIf.databaseUrl,
    limits: deps.limits,
    timeZone: deps.timeZone,
    maxEvents: deps.whatIf.maxEvents,
    batchSize: deps.whatIf.batchSize,
    timeLimitMs: deps.whatIf.timeoutMs,
  };
  let answer: WhatIfAnswer;
  try {
    answer = await replayers.run<WhatIfAnswer>({
      message: work,
      timeoutMs: deps.whatIf.timeoutMs,
      heapMb: WORKER_HEAP_MB,
      signal,
    });
  } catch (err) {
    if (!(err instanceof ThreadStopped)) throw err;
    if (err.reason === 'aborted') throw new Error('the what-if replay was stopped');
    if (err.reason === 'time' || err.reason === 'memory') throw tooLarge(null);
    throw err.cause instanceof Error ? err.cause : new Error('the what-if replay stopped');
  }
  if (answer.kind === 'done') return { slots: answer.slots, stats: answer.stats };
  if (answer.kind === 'no-room') throw problems.notFound('Room');
  if (answer.kind === 'too-large') throw tooLarge(deps.whatIf.maxEvents);
  throw new Error(answer.error);
}

export function whatIfRoutes(deps: InsightsDeps): RouteDef[] {
  // At most WHAT_IF_CONCURRENCY replays run in the process, WHAT_IF_QUEUE wait for a turn; any
  // more is refused at once as busy, before any of its work.
  const line = new AdmissionLine({
    concurrency: deps.whatIf.concurrency,
    queue: deps.whatIf.queue,
  });

  async function whatIf(q: z.output<typeof Body>, res: Response) {
    const gone = new AbortController();
    const release = await new Promise<() => void>((resolve, reject) => {
      const leave = line.ask(resolve, () =>
        reject(problems.replayBusy(deps.whatIf.retryAfterSeconds)),
      );
      res.once('close', () => {
        leave();
        gone.abort();
        reject(new Error('the client gave up waiting for a what-if replay'));
      });
    });
    try {
      const { slots } = await replayInWorker(
        deps,
        {
          roomId: q.roomId,
          fromDate: q.fromDate,
          untilDate: q.untilDate,
          change: {
            capacity: q.change.capacity,
            cartHoldMinutes: q.change.cartHoldMinutes,
            maxTicketsPerDay: q.change.maxTicketsPerDay,
          },
        },
        gone.signal,
      );
      return { actual: totalOf(slots, 'actual'), whatIf: totalOf(slots, 'whatIf'), slots };
    } finally {
      release();
    }
  }

  return [
    defineRoute({
      method: 'post',
      path: '/admin/insights/what-if',
      summary:
        "Replays a room's recorded demand over a period under other rules (capacity, cart hold time, tickets per visitor and day): served, refused and waitlisted, actual and what-if",
      tags: ['reports'],
      access: ['admin', 'reports'],
      sites: { body: { roomId: 'room' } },
      body: Body,
      responses: {
        200: { description: 'The replay', schema: whatIfSchema },
        400: { description: 'validation__error, insights__replay_too_large' },
        404: { description: 'No such room' },
        503: { description: 'insights__replay_busy (with Retry-After)' },
      },
      handler: async ({ body, res }) => ({ body: await whatIf(body, res) }),
    }),
  ];
}
