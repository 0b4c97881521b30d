import type { Response } from 'express';
import { defineRoute, endlessAnswer, problems, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';
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

/** The path of a room's stream within /api, for the load shedding's exemption. */
export const AVAILABILITY_STREAM_PATH = /^\/rooms\/[^/]+\/availability\/stream$/;

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

/**
 * The live availability of a room's month (text/event-stream): `ready` with the position the
 * stream stands at once it is open, then `availability` whenever slots of the month changed, with
 * the position and each changed slot's free seats; a comment line now and then keeps it open.
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
      responses: {
        200: {
          description:
            'An event stream: `ready` {position}, then `availability` {position, slots: [{id, seatsFree, closed}]}',
          schema: z.string(),
          contentType: 'text/event-stream',
        },
        404: { description: 'No such room' },
        503: { description: 'The process serves its most streams: poll instead (Retry-After)' },
      },
      handler: async ({ params, query, req, res }) => {
        const opened = await live.subscribe(params.id, query.month, streamOf(res));
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
        // The visitor left while the month was read.
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
      },
    }),
  ];
}
