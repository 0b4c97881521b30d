// Over 300 lines: the event store's contract, one describe per area, on one database with shared
// helpers (newRoom, snapshot).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import {
  comparePositions,
  ConcurrencyError,
  EventStore,
  RoomCreated,
  RoomUpdated,
  START,
  StoreSession,
  UnknownEventError,
  Upcasters,
  type AppendOptions,
  type AppendRequest,
  type NewEvent,
  type Position,
} from '@rr/events';
import { createPool, type Pool } from '@rr/platform';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { roundTripProxy } from '../../tests/support/round-trip-proxy.ts';
import { readVisible } from '../../tests/support/visible.ts';
import { roomDetails } from '../../tests/support/room-events.ts';

let db: TestDatabase;
let store: EventStore;

const options: AppendOptions = { metadata: { actor: { kind: 'system', job: 'store-test' } } };

/** A new room stream: its id and its RoomCreated event (validated by the catalogue). */
function newRoom(name?: string): { streamId: string; roomId: string; created: NewEvent } {
  const roomId = randomUUID();
  return {
    streamId: `room-${roomId}`,
    roomId,
    created: RoomCreated.create(roomDetails(roomId, name)),
  };
}

const updated = (roomId: string, name: string): NewEvent =>
  RoomUpdated.create(roomDetails(roomId, name));

async function streamRow(streamId: string): Promise<{ version: number; type: string } | null> {
  const r = await db.pool.query<{ version: string; stream_type: string }>(
    'SELECT version::text AS version, stream_type FROM streams WHERE stream_id = $1',
    [streamId],
  );
  const row = r.rows[0];
  return row ? { version: Number(row.version), type: row.stream_type } : null;
}

/** Every row of both store tables, in a stable order: "nothing changed" means this is equal. */
async function snapshot(): Promise<{ events: unknown[]; streams: unknown[] }> {
  const events = await db.pool.query(
    `SELECT global_position::text, transaction_id::text, stream_id, stream_version::text, event_id,
            event_type, data, metadata, created_at
       FROM events ORDER BY global_position`,
  );
  const streams = await db.pool.query(
    'SELECT stream_id, stream_type, version::text FROM streams ORDER BY stream_id',
  );
  return { events: events.rows, streams: streams.rows };
}

async function lastPositionOf(streamIds: string[]): Promise<Position> {
  const r = await db.pool.query<{ tx: string; gp: string }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp FROM events
      WHERE stream_id = ANY($1) ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    [streamIds],
  );
  const row = r.rows[0]!;
  return { tx: BigInt(row.tx), gp: BigInt(row.gp) };
}

/** The newest committed event's position, straight from the table. */
async function endOfLog(): Promise<Position> {
  const r = await db.pool.query<{ tx: string; gp: string }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp FROM events
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  const row = r.rows[0];
  return row ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : START;
}

/** Resolves when `n` callers have arrived: makes concurrent transactions really overlap. */
function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived += 1;
    if (arrived === n) open();
    return opened;
  };
}

function expectConcurrencyError(
  err: unknown,
  streamId: string,
  expected: unknown,
  actual: number | null,
): void {
  expect(err).toBeInstanceOf(ConcurrencyError);
  const e = err as ConcurrencyError;
  expect(e.streamId).toBe(streamId);
  expect(e.expected).toBe(expected);
  expect(e.actual).toBe(actual);
}

beforeAll(async () => {
  db = await createTestDatabase();
  store = db.store;
});

afterAll(async () => {
  await db.drop();
});

