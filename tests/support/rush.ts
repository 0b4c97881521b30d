/**
 * The opening rush: visitors arriving at a steady rate over a few seconds, each walking the
 * visitor journey as the SPA does it (room list, the room's month calendar, a cart add on a slot
 * the calendar shows free, a second slot for every third visitor, the personal data page, the
 * booking, the confirmation page). Shared by `npm run bench:rush` (tests/bench/rush.ts, timed)
 * and the small rush of the API tests (tests/api/rush.int.test.ts, not timed).
 *
 * A visitor looks at a month's calendar for about `thinkMs` before choosing a slot. With `watch`,
 * every other visitor follows the month's live availability while on it, as the SPA does: a slot
 * an event reports full leaves the visitor's free choices (a visitor whose stream is refused
 * chooses from the calendar alone, as the SPA falls back to reading it).
 *
 * A refused add is tried once more on another slot the refreshed calendar shows free; a visitor
 * gives up when the calendar shows nothing free. A 503 with `Retry-After` is asked again after the
 * time it says, and a read answered 404 from read models still behind the visitor's own write
 * (`X-Read-Stale`) at once, as the SPA does.
 */
import type { SlotSeats } from '../../query-service/src/live-availability.ts';
import { ASK_AGAIN } from '../../frontend/src/lib/constants.ts';
import { sleep } from './wait-for.ts';

/** One answer: status 0 when no answer came (the connection failed). */
export interface RushAnswer {
  status: number;
  body: unknown;
  /** The `Retry-After` header, if any. */
  retryAfter: string | null;
  /** `X-Read-Stale: true`: the read waited for the visitor's own write in vain. */
  stale: boolean;
}

export type RushSend = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<RushAnswer>;

export const RUSH_STEPS = [
  'rooms',
  'calendar',
  'cartAdd',
  'secondCalendar',
  'secondAdd',
  'personalData',
  'booking',
  'confirmation',
] as const;
export type RushStep = (typeof RUSH_STEPS)[number];

/** How often a request answered 503 is sent again after its `Retry-After`. */
export const RETRIES_AFTER_503 = 5;

/**
 * Opens a room month's live availability (`YYYY-MM`): `onSlots` gets each event's slots and
 * position; answers how to close it, or null when the stream was refused.
 */
export type RushWatch = (
  roomId: string,
  month: string,
  onSlots: (slots: SlotSeats[], position: string) => void,
) => Promise<(() => void) | null>;

/** A moment of the rush (`performance.now()`) at a position of the log (`tx_gp`), in a room. */
export interface RushMoment {
  roomId: string;
  at: number;
  position: string;
}

export interface RushOptions {
  visitors: number;
  /** Arrivals are spread evenly over these seconds. */
  seconds: number;
  /** The month the calendars ask for, and the day whose seats the crowd wants. */
  fromDate: string;
  untilDate: string;
  day: string;
  send: RushSend;
  /** How long a visitor looks at a calendar before choosing (ms, varied by ±50 %); 0: at once. */
  thinkMs?: number;
  /** Live availability: every other visitor (odd numbers) follows it; unset: none does. */
  watch?: RushWatch;
}

/** Adds and how many were refused on a slot shown free, of one group of visitors. */
export interface RushAddFigures {
  adds: number;
  staleAdds: number;
}

