/**
 * What a rush needs around its journeys (tests/support/rush.ts) against a running deployment:
 * the visitors' HTTP client, staff's rooms and slots of the rush, and the log's check against
 * the booking answers. Shared by `npm run bench:rush` and the two hosts' test.
 */
import http from 'node:http';
import type pg from 'pg';
import type { RushAnswer, RushSend } from './rush.ts';

/** A request longer than this has no answer (counted with the 5xx). */
export const RUSH_REQUEST_TIMEOUT_MS = 30_000;

/** The seats of a rush: rooms of one slot per time range each, all on one day. */
export interface RushLayout {
  rooms: number;
  times: readonly (readonly [string, string])[];
  capacity: number;
  /** The rooms' booking window in days: the rush's day is its last, just opened. */
  windowDays: number;
}

/**
 * Kept connections are closed after 5 s unused, before HAProxy's `timeout http-keep-alive` (10 s)
 * closes them: a request sent on a connection the server closes at that moment gets no answer.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 4096, timeout: 5000 });

/** What a request that got no answer (a failed or timed-out connection) counts as. */
const NO_ANSWER: RushAnswer = { status: 0, body: null, retryAfter: null, stale: false };

/**
 * A visitor's requests over node:http with keep-alive (fetch costs the client several times as
 * much CPU); a request without an answer within RUSH_REQUEST_TIMEOUT_MS counts as none. A read
 * whose kept connection was closed before any answer is sent once more on a new one, as a
 * browser does (node's documentation advises it for idempotent requests); a write is not.
 */
export function rushSender(base: string, cookie = ''): RushSend {
  const send = (
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
    again = false,
  ): Promise<RushAnswer> =>
    new Promise((resolve) => {
      const payload = body === undefined ? null : JSON.stringify(body);
      const req = http.request(
        base + url,
        {
          method,
          // Sent again: on a connection of its own.
          agent: again ? false : agent,
          timeout: RUSH_REQUEST_TIMEOUT_MS,
          headers: {
            'X-Requested-With': 'XMLHttpRequest',
            ...(cookie ? { Cookie: cookie } : {}),
            ...(payload === null
              ? {}
              : {
                  'Content-Type': 'application/json',
                  'Content-Length': String(Buffer.byteLength(payload)),
                }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              // not JSON: kept as text
            }
            const retryAfter = res.headers['retry-after'];
            resolve({
              status: res.statusCode ?? 0,
              body: parsed,
              retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
              stale: res.headers['x-read-stale'] === 'true',
            });
          });
          res.on('error', () => resolve(NO_ANSWER));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        const closedUnused = req.reusedSocket && err.code === 'ECONNRESET';
        resolve(
          closedUnused && !again && (method === 'GET' || method === 'HEAD')
            ? send(method, url, body, headers, true)
            : NO_ANSWER,
        );
      });
      req.end(payload ?? undefined);
    });
  return (method, url, body, headers) => send(method, url, body, headers);
}

/** Signs in as `admin`; answers the session's cookie. */
export async function signInAsAdmin(base: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/**
 * The rooms and slots of the rush on `day`, created by staff; answers the slot ids once visitors
 * see them. `month`: the calendar's query (`fromDate=...&untilDate=...`).
 */
export async function createRushRooms(
  admin: RushSend,
  layout: RushLayout,
  day: string,
  month: string,
): Promise<string[]> {
  const slotIds: string[] = [];
  for (let r = 0; r < layout.rooms; r++) {
    const room = await admin('POST', '/api/admin/rooms', {
      name: `Rush room ${r + 1}`,
      description: 'Opening rush',
      capacity: layout.capacity,
      openStartValue: 1,
      openStartType: 'DAY',
      openEndValue: layout.windowDays,
      openEndType: 'DAY',
    });
    if (room.status !== 201) throw new Error(`room: ${room.status} ${JSON.stringify(room.body)}`);
    const roomId = (room.body as { id: string }).id;
    for (const [startTime, endTime] of layout.times) {
      const slot = await admin('POST', `/api/admin/rooms/${roomId}/timeslots`, {
        startTime,
        endTime,
        startDate: day,
        repeatUntil: day,
        daysOfWeek: [],
        includeHolidays: true,
        capacity: layout.capacity,
      });
      if (slot.status !== 201) throw new Error(`slot: ${slot.status}`);
    }
    // The read models follow the log: wait until visitors see the room's slots.
    for (let i = 0; ; i++) {
      const slots = await admin('GET', `/api/rooms/${roomId}/booking?${month}`);
      const ids = slots.status === 200 ? (slots.body as { id: string }[]).map((s) => s.id) : [];
      if (ids.length === layout.times.length) {
        slotIds.push(...ids);
        break;
      }
      if (i > 400) throw new Error(`the slots of ${roomId} do not show`);
      await new Promise((res) => setTimeout(res, 25));
    }
  }
  return slotIds;
}

/** The booked tickets of the rush's slots in the log, held against the booking answers. */
export async function checkRushLog(
  pool: pg.Pool,
  slotIds: string[],
  booked: Map<string, number>,
  capacity: number,
) {
  const streams = slotIds.map((id) => `timeslot-${id}`);
  const byOwner = await pool.query<{ owner: string; n: number }>(
    `SELECT data->>'ownerId' AS owner, count(*)::int AS n FROM events
      WHERE event_type = 'TicketBooked' AND stream_id = ANY($1) GROUP BY 1`,
    [streams],
  );
  const bySlot = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events
      WHERE event_type = 'TicketBooked' AND stream_id = ANY($1) GROUP BY stream_id`,
    [streams],
  );
  const tickets = await pool.query<{ n: number; distinct: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT data->>'ticketId')::int AS distinct FROM events
      WHERE event_type = 'TicketBooked' AND stream_id = ANY($1)`,
    [streams],
  );
  const inLog = new Map(byOwner.rows.map((r) => [r.owner, r.n]));
  let lost = 0;
  let doubled = tickets.rows[0]!.n - tickets.rows[0]!.distinct;
  for (const [owner, n] of booked) {
    const logged = inLog.get(owner) ?? 0;
    if (logged < n) lost += 1;
    if (logged > n) doubled += 1;
  }
  doubled += bySlot.rows.filter((r) => r.n > capacity).length;
  const unanswered = [...inLog.keys()].filter((owner) => !booked.has(owner)).length;
  return {
    seatsInLog: tickets.rows[0]!.n,
    log: { lost, doubled, unanswered },
  };
}
