import { AsyncResource } from 'node:async_hooks';
import { monthDates } from '@rr/contracts';
import { comparePositions, leastPosition, parsePosition } from '@rr/events';
import {
  heldSeatIds,
  planSeatsLateral,
  seatsTakenLateral,
  waitlistLateral,
  type Clock,
  type Pool,
} from '@rr/platform';

/** How the process's live availability runs (LIVE_… in the config). */
export interface LiveAvailabilitySettings {
  /** Open streams at most; one more is refused (the client polls instead). */
  maxStreams: number;
  /** How often the watcher reads where the read models stand, while anybody watches. */
  pollMs: number;
  /**
   * The least time between two looks of the watcher when it is woken (`wake`, the projector's
   * notification that the read models moved): under a stream of batches it reads the watched
   * months at most this often. Without wakes it looks every `pollMs` only.
   */
  wakeGapMs?: number;
  /** How often every stream gets a comment line, so proxies keep an idle stream open. */
  heartbeatMs: number;
  /**
   * The read-model projections: an event's position is the least of their checkpoints, so a read
   * sent with it as X-Min-Position waits for nothing the event has not seen. Unset: every one.
   */
  readModels?: readonly string[];
}

/** One slot of a watched month whose free seats changed (or which was closed or removed). */
export interface SlotSeats {
  id: string;
  /** Capacity less bookings, unexpired holds, unlapsed waitlist offers and claims of the line. */
  seatsFree: number;
  /** Closed by staff or removed: no seat can be taken. */
  closed: boolean;
}

/** An open stream: what the watcher writes to it, and how it is ended. */
export interface LiveSubscriber {
  /** Writes a piece of the event stream; false: the subscriber is too far behind to keep. */
  write(text: string): boolean;
  end(): void;
}

/** A month's slots by id: each one's seats' fingerprint and what an event says of it. */
type MonthSeats = Map<string, { print: string; slot: SlotSeats }>;

/** A room's days a stream watches: a month of the calendar, or the display's. */
export type WatchedDays = Record<'roomId' | 'fromDate' | 'untilDate', string>;

/** A room's month (or days) as it is watched: its subscribers and its slots' seats at `position`. */
interface WatchedMonth extends WatchedDays {
  subscribers: Set<LiveSubscriber>;
  /** Per slot its seats' fingerprint and what an event says of it. */
  seats: MonthSeats;
  /** The least read-model checkpoint the seats were read at (`tx_gp`). */
  position: string;
}

interface Snapshot {
  /** Every checkpoint, as the poll reads them: a change means the read models moved. */
  fingerprint: string;
  position: string;
  /** Per key asked (by index), its slots. */
  slots: Map<number, MonthSeats>;
  /** Per key asked (by index), whether its room exists. */
  rooms: Set<number>;
}

const CHECKPOINTS_SQL = `SELECT coalesce(string_agg(name || ':' || last_tx::text || '_' || last_gp::text, ',' ORDER BY name), '') AS p
                           FROM projection_checkpoints`;

/**
 * Live availability of the process: the open streams of visitors watching a room's month, and
 * ONE watcher for all of them. While anybody watches, the watcher reads where the read models
 * stand every `pollMs` (one small query over projection_checkpoints: it works on read replicas,
 * which deliver no LISTEN/NOTIFY); when that moved, one query reads the seats of every watched
 * month's slots, and each month whose slots changed gets one event, written to all its
 * subscribers. A thousand visitors on the same month cost one computation per change.
 */