export interface RushOutcome {
  /** Latency in ms of every answered request per step (a step of parallel reads: all of them). */
  latencies: Record<RushStep, number[]>;
  /** Answers by step and status, e.g. `cartAdd 409`. */
  statuses: Map<string, number>;
  /** 503 answers with `Retry-After` (shed load). */
  shed: number;
  /** Of those, how many were asked again after waiting the `Retry-After` they said. */
  retriedAfterWait: number;
  /** Requests still answered 503 after RETRIES_AFTER_503 tries (their visitor's journey ended). */
  shedGaveUp: number;
  /** Reads answered 404 from read models behind the visitor's own write, and asked again. */
  staleNotFound: number;
  /** Answers 500 and above other than shed load, and requests without an answer. */
  serverErrors: number;
  /** Answers that no journey expects (4xx other than a refused add). */
  otherErrors: number;
  /** Seats the booking answers confirmed. */
  seatsBooked: number;
  /** Tickets each confirmed booking holds, by owner id: what the log must hold, no more, no less. */
  bookedOwners: Map<string, number>;
  bookings: number;
  /** Visitors that found nothing free (at once, or after a refused add). */
  gaveUp: number;
  /** Visitors whose journey ended (booked or gave up): every one of them. */
  answered: number;
  /** Adds refused on a slot the calendar had just shown free. */
  staleAdds: number;
  /**
   * With `watch`: the adds of the visitors following live availability and of those who do not
   * (the same rush, the same server: an A/B), and the events and refused streams of the former.
   */
  live: {
    following: RushAddFigures;
    notFollowing: RushAddFigures;
    streams: number;
    refusedStreams: number;
    events: number;
    /** Slots visitors dropped from their free choices on an event, before trying them. */
    droppedFull: number;
    /** Each successful add's answer: when it came and the position of its write. */
    added: RushMoment[];
    /** Each room's events as they first arrived on any stream (a position once per room). */
    arrived: RushMoment[];
    /**
     * The stale adds of the visitors following it, by when an event reported the slot full: while
     * the add was under way (sent, not yet answered), after its answer while the visitor was still
     * on the month, or not while it was (the visitor left the month first).
     */
    staleFull: { whileAdding: number; afterAnswer: number; notOnMonth: number };
    /** Of those reported full while adding or after: from the add's sending to the event (ms). */
    staleEventAfterSendMs: number[];
  };
  /** Free slots shown in calendars, over all calendar answers. */
  freeShown: number;
  adds: number;
  /** Milliseconds from the first arrival until the last successful add (the last seat taken). */
  lastSeatMs: number;
  /** The longest any single request took, 503s included. */
  slowestRequestMs: number;
  seconds: number;
}

interface Slot {
  id: string;
  date: string;
  failedRules: string[];
}