describe('optimistic concurrency under real concurrency', () => {
  it('two writers with the same numeric expected version: exactly one wins, 20 times over', async () => {
    // Count how many pool connections are checked out at once: the two appends must overlap.
    let inUse = 0;
    let maxInUse = 0;
    const onAcquire = () => {
      inUse += 1;
      maxInUse = Math.max(maxInUse, inUse);
    };
    const onRelease = () => {
      inUse -= 1;
    };
    db.pool.on('acquire', onAcquire);
    db.pool.on('release', onRelease);
    try {
      const { streamId, roomId, created } = newRoom();
      await store.appendToStream(streamId, 'room', 'no_stream', [created], options);
      let version = 1;
      for (let round = 0; round < 20; round++) {
        const results = await Promise.allSettled([
          store.appendToStream(streamId, 'room', version, [updated(roomId, `a${round}`)], options),
          store.appendToStream(streamId, 'room', version, [updated(roomId, `b${round}`)], options),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expectConcurrencyError(lost[0]!.reason, streamId, version, version + 1);
        expect(won[0]!.value.streams).toEqual([{ streamId, version: version + 1 }]);
        version += 1;
      }
      expect(maxInUse).toBeGreaterThanOrEqual(2);
      const { version: finalVersion, events } = await store.readStream(streamId);
      expect(finalVersion).toBe(21);
      expect(events.map((e) => e.streamVersion)).toEqual(
        Array.from({ length: 21 }, (_, i) => i + 1),
      );
      expect((await streamRow(streamId))?.version).toBe(21);
    } finally {
      db.pool.off('acquire', onAcquire);
      db.pool.off('release', onRelease);
    }
  });

  it('two writers creating the same stream with no_stream: exactly one wins, 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const { streamId, roomId } = newRoom();
      const results = await Promise.allSettled([
        store.appendToStream(
          streamId,
          'room',
          'no_stream',
          [RoomCreated.create(roomDetails(roomId, 'a'))],
          options,
        ),
        store.appendToStream(
          streamId,
          'room',
          'no_stream',
          [RoomCreated.create(roomDetails(roomId, 'b'))],
          options,
        ),
      ]);
      const lost = results.filter((r) => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expectConcurrencyError(lost[0]!.reason, streamId, 'no_stream', 1);
      const { events } = await store.readStream(streamId);
      expect(events).toHaveLength(1);
    }
  });

  it('two transactions that both read version N and append at N: one commits, one gets ConcurrencyError', async () => {
    const { streamId, roomId, created } = newRoom();
    await store.appendToStream(streamId, 'room', 'no_stream', [created], options);
    for (let round = 0; round < 10; round++) {
      const bothRead = barrier(2);
      const writer = (name: string) =>
        store.transaction(async (s) => {
          const { version } = await s.readStream(streamId);
          await bothRead(); // both transactions are open and saw the same version
          return s.append(
            [
              {
                streamId,
                streamType: 'room',
                expectedVersion: version,
                events: [updated(roomId, name)],
              },
            ],
            options,
          );
        });
      const results = await Promise.allSettled([writer(`x${round}`), writer(`y${round}`)]);
      const lost = results.filter((r) => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expectConcurrencyError(lost[0]!.reason, streamId, round + 1, round + 2);
    }
    expect((await store.readStream(streamId)).version).toBe(11);
  });
});

describe('expected versions', () => {
  it('no_stream on an existing stream fails with the actual version and writes nothing', async () => {
    const { streamId, roomId, created } = newRoom();
    await store.appendToStream(streamId, 'room', 'no_stream', [created], options);
    const before = await snapshot();
    const err = await store
      .appendToStream(streamId, 'room', 'no_stream', [updated(roomId, 'again')], options)
      .catch((e: unknown) => e);
    expectConcurrencyError(err, streamId, 'no_stream', 1);
    expect(await snapshot()).toEqual(before);
  });

  it('expected version 0 means the stream must not exist', async () => {
    const { streamId, roomId, created } = newRoom();
    const r = await store.appendToStream(streamId, 'room', 0, [created], options);
    expect(r.streams).toEqual([{ streamId, version: 1 }]);
    const err = await store
      .appendToStream(streamId, 'room', 0, [updated(roomId, 'x')], options)
      .catch((e: unknown) => e);
    expectConcurrencyError(err, streamId, 0, 1);
  });

  it('any creates a missing stream and appends to an existing one', async () => {
    const { streamId, roomId, created } = newRoom();
    const first = await store.appendToStream(streamId, 'room', 'any', [created], options);
    expect(first.streams).toEqual([{ streamId, version: 1 }]);
    expect(await streamRow(streamId)).toEqual({ version: 1, type: 'room' });
    const second = await store.appendToStream(
      streamId,
      'room',
      'any',
      [updated(roomId, 'b'), updated(roomId, 'c')],
      options,
    );
    expect(second.streams).toEqual([{ streamId, version: 3 }]);
    const { events } = await store.readStream(streamId);
    expect(events.map((e) => [e.streamVersion, e.type])).toEqual([
      [1, 'RoomCreated'],
      [2, 'RoomUpdated'],
      [3, 'RoomUpdated'],
    ]);
  });

  it('stream_exists fails on a missing stream and appends to an existing one', async () => {
    const { streamId, roomId, created } = newRoom();
    const before = await snapshot();
    const err = await store
      .appendToStream(streamId, 'room', 'stream_exists', [created], options)
      .catch((e: unknown) => e);
    expectConcurrencyError(err, streamId, 'stream_exists', null);
    expect(await snapshot()).toEqual(before);

    await store.appendToStream(streamId, 'room', 'no_stream', [created], options);
    const r = await store.appendToStream(
      streamId,
      'room',
      'stream_exists',
      [updated(roomId, 'b')],
      options,
    );
    expect(r.streams).toEqual([{ streamId, version: 2 }]);
  });

  it('a numeric expected version that is behind, ahead, or on a missing stream fails', async () => {
    const { streamId, roomId, created } = newRoom();
    let err = await store
      .appendToStream(streamId, 'room', 1, [created], options)
      .catch((e: unknown) => e);
    expectConcurrencyError(err, streamId, 1, null);
    await store.appendToStream(
      streamId,
      'room',
      'no_stream',
      [created, updated(roomId, 'b')],
      options,
    );
    const before = await snapshot();
    err = await store
      .appendToStream(streamId, 'room', 1, [updated(roomId, 'c')], options)
      .catch((e: unknown) => e);
    expectConcurrencyError(err, streamId, 1, 2);
    err = await store
      .appendToStream(streamId, 'room', 3, [updated(roomId, 'c')], options)
      .catch((e: unknown) => e);
    expectConcurrencyError(err, streamId, 3, 2);
    expect(await snapshot()).toEqual(before);
    const ok = await store.appendToStream(streamId, 'room', 2, [updated(roomId, 'c')], options);
    expect(ok.streams).toEqual([{ streamId, version: 3 }]);
  });
});

describe('appendMany', () => {
  it('writes to several streams in one database transaction', async () => {
    const a = newRoom();
    const b = newRoom();
    const r = await store.appendMany(
      [
        {
          streamId: a.streamId,
          streamType: 'room',
          expectedVersion: 'no_stream',
          events: [a.created],
        },
        {
          streamId: b.streamId,
          streamType: 'room',
          expectedVersion: 'no_stream',
          events: [b.created, updated(b.roomId, 'b2')],
        },
      ],
      options,
    );
    expect(r.streams).toEqual(
      expect.arrayContaining([
        { streamId: a.streamId, version: 1 },
        { streamId: b.streamId, version: 2 },
      ]),
    );
    const txs = await db.pool.query<{ tx: string }>(
      'SELECT DISTINCT transaction_id::text AS tx FROM events WHERE stream_id = ANY($1)',
      [[a.streamId, b.streamId]],
    );
    expect(txs.rows).toHaveLength(1);
  });

  it('one wrong expected version writes nothing to any stream', async () => {
    // Stream ids sort a < b < c < d, so the store has already claimed a, b and c when d fails.
    const tag = randomUUID();
    const ids = ['a', 'b', 'c', 'd'].map((k) => `atomic-${tag}-${k}`);
    const [a, b, c, d] = ids as [string, string, string, string];
    const room = () => RoomCreated.create(roomDetails(randomUUID()));
    await store.appendToStream(a, 'room', 'no_stream', [room(), room()], options);
    await store.appendToStream(d, 'room', 'no_stream', [room()], options);
    const before = await snapshot();

    const requests: AppendRequest[] = [
      { streamId: a, streamType: 'room', expectedVersion: 2, events: [room()] },
      { streamId: b, streamType: 'room', expectedVersion: 'no_stream', events: [room(), room()] },
      { streamId: c, streamType: 'room', expectedVersion: 'any', events: [room()] },
      { streamId: d, streamType: 'room', expectedVersion: 5, events: [room()] },
    ];
    const err = await store.appendMany(requests, options).catch((e: unknown) => e);
    expectConcurrencyError(err, d, 5, 1);
    expect(await snapshot()).toEqual(before);
    expect(await streamRow(a)).toEqual({ version: 2, type: 'room' });
    expect(await streamRow(b)).toBeNull();
    expect(await streamRow(c)).toBeNull();
    expect(await streamRow(d)).toEqual({ version: 1, type: 'room' });

    // The same request with the right version for d goes through, all four streams at once.
    const ok = await store.appendMany(
      requests.map((r) => (r.streamId === d ? { ...r, expectedVersion: 1 } : r)),
      options,
    );
    expect(new Map(ok.streams.map((s) => [s.streamId, s.version]))).toEqual(
      new Map([
        [a, 3],
        [b, 2],
        [c, 1],
        [d, 2],
      ]),
    );
  });

  it('a no_stream conflict on one stream leaves new streams of the same append uncreated', async () => {
    const tag = randomUUID();
    const existing = `atomic-${tag}-z`;
    const fresh = `atomic-${tag}-a`;
    await store.appendToStream(
      existing,
      'room',
      'no_stream',
      [RoomCreated.create(roomDetails(randomUUID()))],
      options,
    );
    const before = await snapshot();
    const err = await store
      .appendMany(
        [
          {
            streamId: existing,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [RoomCreated.create(roomDetails(randomUUID()))],
          },
          {
            streamId: fresh,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [RoomCreated.create(roomDetails(randomUUID()))],
          },
        ],
        options,
      )
      .catch((e: unknown) => e);
    expectConcurrencyError(err, existing, 'no_stream', 1);
    expect(await snapshot()).toEqual(before);
  });
});

describe('statements sent without waiting (a pipelined connection)', () => {
  const touch = 'UPDATE streams SET version = version + $2 WHERE stream_id = $1';

  type Room = ReturnType<typeof newRoom>;

  /**
   * A transaction on a pipelined store: locks and reads room x, sends x's update at version 1 and
   * `created`'s first event (a new stream) without waiting, then `touch` of a stream by a number,
   * then whatever `after` does.
   */
  const sendOn = (
    on: EventStore,
    x: Room,
    created: Room | null,
    touched: [string, number],
    after?: (s: StoreSession) => Promise<unknown>,
  ) =>
    on.transaction(async (s) => {
      await s.lockAndReadStreams([x.streamId]);
      const update = { streamId: x.streamId, streamType: 'room', expectedVersion: 1 };
      await s.sendAppend(
        [
          { ...update, events: [updated(x.roomId, 'X2')] },
          ...(created
            ? [
                {
                  streamId: created.streamId,
                  streamType: 'room',
                  expectedVersion: 0,
                  events: [created.created],
                },
              ]
            : []),
        ],
        options,
      );
      await s.send(touch, touched);
      await after?.(s);
    });

  /** A room whose stream is at version 1. */
  async function existingRoom(): Promise<Room> {
    const x = newRoom();
    await store.appendToStream(x.streamId, 'room', 'no_stream', [x.created], options);
    return x;
  }

  /** The round trips of sendOn through the proxy, and that it wrote what it sent. */
  async function roundTripsOf(pool: Pool, proxy: Awaited<ReturnType<typeof roundTripProxy>>) {
    await pool.query('SELECT 1');
    const x = await existingRoom();
    const fresh = newRoom();
    proxy.reset();
    const through = new EventStore(pool, { clock: store.clock });
    const { position } = await sendOn(through, x, fresh, [fresh.streamId, 0]);
    const trips = proxy.roundTrips();
    expect(await streamRow(x.streamId)).toEqual({ version: 2, type: 'room' });
    expect(await streamRow(fresh.streamId)).toEqual({ version: 1, type: 'room' });
    expect(position).not.toBeNull();
    expect(comparePositions(position!, await lastPositionOf([x.streamId, fresh.streamId]))).toBe(0);
    return trips;
  }

  it('BEGIN goes with the first read, and the append, the writes and the commit in one round trip', async () => {
    const proxy = await roundTripProxy(db.url);
    const pipelined = createPool(proxy.url, 1);
    const oneByOne = createPool(proxy.url, 1, { pipeline: false });
    try {
      // BEGIN with lock and read; append, write and COMMIT.
      expect(await roundTripsOf(pipelined, proxy)).toBe(2);
      // BEGIN, lock and read, append, write, COMMIT.
      expect(await roundTripsOf(oneByOne, proxy)).toBe(5);
    } finally {
      await Promise.all([pipelined.end(), oneByOne.end()]);
      await proxy.close();
    }
  });

  it('a new stream another writer created first fails the append sent on; nothing behind it commits', async () => {
    const x = await existingRoom();
    const taken = await existingRoom();
    const before = await snapshot();
    const err = await sendOn(store, x, taken, [x.streamId, 100]).catch((e: unknown) => e);
    expectConcurrencyError(err, taken.streamId, 0, 1);
    expect(await snapshot()).toEqual(before);
  });

  it('a failed write sent on is the error the transaction reports, not what failed after it', async () => {
    const x = await existingRoom();
    const before = await snapshot();
    // A version is never negative (check constraint): the write fails and aborts the
    // transaction; the read after it meets the aborted transaction.
    const err = await sendOn(store, x, null, [x.streamId, -100], (s) =>
      s.client.query('SELECT 1'),
    ).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('23514');
    expect(await snapshot()).toEqual(before);
  });

  it('a named write is prepared once per connection, also when its first sending failed', async () => {
    const x = await existingRoom();
    const named = { name: 'rr_test_touch', text: touch };
    const pool = createPool(db.url, 1);
    const on = new EventStore(pool, { clock: store.clock });
    try {
      // The write before it fails: the named one meets an aborted transaction and is not prepared.
      const err = await on
        .transaction(async (s) => {
          await s.send(touch, [x.streamId, -100]);
          await s.send(named, [x.streamId, 1]);
        })
        .catch((e: unknown) => e);
      expect((err as { code?: string }).code).toBe('23514');
      for (const by of [1, 2])
        await on.transaction(async (s) => {
          await s.send(named, [x.streamId, by]);
          await s.send(named, [x.streamId, by]);
        });
      expect(await streamRow(x.streamId)).toEqual({ version: 7, type: 'room' });
      const prepared = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_prepared_statements WHERE name = 'rr_test_touch'`,
      );
      expect(prepared.rows[0]!.n).toBe('1');
    } finally {
      await pool.end();
    }
  });
});

describe('locked sessions (lockStreams, readStreams, one-statement append)', () => {
  it('locks and reads several streams at once, and appends to them and to a new stream in one go', async () => {
    const x = newRoom();
    const y = newRoom();
    await store.appendToStream(x.streamId, 'room', 'no_stream', [x.created], options);
    await store.appendToStream(y.streamId, 'room', 'no_stream', [y.created], options);
    await store.appendToStream(y.streamId, 'room', 1, [updated(y.roomId, 'Y2')], options);
    const fresh = newRoom();
    const { result } = await store.transaction(async (s) => {
      const read = await s.lockAndReadStreams([y.streamId, x.streamId, fresh.streamId, x.streamId]);
      expect([...read.keys()].sort()).toEqual([x.streamId, y.streamId, fresh.streamId].sort());
      expect(read.get(x.streamId)!.map((e) => e.streamVersion)).toEqual([1]);
      expect(read.get(y.streamId)!.map((e) => e.streamVersion)).toEqual([1, 2]);
      expect(read.get(y.streamId)!.map((e) => e.type)).toEqual(['RoomCreated', 'RoomUpdated']);
      expect(read.get(fresh.streamId)).toEqual([]);
      return s.append(
        [
          {
            streamId: y.streamId,
            streamType: 'room',
            expectedVersion: 2,
            events: [updated(y.roomId, 'Y3')],
          },
          {
            streamId: fresh.streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [fresh.created],
          },
          {
            streamId: x.streamId,
            streamType: 'room',
            expectedVersion: 1,
            events: [updated(x.roomId, 'X2'), updated(x.roomId, 'X3')],
          },
        ],
        options,
      );
    });
    expect(new Map(result.streams.map((st) => [st.streamId, st.version]))).toEqual(
      new Map([
        [y.streamId, 3],
        [fresh.streamId, 1],
        [x.streamId, 3],
      ]),
    );
    expect(await streamRow(x.streamId)).toEqual({ version: 3, type: 'room' });
    expect(await streamRow(fresh.streamId)).toEqual({ version: 1, type: 'room' });
    expect((await store.readStream(x.streamId)).events.map((e) => e.streamVersion)).toEqual([
      1, 2, 3,
    ]);
    expect(comparePositions(result.position, await lastPositionOf([x.streamId, y.streamId]))).toBe(
      0,
    );
  });

  it('a wrong version on a locked stream writes nothing, not even the new streams of the append', async () => {
    const x = newRoom();
    await store.appendToStream(x.streamId, 'room', 'no_stream', [x.created], options);
    const fresh = newRoom();
    const before = await snapshot();
    const err = await store
      .transaction(async (s) => {
        await s.lockAndReadStreams([x.streamId]);
        return s.append(
          [
            {
              streamId: fresh.streamId,
              streamType: 'room',
              expectedVersion: 'no_stream',
              events: [fresh.created],
            },
            {
              streamId: x.streamId,
              streamType: 'room',
              expectedVersion: 4,
              events: [updated(x.roomId, 'X2')],
            },
          ],
          options,
        );
      })
      .catch((e: unknown) => e);
    expectConcurrencyError(err, x.streamId, 4, 1);
    expect(await snapshot()).toEqual(before);
  });

  it('a new stream created meanwhile by another writer fails the one-statement append cleanly', async () => {
    const x = newRoom();
    await store.appendToStream(x.streamId, 'room', 'no_stream', [x.created], options);
    const taken = newRoom();
    await store.appendToStream(taken.streamId, 'room', 'no_stream', [taken.created], options);
    const before = await snapshot();
    const err = await store
      .transaction(async (s) => {
        await s.lockAndReadStreams([x.streamId]);
        return s.append(
          [
            {
              streamId: x.streamId,
              streamType: 'room',
              expectedVersion: 1,
              events: [updated(x.roomId, 'X2')],
            },
            {
              streamId: taken.streamId,
              streamType: 'room',
              expectedVersion: 'no_stream',
              events: [taken.created],
            },
          ],
          options,
        );
      })
      .catch((e: unknown) => e);
    expectConcurrencyError(err, taken.streamId, 'no_stream', 1);
    expect(await snapshot()).toEqual(before);
  });
});

describe('validation against the catalogue', () => {
  it('an unknown event type throws and writes nothing', async () => {
    const { streamId, created } = newRoom();
    const before = await snapshot();
    const err = await store
      .appendToStream(
        streamId,
        'room',
        'no_stream',
        [created, { type: 'RoomExploded', data: {} }],
        options,
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownEventError);
    expect(await snapshot()).toEqual(before);
  });

  it('data that does not match the schema throws and writes nothing', async () => {
    const { streamId, roomId } = newRoom();
    const before = await snapshot();
    for (const data of [
      { ...roomDetails(roomId), capacity: -1 },
      { ...roomDetails(roomId), roomId: 'not-a-uuid' },
      { ...roomDetails(roomId), openStart: { type: 'WEEK', value: 1 } },
      { roomId },
    ]) {
      const err = await store
        .appendToStream(streamId, 'room', 'no_stream', [{ type: 'RoomCreated', data }], options)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ZodError);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('an invalid event in one stream of appendMany writes nothing to the others', async () => {
    const good = newRoom();
    const bad = newRoom();
    const before = await snapshot();
    const err = await store
      .appendMany(
        [
          {
            streamId: good.streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [good.created],
          },
          {
            streamId: bad.streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [{ type: 'RoomCreated', data: { ...roomDetails(bad.roomId), capacity: 1.5 } }],
          },
        ],
        options,
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZodError);
    expect(await snapshot()).toEqual(before);
  });

  it('a store without a validator accepts any shape (the validator is what rejects)', async () => {
    const raw = new EventStore(db.pool);
    const streamId = `raw-${randomUUID()}`;
    await raw.appendToStream(
      streamId,
      'raw',
      'no_stream',
      [{ type: 'RoomExploded', data: {} }],
      options,
    );
    expect((await raw.readStream(streamId)).events.map((e) => e.type)).toEqual(['RoomExploded']);
  });
});

describe('metadata', () => {
  it('stores correlationId, causationId, actor and schemaVersion and reads them back', async () => {
    const { streamId, roomId, created } = newRoom();
    const correlationId = randomUUID();
    const causationId = randomUUID();
    const eventId = randomUUID();
    await store.appendToStream(
      streamId,
      'room',
      'no_stream',
      [
        { ...created, eventId },
        // Per-event metadata wins over the append's.
        { ...updated(roomId, 'b'), metadata: { causationId: eventId, schemaVersion: 2 } },
      ],
      { metadata: { actor: { kind: 'admin', username: 'boss' }, correlationId, causationId } },
    );
    const raw = await db.pool.query<{ event_id: string; metadata: unknown }>(
      'SELECT event_id, metadata FROM events WHERE stream_id = $1 ORDER BY stream_version',
      [streamId],
    );
    expect(raw.rows.map((r) => r.metadata)).toEqual([
      { correlationId, causationId, actor: { kind: 'admin', username: 'boss' }, schemaVersion: 1 },
      {
        correlationId,
        causationId: eventId,
        actor: { kind: 'admin', username: 'boss' },
        schemaVersion: 2,
      },
    ]);
    expect(raw.rows[0]!.event_id).toBe(eventId);

    const { events } = await store.readStream(streamId);
    expect(events[0]!.eventId).toBe(eventId);
    expect(events[0]!.metadata).toEqual({
      correlationId,
      causationId,
      actor: { kind: 'admin', username: 'boss' },
      schemaVersion: 1,
    });
    expect(events[1]!.metadata).toEqual({
      correlationId,
      causationId: eventId,
      actor: { kind: 'admin', username: 'boss' },
      schemaVersion: 2,
    });
    expect(events[0]!.data).toEqual(created.data);
    expect(events[0]!.createdAt).toBeInstanceOf(Date);
  });

  it('without a correlationId every event of one append shares a fresh one; causationId is null', async () => {
    const a = newRoom();
    const b = newRoom();
    await store.appendToStream(
      a.streamId,
      'room',
      'no_stream',
      [a.created, updated(a.roomId, 'x')],
      {
        metadata: { actor: { kind: 'visitor' } },
      },
    );
    await store.appendToStream(b.streamId, 'room', 'no_stream', [b.created], {
      metadata: { actor: { kind: 'visitor' } },
    });
    const ea = (await store.readStream(a.streamId)).events;
    const eb = (await store.readStream(b.streamId)).events;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(ea[0]!.metadata.correlationId).toMatch(uuid);
    expect(ea[1]!.metadata.correlationId).toBe(ea[0]!.metadata.correlationId);
    expect(eb[0]!.metadata.correlationId).not.toBe(ea[0]!.metadata.correlationId);
    expect(ea.map((e) => e.metadata.causationId)).toEqual([null, null]);
    expect(ea.map((e) => e.metadata.actor)).toEqual([{ kind: 'visitor' }, { kind: 'visitor' }]);
    expect(ea.map((e) => e.metadata.schemaVersion)).toEqual([1, 1]);
  });

  it('an event id can be written only once; the append that repeats it writes nothing', async () => {
    const a = newRoom();
    const b = newRoom();
    const eventId = randomUUID();
    await store.appendToStream(
      a.streamId,
      'room',
      'no_stream',
      [{ ...a.created, eventId }],
      options,
    );
    const before = await snapshot();
    await expect(
      store.appendToStream(b.streamId, 'room', 'no_stream', [{ ...b.created, eventId }], options),
    ).rejects.toThrow(/duplicate key/);
    expect(await snapshot()).toEqual(before);
  });
});

describe('reading', () => {
  it('readStream returns the events in stream-version order and the current version', async () => {
    const { streamId, roomId, created } = newRoom();
    await store.appendToStream(streamId, 'room', 'no_stream', [created], options);
    // Interleave appends to another stream, so global positions of this stream are not contiguous,
    // and go past 9 events, so an order by the version's text ("10" < "9") would show.
    const other = newRoom();
    await store.appendToStream(other.streamId, 'room', 'no_stream', [other.created], options);
    const names = ['Reading room'];
    for (let v = 1; v < 12; v += 2) {
      const batch = [updated(roomId, `n${v + 1}`), updated(roomId, `n${v + 2}`)];
      await store.appendToStream(streamId, 'room', v, batch, options);
      await store.appendToStream(
        other.streamId,
        'room',
        'any',
        [updated(other.roomId, 'o')],
        options,
      );
      names.push(`n${v + 1}`, `n${v + 2}`);
    }

    const { version, events } = await store.readStream(streamId);
    expect(version).toBe(13);
    expect(events.map((e) => e.streamVersion)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(events.map((e) => e.streamId)).toEqual(Array(13).fill(streamId));
    expect(events.map((e) => (e.data as { name: string }).name)).toEqual(names);
    for (let i = 1; i < events.length; i++) {
      expect(comparePositions(events[i - 1]!.position, events[i]!.position)).toBeLessThan(0);
    }
    // The version readStream reports is the one the next append must expect.
    await store.appendToStream(streamId, 'room', version, [updated(roomId, 'last')], options);
    expect((await store.readStream(streamId)).version).toBe(14);
  });

  it('readStream of a stream that does not exist is empty at version 0', async () => {
    expect(await store.readStream(`room-${randomUUID()}`)).toEqual({ version: 0, events: [] });
  });

  it('readStreams returns only the given streams, interleaved in commit order, upcast', async () => {
    const a = newRoom('a0');
    const b = newRoom('b0');
    const c = newRoom('c0');
    await store.appendToStream(a.streamId, 'room', 'no_stream', [a.created], options);
    await store.appendToStream(b.streamId, 'room', 'no_stream', [b.created], options);
    await store.appendToStream(c.streamId, 'room', 'no_stream', [c.created], options);
    await store.appendToStream(a.streamId, 'room', 1, [updated(a.roomId, 'a1')], options);
    await store.appendToStream(b.streamId, 'room', 1, [updated(b.roomId, 'b1')], options);
    const upcasters = new Upcasters().register('RoomUpdated', 1, (d) => ({
      ...(d as object),
      upcast: true,
    }));
    const reader = new EventStore(db.pool, { upcasters });

    const events = await reader.readStreams([b.streamId, a.streamId, `room-${randomUUID()}`]);
    expect(events.map((e) => (e.data as { name: string }).name)).toEqual(['a0', 'b0', 'a1', 'b1']);
    expect(events.map((e) => (e.data as { upcast?: boolean }).upcast)).toEqual([
      undefined,
      undefined,
      true,
      true,
    ]);
    expect(events.map((e) => e.metadata.schemaVersion)).toEqual([1, 1, 2, 2]);
    for (let i = 1; i < events.length; i++) {
      expect(comparePositions(events[i - 1]!.position, events[i]!.position)).toBeLessThan(0);
    }
    expect(await reader.readStreams([])).toEqual([]);
  });

  it('readStreamsInBatches gives what readStreams gives, in batches of at most the size, and frees its cursor when the reader stops', async () => {
    const a = newRoom('a0');
    const b = newRoom('b0');
    await store.appendToStream(a.streamId, 'room', 'no_stream', [a.created], options);
    await store.appendToStream(b.streamId, 'room', 'no_stream', [b.created], options);
    for (let i = 1; i <= 5; i++) {
      await store.appendToStream(a.streamId, 'room', i, [updated(a.roomId, `a${i}`)], options);
      await store.appendToStream(b.streamId, 'room', i, [updated(b.roomId, `b${i}`)], options);
    }
    const streams = [a.streamId, b.streamId];
    const whole = await store.readStreams(streams);
    expect(whole).toHaveLength(12);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      for (const size of [1, 5, 12, 100]) {
        const batches: number[] = [];
        const read = [];
        for await (const batch of store.readStreamsInBatches(streams, size, client)) {
          batches.push(batch.length);
          read.push(...batch);
        }
        expect(read).toEqual(whole);
        expect(Math.max(...batches)).toBeLessThanOrEqual(size);
        expect(batches.length).toBe(Math.ceil(12 / size));
      }
      // A reader that read to the end or stopped after the first batch leaves no cursor open.
      for await (const batch of store.readStreamsInBatches(streams, 4, client)) {
        expect(batch).toHaveLength(4);
        break;
      }
      const open = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_cursors');
      expect(open.rows[0]!.n).toBe('0');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });

  it('readAll returns committed events after a position, in (tx, gp) order, up to the limit', async () => {
    const mark = await endOfLog();
    const a = newRoom();
    const b = newRoom();
    const r1 = await store.appendToStream(
      a.streamId,
      'room',
      'no_stream',
      [a.created, updated(a.roomId, 'a2')],
      options,
    );
    const r2 = await store.appendToStream(b.streamId, 'room', 'no_stream', [b.created], options);
    const all = await readVisible(store, 3, mark, 100);
    expect(all.map((e) => [e.streamId, e.streamVersion])).toEqual([
      [a.streamId, 1],
      [a.streamId, 2],
      [b.streamId, 1],
    ]);
    expect(all.at(-1)!.position).toEqual(r2.position);
    expect(all[1]!.position).toEqual(r1.position);
    expect(await store.readAll(mark, 2)).toEqual(all.slice(0, 2));
    expect(await store.readAll(all[1]!.position, 100)).toEqual(all.slice(2));
  });
});

describe('transactions and positions', () => {
  it('store.transaction rolls the events back when the callback throws after appending', async () => {
    const { streamId, roomId, created } = newRoom();
    const before = await snapshot();
    let seenInside = 0;
    await expect(
      store.transaction(async (s) => {
        await s.append(
          [
            {
              streamId,
              streamType: 'room',
              expectedVersion: 'no_stream',
              events: [created, updated(roomId, 'x')],
            },
          ],
          options,
        );
        seenInside = (await s.readStream(streamId)).events.length;
        throw new Error('boom after append');
      }),
    ).rejects.toThrow('boom after append');
    expect(seenInside).toBe(2); // the events were written inside the transaction...
    expect(await snapshot()).toEqual(before); // ...and are gone after the rollback
    expect(await streamRow(streamId)).toBeNull();
    // The stream can be created afterwards: nothing was left behind.
    await store.appendToStream(streamId, 'room', 'no_stream', [created], options);
    expect((await store.readStream(streamId)).version).toBe(1);
  });

  it('store.transaction commits appends to several streams and other writes together', async () => {
    const a = newRoom();
    const b = newRoom();
    const { result, position } = await store.transaction(async (s) => {
      await s.append(
        [
          {
            streamId: a.streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [a.created],
          },
        ],
        options,
      );
      const second = await s.append(
        [
          {
            streamId: b.streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [b.created],
          },
        ],
        options,
      );
      return second.streams;
    });
    expect(result).toEqual([{ streamId: b.streamId, version: 1 }]);
    expect(position).toEqual(await lastPositionOf([a.streamId, b.streamId]));
  });

  it('a transaction that appends nothing has no position', async () => {
    const { position } = await store.transaction(async (s) => s.client.query('SELECT 1'));
    expect(position).toBeNull();
  });

  it("the returned position is the last written event's (tx, gp)", async () => {
    const a = newRoom();
    const r = await store.appendToStream(
      a.streamId,
      'room',
      'no_stream',
      [a.created, updated(a.roomId, 'x')],
      options,
    );
    expect(r.position).toEqual(await lastPositionOf([a.streamId]));
    const [last] = (await store.readStream(a.streamId)).events.slice(-1);
    expect(r.position).toEqual(last!.position);

    const b = newRoom();
    const c = newRoom();
    const many = await store.appendMany(
      [
        {
          streamId: c.streamId,
          streamType: 'room',
          expectedVersion: 'no_stream',
          events: [c.created, updated(c.roomId, 'c2')],
        },
        {
          streamId: b.streamId,
          streamType: 'room',
          expectedVersion: 'no_stream',
          events: [b.created],
        },
      ],
      options,
    );
    expect(many.position).toEqual(await lastPositionOf([b.streamId, c.streamId]));
    expect(comparePositions(many.position, r.position)).toBeGreaterThan(0);
  });
});

describe('upcasting on read', () => {
  it('an event stored with an old schemaVersion is read back upcast; the stored row stays as it was', async () => {
    const mark = await endOfLog();
    const roomId = randomUUID();
    const streamId = `room-${roomId}`;
    // An event written before the schema changed: v1 had `title` and `seats`.
    const v1 = { roomId, title: 'Old hall', seats: 12 };
    const metadata = {
      correlationId: randomUUID(),
      causationId: null,
      actor: { kind: 'system', job: 'legacy' },
      schemaVersion: 1,
    };
    await db.pool.query(
      `INSERT INTO streams (stream_id, stream_type, version) VALUES ($1, 'room', 2)`,
      [streamId],
    );
    await db.pool.query(
      `INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata, created_at)
       VALUES ($1, 1, $2, 'RoomCreated', $3, $4, $7), ($1, 2, $5, 'RoomUpdated', $6, $4, $7)`,
      [
        streamId,
        randomUUID(),
        v1,
        metadata,
        randomUUID(),
        { roomId, name: 'untouched' },
        new Date('2026-11-23T09:00:00Z'),
      ],
    );
    const upcasters = new Upcasters()
      .register('RoomCreated', 1, (d) => {
        const { title, seats, ...rest } = d as { title: string; seats: number };
        return { ...rest, name: title, capacity: seats };
      })
      .register('RoomCreated', 2, (d) => ({ ...(d as object), description: '' }));
    const reader = new EventStore(db.pool, { upcasters });

    const { events } = await reader.readStream(streamId);
    expect(events[0]!.data).toEqual({ roomId, name: 'Old hall', capacity: 12, description: '' });
    expect(events[0]!.metadata.schemaVersion).toBe(3);
    expect(events[0]!.metadata.correlationId).toBe(metadata.correlationId);
    expect(events[1]!.data).toEqual({ roomId, name: 'untouched' });
    expect(events[1]!.metadata.schemaVersion).toBe(1);

    const viaAll = (await readVisible(reader, 2, mark, 100)).filter((e) => e.streamId === streamId);
    expect(viaAll.map((e) => e.data)).toEqual(events.map((e) => e.data));

    // Never rewritten in place: the row and a store without upcasters still see v1.
    const raw = await db.pool.query<{ data: unknown }>(
      'SELECT data FROM events WHERE stream_id = $1 AND stream_version = 1',
      [streamId],
    );
    expect(raw.rows[0]!.data).toEqual(v1);
    const plain = (await new EventStore(db.pool).readStream(streamId)).events[0]!;
    expect(plain.data).toEqual(v1);
    expect(plain.metadata.schemaVersion).toBe(1);
  });
});

describe('lockAndReadStreams', () => {
  it('waits for a writer holding a stream lock and then reads what it committed', async () => {
    const x = newRoom();
    await store.appendToStream(x.streamId, 'room', 'no_stream', [x.created], options);
    const writer = await db.pool.connect();
    try {
      await writer.query('BEGIN');
      const session = new StoreSession(writer, store);
      await session.lockStream(x.streamId);
      await session.append(
        [
          {
            streamId: x.streamId,
            streamType: 'room',
            expectedVersion: 1,
            events: [updated(x.roomId, 'X2')],
          },
        ],
        options,
      );
      const reader = store.transaction((s) => s.lockAndReadStreams([x.streamId]));
      await new Promise((r) => setTimeout(r, 200));
      await writer.query('COMMIT');
      const { result } = await reader;
      expect(result.get(x.streamId)!.map((e) => e.streamVersion)).toEqual([1, 2]);
    } finally {
      await writer.query('ROLLBACK').catch(() => undefined);
      writer.release();
    }
  });
});

describe('rr_lock_read_streams plans', () => {
  it('finds the events by key on a connection that first used it while the log was empty', async () => {
    // PL/pgSQL caches the plans of a function's statements per connection. A generic plan made on
    // an empty events table scans the whole table; the function must not keep it as the log grows.
    const fresh = await createTestDatabase();
    const conn = await fresh.pool.connect();
    try {
      for (let i = 0; i < 10; i++) {
        await conn.query('SELECT * FROM rr_lock_read_streams($1::text[], $2::bigint[])', [
          [`s-${randomUUID()}`, `s-${randomUUID()}`],
          [0, 0],
        ]);
      }
      await fresh.pool.query(`
        INSERT INTO streams SELECT 's-' || g, 'bench', 3 FROM generate_series(1, 20000) g;
        INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata, created_at)
          SELECT 's-' || g, v, gen_random_uuid(), 'RoomCreated', '{}', '{}', '2026-11-23T09:00:00Z'
            FROM generate_series(1, 20000) g, generate_series(1, 3) v;`);
      // What the call did to the log itself, counted for this transaction only (buffer counts of
      // the whole call would include the catalog reads of a replanning, which depend on what
      // other sessions of the cluster do meanwhile).
      await conn.query('BEGIN');
      const rows = await conn.query(
        `SELECT * FROM rr_lock_read_streams(ARRAY['s-7', 's-19999'], ARRAY[0, 1]::bigint[])`,
      );
      const scans = await conn.query<{ seq_scan: string; seq_tup_read: string; idx_scan: string }>(
        `SELECT seq_scan, seq_tup_read, idx_scan FROM pg_stat_xact_user_tables
          WHERE relname = 'events'`,
      );
      await conn.query('COMMIT');
      expect(rows.rowCount).toBe(5);
      // By key: an index scan, never a scan of the log's 60,000 rows.
      expect(scans.rows[0]).toMatchObject({ seq_scan: '0', seq_tup_read: '0' });
      expect(Number(scans.rows[0]!.idx_scan)).toBeGreaterThanOrEqual(1);
    } finally {
      conn.release();
      await fresh.drop();
    }
  });
});

describe('stream locks', () => {
  it('take no transaction id, so they hold back no subscriber until the append', async () => {
    const x = newRoom();
    await store.appendToStream(x.streamId, 'room', 'no_stream', [x.created], options);
    const fresh = `room-${randomUUID()}`;
    const { result } = await store.transaction(async (s) => {
      await s.lockAndReadStreams([x.streamId, fresh]);
      await s.lockStream(`room-${randomUUID()}`);
      const r = await s.client.query<{ xid: string | null }>(
        'SELECT pg_current_xact_id_if_assigned()::text AS xid',
      );
      // Two-key advisory locks (objsubid 2): apart from the one-key locks of the migrations and
      // the projection runners.
      const locks = await s.client.query<{ objsubid: number }>(
        `SELECT objsubid FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`,
      );
      return { xid: r.rows[0]!.xid, keys: locks.rows.map((l) => l.objsubid) };
    });
    expect(result.xid).toBeNull();
    expect(result.keys).toEqual([2, 2, 2]);
  });

  it('make a writer that moves a locked stream wait until the holder commits', async () => {
    const x = newRoom();
    await store.appendToStream(x.streamId, 'room', 'no_stream', [x.created], options);
    const holder = await db.pool.connect();
    try {
      await holder.query('BEGIN');
      const held = new StoreSession(holder, store);
      const read = await held.lockAndReadStreams([x.streamId]);
      expect(read.get(x.streamId)).toHaveLength(1);
      let otherDone = false;
      const other = store
        .transaction((s) =>
          s.append(
            [
              {
                streamId: x.streamId,
                streamType: 'room',
                expectedVersion: 'stream_exists',
                events: [updated(x.roomId, 'other')],
              },
            ],
            options,
          ),
        )
        .then((r) => {
          otherDone = true;
          return r;
        });
      await new Promise((r) => setTimeout(r, 300));
      expect(otherDone).toBe(false);
      // The holder's version check passes: nobody moved the stream while it held the lock.
      await held.append(
        [
          {
            streamId: x.streamId,
            streamType: 'room',
            expectedVersion: 1,
            events: [updated(x.roomId, 'holder')],
          },
        ],
        options,
      );
      await holder.query('COMMIT');
      await other;
      const names = (await store.readStream(x.streamId)).events.map(
        (e) => (e.data as { name: string }).name,
      );
      expect(names).toEqual(['Reading room', 'holder', 'other']);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
  });
});

describe('event time', () => {
  it("records events at the store's clock, never at the database's time, on both append paths", async () => {
    // A clock a year and a day away from the database's: a default of now() would show.
    const at = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 2, 8, 30));
    const clocked = new EventStore(db.pool, { clock: { now: () => new Date(at.getTime()) } });
    const x = newRoom();
    // A new stream: the one-statement path.
    await clocked.appendToStream(x.streamId, 'room', 'no_stream', [x.created], options);
    // 'any' on an existing stream: the path that claims versions first.
    await clocked.appendToStream(x.streamId, 'room', 'any', [updated(x.roomId, 'Y')], options);
    const { events } = await clocked.readStream(x.streamId);
    expect(events.map((e) => e.createdAt.toISOString())).toEqual([
      at.toISOString(),
      at.toISOString(),
    ]);
    const dbNow = await db.pool.query<{ now: Date }>('SELECT now() AS now');
    expect(Math.abs(dbNow.rows[0]!.now.getTime() - at.getTime())).toBeGreaterThan(86_400_000);
  });

  it('refuses an event row without its time (no database default can stand in)', async () => {
    await db.pool.query(
      `INSERT INTO streams (stream_id, stream_type, version) VALUES ($1, 'room', 1)`,
      ['room-no-time'],
    );
    await expect(
      db.pool.query(
        `INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata)
         VALUES ('room-no-time', 1, gen_random_uuid(), 'RoomCreated', '{}', '{}')`,
      ),
    ).rejects.toThrow(/created_at/);
  });
});