export class LiveAvailability {
  private readonly months = new Map<string, WatchedMonth>();
  /** Months being read for their first subscriber, so a crowd's first streams read once. */
  private readonly opening = new Map<string, Promise<WatchedMonth | null>>();
  private streamCount = 0;
  private fingerprint = '';
  private poll: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private failures = 0;
  /** Looks the watcher took where the read models stand, in all (none while nobody watches). */
  polls = 0;
  /** Times the read models had moved and the watched months were read, in all. */
  refreshes = 0;
  /** Watched months read in those times, in all: a month nobody watches is read no longer. */
  monthsRead = 0;
  /**
   * The watcher's ticks run outside any request's context: the first subscriber's request starts
   * the timer, and a read pool pinned to that request's replica would otherwise be kept for good.
   */
  private readonly tickOutside = AsyncResource.bind((run: number) => void this.tick(run));
  /** Each start of the watcher: a tick of an earlier start (stopped meanwhile) does not go on. */
  private run = 0;
  /** A look under way: a wake meanwhile makes the next one follow it (after the gap). */
  private ticking = false;
  /** Woken while a look was under way. */
  private wokenWhileTicking = false;
  /** When the last look started (performance.now()). */
  private lastTick = -Infinity;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly settings: LiveAvailabilitySettings,
  ) {}

  /** Open streams of the process. */
  get streams(): number {
    return this.streamCount;
  }

  /** Months at least one stream watches. */
  get watchedMonths(): number {
    return this.months.size;
  }

  /** The streams watching a room's month. */
  subscribersOf(roomId: string, month: string): number {
    return this.months.get(keyOf({ roomId, ...monthDates(month) }))?.subscribers.size ?? 0;
  }

  /**
   * Opens a stream on a room's month: `full` when the process has its most streams, `unknown`
   * when there is no such room; else the month's position (its seats' as the watcher has them:
   * a read with it as X-Min-Position sees at least those) and how to close the stream, which
   * must be called once the subscriber is gone.
   */
  subscribe(
    roomId: string,
    month: string,
    subscriber: LiveSubscriber,
  ): Promise<'full' | 'unknown' | { position: string; close: () => void }> {
    return this.subscribeAll(() => [{ roomId, ...monthDates(month) }], subscriber);
  }

  /**
   * Opens one stream on several rooms' days (the foyer display's: per room, from today to its
   * next slot's day): it counts as one stream and gets each range's events, watched as a month
   * is; `unknown` when one of the rooms is not there. The position is the least of the ranges'.
   * `wanted` is asked only once the stream has its place, so a crowd beyond the bound costs no
   * reads.
   */
  async subscribeAll(
    wanted: () => readonly WatchedDays[] | Promise<readonly WatchedDays[]>,
    subscriber: LiveSubscriber,
  ): Promise<'full' | 'unknown' | { position: string; close: () => void }> {
    if (this.streamCount >= this.settings.maxStreams) return 'full';
    this.streamCount += 1;
    let read: (WatchedMonth | null)[];
    try {
      read = await Promise.all((await wanted()).map((w) => this.watch(w)));
    } catch (err) {
      this.streamCount -= 1;
      throw err;
    }
    const found = read.filter((r) => r !== null);
    if (found.length < read.length) {
      this.streamCount -= 1;
      return 'unknown';
    }
    // A month's last subscriber may have left while this one waited: it is watched again.
    const watchedAll = found.map((r) => {
      const watched = this.months.get(keyOf(r)) ?? r;
      this.months.set(keyOf(watched), watched);
      watched.subscribers.add(subscriber);
      return watched;
    });
    this.start();
    let open = true;
    const close = () => {
      if (!open) return;
      open = false;
      this.streamCount -= 1;
      for (const watched of watchedAll) {
        watched.subscribers.delete(subscriber);
        // Nobody watches it any more: the watcher reads it no longer.
        if (watched.subscribers.size === 0 && this.months.get(keyOf(watched)) === watched)
          this.months.delete(keyOf(watched));
      }
      if (this.streamCount === 0) this.stop();
    };
    return { position: leastPosition(watchedAll.map((w) => w.position)) ?? '0_0', close };
  }

  /** The watched days of a key, read first when nobody watches them yet; null: no such room. */
  private async watch(days: WatchedDays): Promise<WatchedMonth | null> {
    const k = keyOf(days);
    const known = this.months.get(k);
    if (known) return known;
    let opening = this.opening.get(k);
    if (!opening) {
      opening = this.read([days])
        .then((snapshot) => {
          if (!snapshot.rooms.has(0)) return null;
          const watched: WatchedMonth = this.months.get(k) ?? {
            ...days,
            subscribers: new Set(),
            seats: snapshot.slots.get(0) ?? (new Map() as MonthSeats),
            position: snapshot.position,
          };
          this.months.set(k, watched);
          return watched;
        })
        .finally(() => this.opening.delete(k));
      this.opening.set(k, opening);
    }
    return opening;
  }

  private start(): void {
    if (this.poll === null)
      this.poll = setTimeout(this.tickOutside, this.settings.pollMs, ++this.run);
    this.heartbeat ??= setInterval(() => this.beat(), this.settings.heartbeatMs);
  }

  /**
   * The read models moved (the projector's notification): the watcher looks at once, or as soon
   * as the gap since its last look allows, instead of at its next poll. Nothing while nobody
   * watches. With read replicas the look may find them not there yet: the poll finds them later.
   */
  wake(): void {
    if (this.poll === null) return;
    if (this.ticking) {
      this.wokenWhileTicking = true;
      return;
    }
    clearTimeout(this.poll);
    this.poll = setTimeout(this.tickOutside, this.gapLeft(), this.run);
  }

  /** How long until the watcher may look again when woken. */
  private gapLeft(): number {
    return Math.max(0, this.lastTick + (this.settings.wakeGapMs ?? 0) - performance.now());
  }

  private stop(): void {
    if (this.poll) clearTimeout(this.poll);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.poll = null;
    this.heartbeat = null;
    // A look under way ends without a next one: the next start's looks are its own.
    this.ticking = false;
  }

  /** Ends every stream (the process stops): the clients reconnect elsewhere or poll. */
  closeAll(): void {
    for (const subscriber of this.subscribersOfAll()) subscriber.end();
  }

  /** Every open stream once, though one (a display's) may watch several months. */
  private subscribersOfAll(): Set<LiveSubscriber> {
    return new Set([...this.months.values()].flatMap((watched) => [...watched.subscribers]));
  }

  private beat(): void {
    writeTo(this.subscribersOfAll(), ': heartbeat\n\n');
  }

  /** One look: where the read models stand, and when they moved, the watched months' seats. */
  private async tick(run: number): Promise<void> {
    this.polls += 1;
    this.ticking = true;
    this.wokenWhileTicking = false;
    this.lastTick = performance.now();
    try {
      const r = await this.pool.query<{ p: string }>({
        name: 'rr_live_checkpoints',
        text: CHECKPOINTS_SQL,
      });
      const fingerprint = r.rows[0]?.p ?? '';
      if (fingerprint !== this.fingerprint && this.months.size > 0) await this.refresh();
      else this.fingerprint = fingerprint;
      this.failures = 0;
    } catch {
      // The database is away: a few tries, then the streams end, so their clients poll (their
      // reconnect is refused while it stays away) rather than wait for events that cannot come.
      if (++this.failures >= 3) {
        this.failures = 0;
        this.closeAll();
      }
    }
    if (run !== this.run) return;
    this.ticking = false;
    if (this.poll !== null)
      this.poll = setTimeout(
        this.tickOutside,
        this.wokenWhileTicking ? this.gapLeft() : this.settings.pollMs,
        run,
      );
  }

  /** Reads every watched month and sends each month whose seats changed one event. */
  private async refresh(): Promise<void> {
    const watched = [...this.months.values()];
    this.refreshes += 1;
    this.monthsRead += watched.length;
    const snapshot = await this.read(watched);
    this.fingerprint = snapshot.fingerprint;
    watched.forEach((month, i) => {
      if (this.months.get(keyOf(month)) !== month) return;
      // Several replicas may stand at different positions: a month never goes back.
      const newer = parsePosition(snapshot.position);
      const had = parsePosition(month.position);
      if (newer && had && comparePositions(newer, had) < 0) return;
      const seats = snapshot.slots.get(i) ?? (new Map() as MonthSeats);
      const changed: SlotSeats[] = [];
      for (const [id, now] of seats)
        if (month.seats.get(id)?.print !== now.print) changed.push(now.slot);
      for (const id of month.seats.keys())
        if (!seats.has(id)) changed.push({ id, seatsFree: 0, closed: true });
      month.seats = seats;
      month.position = snapshot.position;
      if (changed.length === 0) return;
      const data = JSON.stringify({ position: snapshot.position, slots: changed });
      writeTo([...month.subscribers], `event: availability\ndata: ${data}\n\n`);
    });
  }

  /**
   * The seats of these months' slots at the clock's instant, with where the read models stood:
   * one statement, so the seats are those of that position (holds end by the clock, so a hold
   * that ended shows with the next change).
   */
  private async read(
    months: readonly { roomId: string; fromDate: string; untilDate: string }[],
  ): Promise<Snapshot> {
    const r = await this.pool.query<{
      fingerprint: string;
      position: string | null;
      rooms: number[];
      slots: [number, string, number, boolean, number, number, string | null][];
    }>({
      name: 'rr_live_seats',
      text: `WITH k AS (SELECT * FROM unnest($1::uuid[], $2::date[], $3::date[]) WITH ORDINALITY
                                   AS k(room_id, from_date, until_date, i))
             SELECT (${CHECKPOINTS_SQL}) AS fingerprint,
                    (SELECT last_tx::text || '_' || last_gp::text FROM projection_checkpoints
                      WHERE $5::text[] IS NULL OR name = ANY($5) ORDER BY last_tx, last_gp LIMIT 1) AS position,
                    ARRAY(SELECT (k.i - 1)::int FROM k JOIN rm_rooms r ON r.id = k.room_id) AS rooms,
                    (SELECT coalesce(json_agg(json_build_array((k.i - 1)::int, s.id,
                              greatest(least(s.capacity - c.booked_count - c.held_count - w.offered,
                                             coalesce(p.plan_free, s.capacity)) - w.waiting, 0),
                              s.closed_reason IS NOT NULL, s.capacity, c.booked_count,
                              -- Which seats of a plan are held: a seat moved (the desk's, a
                              -- visitor's own change) changes no count but the seat picker's plan.
                              CASE WHEN p.plan_free IS NOT NULL THEN
                                (SELECT string_agg(h.seat_id::text, ',' ORDER BY h.seat_id)
                                   FROM ${heldSeatIds('$4')} h(seat_id)) END)), '[]')
                       FROM k JOIN rm_time_slots s
                              ON s.room_id = k.room_id AND s.date BETWEEN k.from_date AND k.until_date,
                            ${seatsTakenLateral('t.time_slot_id = s.id', '$4')} c,
                            ${waitlistLateral('$4')},
                            ${planSeatsLateral('$4')}) AS slots`,
      values: [
        months.map((m) => m.roomId),
        months.map((m) => m.fromDate),
        months.map((m) => m.untilDate),
        this.clock.now().toISOString(),
        this.settings.readModels ?? null,
      ],
    });
    const row = r.rows[0]!;
    const slots = new Map<number, MonthSeats>();
    for (const [i, id, seatsFree, closed, capacity, booked, heldSeats] of row.slots) {
      let of = slots.get(i);
      if (!of) slots.set(i, (of = new Map() as MonthSeats));
      of.set(id, {
        print: `${seatsFree}/${closed}/${capacity}/${booked}/${heldSeats ?? ''}`,
        slot: { id, seatsFree, closed },
      });
    }
    return {
      fingerprint: row.fingerprint,
      position: row.position ?? '0_0',
      slots,
      rooms: new Set(row.rooms),
    };
  }
}

/** Writes to each subscriber, ending one that is too far behind. */
const writeTo = (subscribers: Iterable<LiveSubscriber>, text: string) => {
  for (const subscriber of subscribers) if (!subscriber.write(text)) subscriber.end();
};

const keyOf = (d: WatchedDays) => `${d.roomId} ${d.fromDate} ${d.untilDate}`;