const owner = (n: number) => ({
  salutation: 'NONE',
  firstName: 'Rush',
  lastName: `Visitor ${n}`,
  email: `rush.${n}.${Math.random().toString(36).slice(2, 8)}@example.org`,
  phone: '+431234567',
  accessibility: false,
  language: 'de',
});

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Runs the rush; resolves when every visitor's journey has ended. */
export async function runRush(options: RushOptions): Promise<RushOutcome> {
  const out: RushOutcome = {
    latencies: Object.fromEntries(RUSH_STEPS.map((s) => [s, [] as number[]])) as Record<
      RushStep,
      number[]
    >,
    statuses: new Map(),
    shed: 0,
    retriedAfterWait: 0,
    shedGaveUp: 0,
    staleNotFound: 0,
    serverErrors: 0,
    otherErrors: 0,
    seatsBooked: 0,
    bookedOwners: new Map(),
    bookings: 0,
    gaveUp: 0,
    answered: 0,
    staleAdds: 0,
    live: {
      following: { adds: 0, staleAdds: 0 },
      notFollowing: { adds: 0, staleAdds: 0 },
      streams: 0,
      refusedStreams: 0,
      events: 0,
      droppedFull: 0,
      added: [],
      arrived: [],
      staleFull: { whileAdding: 0, afterAnswer: 0, notOnMonth: 0 },
      staleEventAfterSendMs: [],
    },
    freeShown: 0,
    adds: 0,
    lastSeatMs: 0,
    slowestRequestMs: 0,
    seconds: 0,
  };
  const t0 = performance.now();
  const month = `fromDate=${options.fromDate}&untilDate=${options.untilDate}`;
  const thinkMs = options.thinkMs ?? 0;
  /** A visitor looking at the calendar before choosing. */
  const think = () => (thinkMs > 0 ? sleep(thinkMs * (0.5 + Math.random())) : Promise.resolve());

  /**
   * What a visitor on a room's month knows beyond its calendar: the slots live availability
   * reported full (none for a visitor not following it).
   */
  interface OnMonth {
    full: Set<string>;
    group: RushAddFigures;
    following: boolean;
    /** Per slot, when an event last reported it full. */
    fullSince: Map<string, number>;
    /** Stale adds of this visit: the slot and when the add was sent and answered. */
    stale: { slotId: string; sent: number; answered: number }[];
    close: () => void;
  }
  /** Positions of events already arrived per room (the first arrival is the one timed). */
  const seen = new Map<string, Set<string>>();
  const enterMonth = (n: number, roomId: string): OnMonth => {
    const full = new Set<string>();
    const following = options.watch !== undefined && n % 2 === 1;
    const on: OnMonth = {
      full,
      group: following ? out.live.following : out.live.notFollowing,
      following,
      fullSince: new Map(),
      stale: [],
      close: () => undefined,
    };
    if (!following) return on;
    out.live.streams += 1;
    // The page shows its calendar without waiting for the stream, which opens beside it.
    const opening = options.watch!(roomId, options.day.slice(0, 7), (slots, position) => {
      const at = performance.now();
      out.live.events += 1;
      let positions = seen.get(roomId);
      if (!positions) seen.set(roomId, (positions = new Set()));
      if (!positions.has(position)) {
        positions.add(position);
        out.live.arrived.push({ roomId, at, position });
      }
      for (const s of slots) {
        if (s.seatsFree > 0 && !s.closed) {
          full.delete(s.id);
          on.fullSince.delete(s.id);
        } else {
          full.add(s.id);
          if (!on.fullSince.has(s.id)) on.fullSince.set(s.id, at);
        }
      }
    });
    void opening.then((close) => {
      if (!close) out.live.refusedStreams += 1;
    });
    on.close = () => {
      // Leaving the month: when (and whether) the stream had reported each stale add's slot full.
      for (const s of on.stale.splice(0)) {
        const since = on.fullSince.get(s.slotId);
        if (since === undefined) out.live.staleFull.notOnMonth += 1;
        else {
          if (since <= s.answered) out.live.staleFull.whileAdding += 1;
          else out.live.staleFull.afterAnswer += 1;
          out.live.staleEventAfterSendMs.push(since - s.sent);
        }
      }
      void opening.then((close) => close?.());
    };
    return on;
  };
  /** The calendar's free slots the visitor still takes for free after looking at them a while. */
  const chosen = async (free: Slot[], on: OnMonth): Promise<Slot[]> => {
    await think();
    const left = free.filter((s) => !on.full.has(s.id));
    out.live.droppedFull += free.length - left.length;
    return left;
  };

  /** One request of a step, sent again after `Retry-After` while it answers 503. */
  const request = async (
    step: RushStep,
    method: string,
    path: string,
    body?: unknown,
    position?: string | null,
  ): Promise<RushAnswer> => {
    for (let attempt = 0, staleTries = 0; ; attempt++) {
      const s = performance.now();
      const a = await options.send(
        method,
        path,
        body,
        position ? { 'X-Min-Position': position } : {},
      );
      const ms = performance.now() - s;
      out.slowestRequestMs = Math.max(out.slowestRequestMs, ms);
      const key = `${step} ${a.status}`;
      out.statuses.set(key, (out.statuses.get(key) ?? 0) + 1);
      if (method === 'GET' && a.status === 404 && a.stale && staleTries < ASK_AGAIN) {
        staleTries += 1;
        out.staleNotFound += 1;
        continue;
      }
      // Shed load was never run: asked again after Retry-After, as the SPA does (a read after
      // any 503 with Retry-After, a write only after service__overloaded).
      const overloaded = (a.body as { error?: unknown } | null)?.error === 'service__overloaded';
      if (a.status === 503 && (overloaded || method === 'GET') && a.retryAfter !== null) {
        out.shed += 1;
        if (attempt < RETRIES_AFTER_503) {
          const wait = Number(a.retryAfter) * 1000;
          const waited = performance.now();
          await sleep(wait);
          if (performance.now() - waited >= wait - 1) out.retriedAfterWait += 1;
          continue;
        }
        out.shedGaveUp += 1;
      }
      if (a.status === 0 || (a.status >= 500 && !overloaded)) out.serverErrors += 1;
      else out.latencies[step].push(ms);
      return a;
    }
  };

  /** The room's month calendar as the room page loads it (room, slots, calendar at once). */
  const calendar = async (
    step: 'calendar' | 'secondCalendar',
    roomId: string,
    cart: string | null,
    position: string | null,
  ): Promise<Slot[] | null> => {
    const slotsPath = cart
      ? `/api/transactions/${cart}/rooms/${roomId}/available-timeslots?${month}`
      : `/api/rooms/${roomId}/booking?${month}`;
    const [room, slots, cal] = await Promise.all([
      request(step, 'GET', `/api/rooms/${roomId}`, undefined, position),
      request(step, 'GET', slotsPath, undefined, position),
      request(step, 'GET', `/api/rooms/${roomId}/calendar?${month}`, undefined, position),
    ]);
    if (room.status !== 200 || cal.status !== 200 || slots.status !== 200) {
      if ([room, slots, cal].some((a) => a.status >= 400 && a.status < 500)) out.otherErrors += 1;
      return null;
    }
    const free = (slots.body as Slot[]).filter(
      (s) => s.date === options.day && s.failedRules.length === 0,
    );
    out.freeShown += free.length;
    return free;
  };

  /** An add on a free slot; refused, once more on another free slot of a fresh calendar. */
  const add = async (
    step: 'cartAdd' | 'secondAdd',
    roomId: string,
    cart: string | null,
    free: Slot[],
    position: string | null,
    on: OnMonth,
  ): Promise<{ transactionId: string; position: string } | null> => {
    let choices = free;
    const refused = new Set<string>();
    for (let attempt = 0; attempt < 2; attempt++) {
      const slot = pick(choices);
      const sent = performance.now();
      const a = cart
        ? await request(step, 'POST', `/api/transactions/${cart}/tickets`, {
            timeSlotId: slot.id,
          })
        : await request(step, 'POST', '/api/transactions', { timeSlotId: slot.id });
      out.adds += 1;
      on.group.adds += 1;
      if (a.status === 200 || a.status === 201) {
        const answered = performance.now();
        out.lastSeatMs = Math.max(out.lastSeatMs, answered - t0);
        const body = a.body as { transactionId: string; position: string };
        out.live.added.push({ roomId, at: answered, position: body.position });
        return body;
      }
      if (a.status !== 409) {
        if (a.status >= 400 && a.status < 500) out.otherErrors += 1;
        return null;
      }
      out.staleAdds += 1;
      on.group.staleAdds += 1;
      if (on.following) on.stale.push({ slotId: slot.id, sent, answered: performance.now() });
      refused.add(slot.id);
      if (attempt === 1) return null;
      const fresh = await calendar(
        step === 'cartAdd' ? 'calendar' : 'secondCalendar',
        roomId,
        cart,
        position,
      );
      choices = (fresh ? await chosen(fresh, on) : []).filter((s) => !refused.has(s.id));
      if (choices.length === 0) return null;
    }
    return null;
  };

  const journey = async (n: number): Promise<void> => {
    try {
      const rooms = await request('rooms', 'GET', '/api/rooms?limit=999&offset=0&sort=order:ASC');
      if (rooms.status !== 200) return;
      const ids = (rooms.body as { content: { id: string }[] }).content.map((r) => r.id);
      // A visitor looks at the rooms in an order of their own until one shows a free seat.
      const order = [...ids].sort(() => Math.random() - 0.5);
      for (const roomId of order) {
        // The stream opens with the page, beside its reads (the page does not wait for it).
        const on = enterMonth(n, roomId);
        const shown = await calendar('calendar', roomId, null, null);
        try {
          const free = shown?.length ? await chosen(shown, on) : [];
          if (!free.length) continue;
          const cart = await add('cartAdd', roomId, null, free, null, on);
          if (!cart) break;
          let position = cart.position;
          if (n % 3 === 0) {
            const more = await calendar('secondCalendar', roomId, cart.transactionId, position);
            const left = more?.length ? await chosen(more, on) : [];
            if (left.length) {
              const second = await add('secondAdd', roomId, cart.transactionId, left, position, on);
              if (second) position = second.position;
            }
          }
          on.close();
          const summary = await request(
            'personalData',
            'GET',
            `/api/transactions/${cart.transactionId}`,
            undefined,
            position,
          );
          if (summary.status !== 200) return;
          const booked = await request(
            'booking',
            'PUT',
            `/api/transactions/${cart.transactionId}/booking`,
            owner(n),
          );
          if (booked.status !== 200) {
            if (booked.status >= 400 && booked.status < 500) out.otherErrors += 1;
            return;
          }
          const result = booked.body as { ownerId: string; tickets: unknown[]; position: string };
          out.bookings += 1;
          out.seatsBooked += result.tickets.length;
          out.bookedOwners.set(result.ownerId, result.tickets.length);
          await request(
            'confirmation',
            'GET',
            `/api/owners/${result.ownerId}/tickets`,
            undefined,
            result.position,
          );
          return;
        } finally {
          on.close();
        }
      }
      out.gaveUp += 1;
    } finally {
      out.answered += 1;
    }
  };

  const journeys: Promise<void>[] = [];
  for (let i = 0; i < options.visitors; i++) {
    const due = t0 + (i * options.seconds * 1000) / options.visitors;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    journeys.push(journey(i));
  }
  await Promise.all(journeys);
  out.seconds = (performance.now() - t0) / 1000;
  return out;
}
