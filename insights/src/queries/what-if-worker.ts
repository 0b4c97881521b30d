/**
 * The worker thread of the what-if replay (what-if.ts): reads the room's history from PostgreSQL
 * itself, with a connection of its own, in batches through cursors, and replays it through the
 * cart decider (`replay`, replay/what-if.ts) as it reads; answers the slots' outcomes. It shares nothing
 * with the server: the server's thread only waits for the answer.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import pg from 'pg';
import { initialRoomState, localDateTime, type BookingLimits, type RoomState } from '@rr/domain';
import {
  asStreamEvent,
  EventStore,
  inBatches,
  timeSlotStream,
  timeSlotStreamId,
  transactionStream,
  transactionStreamId,
  visitorStream,
  visitorStreamId,
  type RecordedEvent,
  type TimeSlotEvent,
  type TransactionEvent,
  type VisitorEvent,
} from '@rr/events';
import { cartKeyOf } from '@rr/platform/cart-key';
import {
  replay,
  type At,
  type RecordedCommit,
  type RecordedEntry,
  type RecordedRefusal,
  type SlotOutcome,
  type WhatIfChange,
} from '../replay/what-if.ts';

export interface WhatIfWork {
  databaseUrl: string;
  roomId: string;
  fromDate: string;
  untilDate: string;
  change: WhatIfChange;
  limits: BookingLimits;
  timeZone: string;
  /** The most events the replay reads; more are refused before any is read. */
  maxEvents: number;
  /** Events (and refusals) per fetch. */
  batchSize: number;
  /** The longest one statement may run (the replay's own time limit, in the database too). */
  timeLimitMs: number;
}

/** What one replay cost: its events, its time, and the worker's heap at its fullest. */
export interface WhatIfStats {
  events: number;
  ms: number;
  /** Of its time: until the count was known (the room, its slots, carts, visitors, the count). */
  countedMs: number;
  /** Of its time: waiting for the log's batches. */
  readMs: number;
  peakHeapBytes: number;
}

export type WhatIfAnswer =
  | { kind: 'done'; slots: SlotOutcome[]; stats: WhatIfStats }
  | { kind: 'no-room' }
  | { kind: 'too-large' }
  | { kind: 'failed'; error: string };

/** A stream id's kind and id: `timeslot-<id>`, `transaction-<id>`, `visitor-<key>`. */
function splitStreamId(streamId: string): [string, string] {
  const dash = streamId.indexOf('-');
  return [streamId.slice(0, dash), streamId.slice(dash + 1)];
}

/** The recorded event as the replay reads it, typed by its stream (asStreamEvent). */
function entryOf(e: RecordedEvent, at: At): RecordedEntry | null {
  const [stream, id] = splitStreamId(e.streamId);
  if (stream === timeSlotStream.kind) {
    const actor = e.metadata.actor.kind;
    return {
      stream: 'slot',
      timeSlotId: id,
      event: asStreamEvent<TimeSlotEvent>(e),
      at,
      byStaff: actor === 'admin' || actor === 'api-token',
    };
  }
  if (stream === transactionStream.kind)
    return {
      stream: 'cart',
      cartId: id,
      event: asStreamEvent<TransactionEvent>(e),
      at,
    };
  if (stream === visitorStream.kind)
    return {
      stream: 'visitor',
      visitorKey: id,
      event: asStreamEvent<VisitorEvent>(e),
      at,
    };
  return null;
}

// The replay decides most requests of a busy history by a refusal (an exception): their stack
// traces would be a good part of its time, and nothing reads them.
Error.stackTraceLimit = 0;

let peakHeapBytes = 0;
const noteHeap = () => {
  peakHeapBytes = Math.max(peakHeapBytes, getHeapStatistics().used_heap_size);
};

