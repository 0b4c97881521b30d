/**
 * Visitors booking without pause through a gateway, for the failover tests: every request as the
 * SPA sends it, bounded in time, its outcome logged; and the figures of a switch of the primary
 * drawn from that log (the outage as a visitor sees it, bookings per second before and after, the
 * answers meanwhile).
 */

import type pg from 'pg';
import type { Client } from './app.ts';
import { createSlot } from './fixtures.ts';
import { sleep } from './wait-for.ts';

/** The longest a request may take; one taking longer counts as hung. */
export const REQUEST_TIMEOUT_MS = 15_000;

export interface Outcome {
  op: 'cart' | 'book' | 'read';
  start: number;
  end: number;
  /** HTTP status, or 0 for no answer (timeout or connection failure). */
  status: number;
  /** An error answered as problem+json. */
  problem?: boolean;
  ownerId?: string;
  position?: string;
}

export const now = () => performance.now();

/** Polls `probe` every 200 ms until it gives something other than `false`. */
export async function waitFor<T>(
  what: string,
  ms: number,
  probe: () => Promise<T | false>,
): Promise<T> {
  const deadline = now() + ms;
  let last: unknown = null;
  for (;;) {
    try {
      const v = await probe();
      if (v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (now() > deadline) throw new Error(`${what}: not within ${ms} ms (${String(last)})`);
    await sleep(200);
  }
}

/** One request as the SPA sends it, bounded by REQUEST_TIMEOUT_MS. */
export async function call(
  base: string,
  method: string,
  url: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; headers: Headers | null; problem: boolean }> {
  try {
    const res = await fetch(base + url, {
      method,
      headers: {
        'X-Requested-With': 'XMLHttpRequest',
        ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    const problem = res.headers.get('content-type')?.includes('problem+json') ?? false;
    return { status: res.status, body, headers: res.headers, problem };
  } catch (err) {
    return { status: 0, body: String(err), headers: null, problem: false };
  }
}

export const visitor = (n: string) => ({
  salutation: 'NONE',
  firstName: 'Fail',
  lastName: `Over${n}`,
  email: `${n}@example.at`,
  phone: '+431',
  accessibility: false,
  language: 'de',
});

/**
 * A room open from tomorrow for 60 days with one large slot (2000 seats) on each of `days` days
 * from the third day on, for the visitors to book without running out.
 */
export async function createLoadRoom(
  admin: Client,
  name: string,
  days: number,
): Promise<{ roomId: string; slots: string[] }> {
  const room = await admin.request('POST', '/api/admin/rooms', {
    json: {
      name,
      description: 'High availability',
      capacity: 2000,
      openStartValue: 1,
      openStartType: 'DAY',
      openEndValue: 60,
      openEndType: 'DAY',
    },
  });
  if (room.status !== 201) throw new Error(`room not created: ${room.status}`);
  const roomId = ((await room.json()) as { id: string }).id;
  const slots: string[] = [];
  for (let d = 0; d < days; d++) {
    const date = new Date(Date.now() + (3 + d) * 86400_000).toISOString().slice(0, 10);
    slots.push(await createSlot(admin, roomId, date, '10:00', '11:00', 2000));
  }
  return { roomId, slots };
}

/** Visitors booking through one address (a gateway). */
export class BookingLoad {
  /** Owners of every booking answered 200. */
  readonly acknowledgedOwners = new Set<string>();
  /** Bookings (PUT) sent and not answered yet. */
  bookingsInFlight = 0;

  constructor(private readonly base: () => string) {}

  /** One visitor's booking: a cart, then the booking. */
  async bookOnce(slot: string, n: string, log: Outcome[]): Promise<Outcome> {
    const start = now();
    const cart = await call(this.base(), 'POST', '/api/transactions', { timeSlotId: slot });
    const cartOutcome: Outcome = {
      op: 'cart',
      start,
      end: now(),
      status: cart.status,
      problem: cart.problem,
    };
    log.push(cartOutcome);
    if (cart.status !== 201) return cartOutcome;
    const { transactionId } = cart.body as { transactionId: string };
    const bookStart = now();
    this.bookingsInFlight += 1;
    const booked = await call(
      this.base(),
      'PUT',
      `/api/transactions/${transactionId}/booking`,
      visitor(n),
    ).finally(() => (this.bookingsInFlight -= 1));
    const outcome: Outcome = {
      op: 'book',
      start: bookStart,
      end: now(),
      status: booked.status,
      problem: booked.problem,
    };
    if (booked.status === 200) {
      const b = booked.body as { ownerId: string; position: string };
      outcome.ownerId = b.ownerId;
      outcome.position = b.position;
      this.acknowledgedOwners.add(b.ownerId);
    }
    log.push(outcome);
    return outcome;
  }

  /**
   * `workers` visitors booking without pause until stopped (a short pause after a failure), over
   * the slots in turn, and one reading the rooms through the same address.
   */
  start(slots: string[], log: Outcome[], workers: number): { stop(): Promise<void> } {
    let stopped = false;
    const running = Array.from({ length: workers }, async (_, w) => {
      for (let i = 0; !stopped; i++) {
        const o = await this.bookOnce(
          slots[(w + i) % slots.length]!,
          `w${w}-${i}-${Math.random()}`,
          log,
        );
        if (o.status !== 200) await sleep(100);
      }
    });
    running.push(
      (async () => {
        while (!stopped) {
          const start = now();
          const r = await call(this.base(), 'GET', '/api/rooms');
          log.push({ op: 'read', start, end: now(), status: r.status, problem: r.problem });
          await sleep(50);
        }
      })(),
    );
    return {
      stop: async () => {
        stopped = true;
        await Promise.all(running);
      },
    };
  }
}

/** Counts of outcomes by status, for a figure. */
const statuses = (log: Outcome[]) =>
  Object.fromEntries(
    [...new Set(log.map((o) => o.status))].map((s) => [
      s,
      log.filter((o) => o.status === s).length,
    ]),
  );

/**
 * The figures of a switch from the log of a load: `brokeAt` when the primary went (killed or cut
 * off), `promotedAt` when Patroni promoted the other node, `recoveredAt` when a booking begun
 * after the break was acknowledged, `stoppedAt` when the load stopped.
 */
export function switchFigures(
  log: Outcome[],
  t: {
    loadStartedAt: number;
    brokeAt: number;
    promotedAt: number;
    recoveredAt: number;
    stoppedAt: number;
  },
) {
  const during = log.filter((o) => o.start >= t.brokeAt && o.start <= t.recoveredAt);
  const byOp = (op: Outcome['op']) => {
    const of = during.filter((o) => o.op === op);
    return {
      ok: of.filter((o) => o.status >= 200 && o.status < 300).length,
      '503': of.filter((o) => o.status === 503).length,
    };
  };
  // Acknowledged bookings per second in a window (by the time of the answer).
  const bookingsPerSecond = (from: number, to: number) =>
    +(
      log.filter((o) => o.op === 'book' && o.status === 200 && o.end >= from && o.end < to).length /
      ((to - from) / 1000)
    ).toFixed(1);
  // The write outage as a visitor sees it: the first refused write (cart or booking answered
  // after the break, not 2xx) to the first write begun after it and accepted.
  const isWrite = (o: Outcome) => o.op === 'cart' || o.op === 'book';
  const firstRefused = Math.min(
    ...log
      .filter((o) => isWrite(o) && o.end >= t.brokeAt && o.status !== 200 && o.status !== 201)
      .map((o) => o.end),
  );
  const firstAccepted = Math.min(
    ...log
      .filter(
        (o) => isWrite(o) && o.start >= firstRefused && (o.status === 200 || o.status === 201),
      )
      .map((o) => o.end),
  );
  const cutOff = log.filter((o) => o.start < t.brokeAt && o.end > t.brokeAt);
  return {
    failoverSeconds: +((t.promotedAt - t.brokeAt) / 1000).toFixed(1),
    servicesWritingAgainSeconds: +((t.recoveredAt - t.brokeAt) / 1000).toFixed(1),
    firstRefusedToFirstAcceptedSeconds: +((firstAccepted - firstRefused) / 1000).toFixed(1),
    bookingsPerSecond: {
      /** From a second after the load began (warm-up) to the break. */
      beforeKill: bookingsPerSecond(t.loadStartedAt + 1000, t.brokeAt),
      /** From the first booking acknowledged after the break to the end of the load. */
      afterRecovery: bookingsPerSecond(t.recoveredAt, t.stoppedAt),
    },
    duringSwitch: {
      requests: during.length,
      ok: during.filter((o) => o.status >= 200 && o.status < 300).length,
      '503': during.filter((o) => o.status === 503).length,
      other: during.filter((o) => o.status !== 503 && (o.status < 200 || o.status >= 300)).length,
      slowestMs: Math.round(Math.max(0, ...during.map((o) => o.end - o.start))),
      carts: byOp('cart'),
      bookings: byOp('book'),
      reads: byOp('read'),
    },
    /** Requests the break cut off: begun before it, answered after it. */
    inFlightAtKill: Object.fromEntries(
      [...new Set(cutOff.map((o) => `${o.op} ${o.status}`))].map((k) => [
        k,
        cutOff.filter((o) => `${o.op} ${o.status}` === k).length,
      ]),
    ),
    wholeRun: {
      requests: log.length,
      statuses: statuses(log),
      slowestMs: Math.round(Math.max(...log.map((o) => o.end - o.start))),
    },
  };
}

/**
 * Waits until every booking in the log has its confirmation in the mail outbox (the outbox
 * reactor's key `confirmation:{event id}`), then gives the number of confirmation rows, which is
 * the number of bookings when each was queued once.
 */
export async function confirmationsOncePerBooking(pool: pg.Pool): Promise<number> {
  const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);
  await waitFor('every confirmation queued', 30_000, async () =>
    (await count(
      `SELECT count(*) AS n FROM events e WHERE e.event_type = 'TransactionBooked'
          AND NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.id = 'confirmation:' || e.event_id)`,
    )) === 0
      ? true
      : false,
  );
  return count(`SELECT count(*) AS n FROM mail_outbox WHERE kind = 'confirmation'`);
}
