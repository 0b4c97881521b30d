import type { Request, Response } from 'express';
import { defineRoute, endlessAnswer, problems, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { DisplayQuery, displayDays } from './display.ts';
import { LiveAvailability, type LiveSubscriber } from './live-availability.ts';

/** A month of the calendar, `YYYY-MM`. */
const Month = z
  .string()
  .regex(/^[1-9]\d{3}-(0[1-9]|1[0-2])$/, 'Not a month (YYYY-MM)')
  .openapi({ example: '2026-12' });

/** Unsent bytes a stream may hold before its subscriber counts as gone (it is not reading). */
const MAX_UNSENT = 64 * 1024;

/** How soon a refused stream may be asked for again (its client polls meanwhile). */
const RETRY_AFTER_SECONDS = 30;

/** How long an EventSource waits before it reconnects after the stream ended. */
const RECONNECT_MS = 3000;

/** The paths of the streams within /api, for the load shedding's exemption. */
export const AVAILABILITY_STREAM_PATH = /^\/(rooms\/[^/]+\/availability|display)\/stream$/;

const streamOf = (res: Response): LiveSubscriber => ({
  write: (text) => {
    if (res.writableEnded || res.destroyed) return true;
    res.write(text);
    return res.writableLength <= MAX_UNSENT;
  },
  end: () => {
    if (!res.writableEnded) res.end();
  },
});

type Opened = Awaited<ReturnType<LiveAvailability['subscribe']>>;

/**
 * Answers a stream that `subscribe` opened (or refused): 404 for a room that is not there, 503
 * with Retry-After when the process serves its most streams; else the headers and `ready` with
 * the position, and the stream is closed in the watcher once the client is gone.
 */
async function answerStream(
  req: Request,
  res: Response,
  subscribe: (subscriber: LiveSubscriber) => Promise<Opened>,
) {
  const opened = await subscribe(streamOf(res));
  if (opened === 'unknown') throw problems.notFound('Room');
  if (opened === 'full') {
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    throw problems.overloaded();
  }
  // HEAD asks for the headers of a stream that would never end.
  if (req.method === 'HEAD') {
    opened.close();
    return { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } };
  }
  res.on('close', opened.close);
  // The client left while its days were read.
  if (req.socket.destroyed) {
    opened.close();
    return;
  }
  endlessAnswer(res);
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  });
  res.write(
    `retry: ${RECONNECT_MS}\nevent: ready\ndata: ${JSON.stringify({ position: opened.position })}\n\n`,
  );
  return undefined;
}

const STREAM_RESPONSES = {
  200: {
    description:
      'An event stream: `ready` {position}, then `availability` {position, slots: [{id, seatsFree, closed}]}',
    schema: z.string(),
    contentType: 'text/event-stream',
  },
  404: { description: 'No such room' },
  503: { description: 'The process serves its most streams: poll instead (Retry-After)' },
} as const;

/**
 * The live availability (text/event-stream) of a room's month, and of what the foyer display
 * shows: `ready` with the position the stream stands at once it is open, then `availability`
 * whenever slots of the watched days changed, with the position and each changed slot's free
 * seats; a comment line now and then keeps it open.
 */
export function availabilityStreamRoutes(deps: QueryDeps): RouteDef[] {
  const live =
    deps.live ??
    new LiveAvailability(deps.pool, deps.clock, {
      maxStreams: 0,
      pollMs: 250,
      heartbeatMs: 15_000,
    });
  return [
    defineRoute({
      method: 'get',
      path: '/rooms/{id}/availability/stream',
      summary: "Server-sent events of a room's month: slots whose free seats changed",
      tags: ['visitor'],
      access: 'public',
      params: z.object({ id: z.uuid('Not a valid id') }),
      query: z.object({ month: Month }),
      responses: STREAM_RESPONSES,
      handler: ({ params, query, req, res }) =>
        answerStream(req, res, (subscriber) => live.subscribe(params.id, query.month, subscriber)),
    }),
    defineRoute({
      method: 'get',
      path: '/display/stream',
      summary:
        "Server-sent events of the foyer display: the slots it shows (one room's or every room's) whose free seats changed",
      tags: ['display'],
      access: 'public',
      query: DisplayQuery,
      responses: STREAM_RESPONSES,
      handler: ({ query, req, res }) =>
        answerStream(req, res, (subscriber) =>
          live.subscribeAll(() => displayDays(deps, query.roomId), subscriber),
        ),
    }),
  ];
}