async function replayRoom(work: WhatIfWork, client: pg.PoolClient, store: EventStore) {
  const started = performance.now();
  // The local day and time of an instant, worked out once per minute: the log comes in time
  // order, so most events share the minute of the one before (time zones move by whole minutes).
  let minute = NaN;
  let local = { date: '', time: '' };
  const at = (now: Date): At => {
    const m = Math.floor(now.getTime() / 60_000);
    if (m !== minute) {
      minute = m;
      local = localDateTime(now, work.timeZone);
    }
    return { now, today: local.date, time: local.time };
  };
  const roomRow = await client.query<{ services: RoomState['services'] | null }>(
    'SELECT services FROM rm_rooms WHERE id = $1',
    [work.roomId],
  );
  if (!roomRow.rows[0]) return { kind: 'no-room' } as const;
  // The room's services as the replay needs them (its waitlist); nothing else of the room counts.
  const room: RoomState = {
    ...initialRoomState,
    status: 'active',
    services: { ...initialRoomState.services, ...(roomRow.rows[0].services ?? {}) },
  };
  const ids = (
    await client.query<{ id: string }>(
      `SELECT time_slot_id AS id FROM rm_insight_slots
        WHERE room_id = $1 AND date BETWEEN $2::date AND $3::date ORDER BY date, start_min`,
      [work.roomId, work.fromDate, work.untilDate],
    )
  ).rows.map((r) => r.id);
  const slotStreams = ids.map(timeSlotStreamId);
  // A changed limit per visitor and day needs who asked: the carts that held the slots' seats
  // (their streams: what else they held, whether and by which visitor key they were booked) and
  // those visitors' streams (their other bookings). Keys only, no personal data.
  const cartIds =
    work.change.maxTicketsPerDay === undefined
      ? []
      : (
          await client.query<{ id: string }>(
            `SELECT DISTINCT data->>'transactionId' AS id FROM events
              WHERE stream_id = ANY($1::text[]) AND event_type = 'TicketHeld'`,
            [slotStreams],
          )
        ).rows.map((r) => r.id);
  const cartStreams = cartIds.map(transactionStreamId);
  const visitorOf = new Map(
    cartStreams.length === 0
      ? []
      : (
          await client.query<{ cart: string; key: string }>(
            // The visitor stream a booking counted on: its subject's when booked signed in
            // (TransactionBooked version 2), else its address's.
            `SELECT substr(stream_id, length('transaction-') + 1) AS cart,
                    COALESCE(data->>'subjectKey', data->>'visitorKey') AS key
               FROM events WHERE stream_id = ANY($1::text[]) AND event_type = 'TransactionBooked'`,
            [cartStreams],
          )
        ).rows.map((r) => [r.cart, r.key] as const),
  );
  const visitorStreams = [...new Set(visitorOf.values())].map(visitorStreamId);
  const streams = [...slotStreams, ...cartStreams, ...visitorStreams];
  // Counted before anything is read: a history over the cap costs one count, no replay.
  const count = await client.query<{ n: string }>(
    'SELECT count(*) AS n FROM events WHERE stream_id = ANY($1::text[])',
    [streams],
  );
  if (Number(count.rows[0]!.n) > work.maxEvents) return { kind: 'too-large' } as const;

  const countedMs = performance.now() - started;
  let events = 0;
  let readMs = 0;
  /** The log commit by commit, read a batch at a time. */
  async function* log(): AsyncGenerator<RecordedCommit> {
    let commit: RecordedEntry[] = [];
    let tx: bigint | null = null;
    const batches = store.readStreamsInBatches(streams, work.batchSize, client);
    for (;;) {
      const asked = performance.now();
      const next = await batches.next();
      readMs += performance.now() - asked;
      if (next.done) break;
      const batch = next.value;
      events += batch.length;
      for (const e of batch) {
        if (tx !== null && e.position.tx !== tx) {
          yield commit;
          commit = [];
        }
        tx = e.position.tx;
        const entry = entryOf(e, at(e.createdAt));
        if (entry) commit.push(entry);
      }
      noteHeap();
    }
    if (commit.length > 0) yield commit;
  }
  // A refused cart is known by the hash of its id: the carts read are matched by theirs.
  const cartOfKey = new Map(cartIds.map((id) => [cartKeyOf(id), id]));
  async function* refusals(): AsyncGenerator<RecordedRefusal> {
    for await (const rows of inBatches<{ id: string; at: Date; cart_key: string }>(
      client,
      `SELECT time_slot_id AS id, first_refused_at AS at, cart_key FROM cart_refusals
        WHERE time_slot_id = ANY($1::uuid[]) AND rule = 'timeslot_no_tickets_left'
        ORDER BY first_refused_at, cart_key`,
      [ids],
      work.batchSize,
    ))
      for (const r of rows)
        yield { timeSlotId: r.id, at: at(r.at), cartId: cartOfKey.get(r.cart_key) };
  }
  const slots = await replay(
    { slotIds: ids, log: log(), refusals: refusals(), visitorOf },
    room,
    work.limits,
    work.change,
  );
  noteHeap();
  return { kind: 'done', slots, events, countedMs, readMs } as const;
}

async function answer(work: WhatIfWork): Promise<WhatIfAnswer> {
  const started = performance.now();
  const pool = new pg.Pool({
    connectionString: work.databaseUrl,
    max: 1,
    application_name: 'rr-what-if',
  });
  try {
    const client = await pool.connect();
    try {
      // One snapshot for the count and every batch: the replay reads what was counted.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(`SET LOCAL statement_timeout = ${Math.ceil(work.timeLimitMs)}`);
      const result = await replayRoom(work, client, new EventStore(pool));
      await client.query('COMMIT');
      if (result.kind !== 'done') return result;
      return {
        kind: 'done',
        slots: result.slots,
        stats: {
          events: result.events,
          ms: performance.now() - started,
          countedMs: result.countedMs,
          readMs: result.readMs,
          peakHeapBytes,
        },
      };
    } finally {
      client.release();
    }
  } catch (err) {
    return { kind: 'failed', error: String(err) };
  } finally {
    await pool.end();
  }
}

parentPort?.on('message', (work: WhatIfWork) => {
  void answer(work).then((a) => parentPort?.postMessage(a));
});
