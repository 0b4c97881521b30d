// Live availability: a room's month as a stream of server-sent events, one watcher per process
// (docs/architecture.md#live-availability).
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, listen, ManualClock } from '@rr/platform';
import { openAdminSuite, type AdminSuite, Client } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { openEventStream, type EventStream, type StreamEvent } from '../support/event-stream.ts';
import { budget } from '../support/time-budget.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import { createGateway } from '../../server/src/gateway.ts';

// Monday 23 Nov 2026, 10:00 in Vienna: the slots lie within the rooms' booking window.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const DAY = '2026-11-26';
const MONTH = '2026-11';
const SUBSCRIBERS = 100;
const MAX_STREAMS = 104;
const POLL_MS = 50;
const HEARTBEAT_MS = 200;

let suite: AdminSuite;
let gateway: Server;
let gatewayUrl: string;

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: {
      LIVE_STREAMS_MAX: String(MAX_STREAMS),
      LIVE_POLL_MS: String(POLL_MS),
      LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS),
    },
  });
  // The split deployment's gateway, in front of the app as its command and query instance.
  const app = createGateway({
    commandUrls: [suite.app.baseUrl],
    queryUrls: [suite.app.baseUrl],
    frontendDist: 'frontend/dist',
    cspExtraOrigins: [],
    logger: createLogger('silent'),
  });
  gateway = await listen(app, 0, '127.0.0.1');
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
afterAll(async () => {
  gateway?.closeAllConnections();
  await new Promise((r) => gateway?.close(r));
  await suite?.close();
});

const streamUrl = (base: string, roomId: string, month = MONTH) =>
  `${base}/api/rooms/${roomId}/availability/stream?month=${month}`;

/** A visitor's cart with one seat of the slot, through the real API (of `base`'s app). */
async function addToCart(timeSlotId: string, base = suite.app.baseUrl): Promise<void> {
  const visitor = new Client(base);
  const r = await visitor.request('POST', '/api/transactions', { json: { timeSlotId } });
  expect(r.status, await r.clone().text()).toBe(201);
}

/** The event naming the slot with these free seats. */
const seatsOf =
  (slotId: string, seatsFree: number) =>
  (e: StreamEvent): boolean => {
    if (e.event !== 'availability') return false;
    const { slots } = e.data as { slots: { id: string; seatsFree: number }[] };
    return slots.some((s) => s.id === slotId && s.seatsFree === seatsFree);
  };

/** The process's figures of live availability (`/api/metrics` of `base`'s app). */
async function liveMetrics(base = suite.app.baseUrl): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/api/metrics`)).text();
  const figures: Record<string, number> = {};
  for (const m of text.matchAll(/^rr_live_availability_(\w+) (\d+)$/gm))
    figures[m[1]!] = Number(m[2]);
  return figures;
}

const closeAll = async (streams: EventStream[]) => {
  for (const s of streams) s.close();
  await waitFor(
    'the streams to be gone',
    async () => (await liveMetrics()).streams === 0,
    budget(10_000),
  );
};

describe('live availability of a room month', () => {
  it('sends every subscriber of a month the changed seats after a cart add', async () => {
    const roomId = await createRoom(suite.admin, 'Crowded room');
    const slotId = await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 10);
    const streams = await Promise.all(
      Array.from({ length: SUBSCRIBERS }, () =>
        openEventStream(streamUrl(suite.app.baseUrl, roomId)),
      ),
    );
    try {
      for (const s of streams) {
        expect(s.status).toBe(200);
        expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
        expect(s.headers['cache-control']).toBe('no-cache');
        expect(s.headers['x-accel-buffering']).toBe('no');
      }
      await Promise.all(streams.map((s) => s.next((e) => e.event === 'ready', budget(10_000))));
      const metrics = await liveMetrics();
      expect(metrics).toMatchObject({ streams: SUBSCRIBERS, watched_months: 1 });

      await addToCart(slotId);
      const events = await Promise.all(
        streams.map((s) => s.next(seatsOf(slotId, 9), budget(15_000))),
      );
      const positions = new Set(events.map((e) => (e.data as { position: string }).position));
      // One computation for the month: every subscriber got the same event.
      expect(positions.size).toBe(1);
    } finally {
      await closeAll(streams);
    }
  });

  it('forgets a month nobody watches any more, and the watcher stops reading it', async () => {
    const kept = await createRoom(suite.admin, 'Watched room');
    const left = await createRoom(suite.admin, 'Left room');
    const keptSlot = await createSlot(suite.admin, kept, DAY, '09:00', '11:00', 10);
    const leftSlot = await createSlot(suite.admin, left, DAY, '09:00', '11:00', 10);
    const watcher = await openEventStream(streamUrl(suite.app.baseUrl, kept));
    const leaver = await openEventStream(streamUrl(suite.app.baseUrl, left));
    try {
      await leaver.next((e) => e.event === 'ready', budget(10_000));
      await watcher.next((e) => e.event === 'ready', budget(10_000));
      expect(await liveMetrics()).toMatchObject({ streams: 2, watched_months: 2 });

      leaver.close();
      await waitFor(
        'the left month to be forgotten',
        async () => (await liveMetrics()).watched_months === 1,
        budget(10_000),
      );
      expect((await liveMetrics()).streams).toBe(1);
      const before = await liveMetrics();
      await addToCart(leftSlot);
      await addToCart(keptSlot);
      await watcher.next(seatsOf(keptSlot, 9), budget(15_000));
      const after = await liveMetrics();
      // Each time the read models moved the watcher read the one month still watched.
      expect(after.refreshes_total).toBeGreaterThan(before.refreshes_total!);
      expect(after.months_read_total! - before.months_read_total!).toBe(
        after.refreshes_total! - before.refreshes_total!,
      );
    } finally {
      await closeAll([watcher, leaver]);
    }
    // Nobody watches: the watcher looks no more.
    const idle = (await liveMetrics()).polls_total;
    await sleep(POLL_MS * 10);
    expect((await liveMetrics()).polls_total).toBe(idle);
    expect(await liveMetrics()).toMatchObject({ streams: 0, watched_months: 0 });
  });

  it('streams through the gateway of the split deployment as the changes come', async () => {
    const roomId = await createRoom(suite.admin, 'Gateway room');
    const slotId = await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 3);
    const stream = await openEventStream(streamUrl(gatewayUrl, roomId));
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      // Passed on before the stream ends (a gateway that read the whole answer first never would).
      await stream.next((e) => e.event === 'ready', budget(10_000));
      await addToCart(slotId);
      await stream.next(seatsOf(slotId, 2), budget(15_000));
      await addToCart(slotId);
      await stream.next(seatsOf(slotId, 1), budget(15_000));
      expect(stream.ended).toBe(false);
      // The visitor leaves: the gateway closes its stream to the instance too.
      stream.close();
      await waitFor(
        'the stream to be gone',
        async () => (await liveMetrics()).streams === 0,
        budget(10_000),
      );
    } finally {
      stream.close();
    }
  });

  it("tells staff closing a day and changing a slot's capacity as they happen", async () => {
    const roomId = await createRoom(suite.admin, 'Changing room');
    const slotId = await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 10);
    const other = await createSlot(suite.admin, roomId, '2026-11-27', '09:00', '11:00', 10);
    const stream = await openEventStream(streamUrl(suite.app.baseUrl, roomId));
    try {
      await stream.next((e) => e.event === 'ready', budget(10_000));
      const capacity = await suite.admin.request(
        'PUT',
        `/api/admin/rooms/${roomId}/timeslots/${other}`,
        { json: { startTime: '09:00', endTime: '11:00', capacity: 4 } },
      );
      expect(capacity.status).toBe(200);
      await stream.next(seatsOf(other, 4), budget(15_000));
      const closed = await suite.admin.request('POST', '/api/admin/closures', {
        json: { fromDate: DAY, untilDate: DAY, reason: 'Wasserschaden', roomIds: [roomId] },
      });
      expect(closed.status, await closed.clone().text()).toBeLessThan(300);
      const told = await stream.next((e) => {
        if (e.event !== 'availability') return false;
        const { slots } = e.data as { slots: { id: string; closed: boolean }[] };
        return slots.some((x) => x.id === slotId && x.closed);
      }, budget(15_000));
      // Only the closed day's slot changed.
      const { slots } = told.data as { slots: { id: string }[] };
      expect(slots.map((x) => x.id)).toEqual([slotId]);
    } finally {
      await closeAll([stream]);
    }
  });

  it('answers a malformed month 400, an unknown room 404, as problems', async () => {
    const roomId = await createRoom(suite.admin, 'Checked room');
    for (const month of ['2026-13', '2026-1', 'november', '0000-01', '']) {
      const s = await openEventStream(streamUrl(suite.app.baseUrl, roomId, month));
      expect(s.status, month).toBe(400);
      expect(s.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(await s.body())).toMatchObject({ error: 'validation__error' });
    }
    const malformed = await openEventStream(streamUrl(suite.app.baseUrl, 'not-a-room'));
    expect(malformed.status).toBe(400);
    await malformed.body();
    const unknown = await openEventStream(
      streamUrl(suite.app.baseUrl, '00000000-0000-4000-8000-000000000000'),
    );
    expect(unknown.status).toBe(404);
    expect(JSON.parse(await unknown.body())).toMatchObject({ error: 'not_found' });
    // HEAD answers the headers of the stream and ends.
    await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 10);
    const head = await fetch(streamUrl(suite.app.baseUrl, roomId), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await liveMetrics()).streams).toBe(0);
  });

  it('refuses a stream above the bound with 503 and Retry-After, and takes one again after', async () => {
    const roomId = await createRoom(suite.admin, 'Bounded room');
    // Read back (the stream, opened without a position, finds the room once it is projected).
    await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 10);
    const streams = await Promise.all(
      Array.from({ length: MAX_STREAMS }, () =>
        openEventStream(streamUrl(suite.app.baseUrl, roomId)),
      ),
    );
    try {
      expect(streams.every((s) => s.status === 200)).toBe(true);
      const refused = await openEventStream(streamUrl(suite.app.baseUrl, roomId));
      expect(refused.status).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(await refused.body())).toMatchObject({ error: 'service__overloaded' });
      // A display's stream too, before its days are read: an unknown room is 503, not 404.
      const display = await openEventStream(
        `${suite.app.baseUrl}/api/display/stream?roomId=00000000-0000-4000-8000-000000000000`,
      );
      expect(display.status).toBe(503);
      expect(JSON.parse(await display.body())).toMatchObject({ error: 'service__overloaded' });
      streams.pop()!.close();
      await waitFor(
        'a stream to be free',
        async () => ((await liveMetrics()).streams ?? MAX_STREAMS) < MAX_STREAMS,
        budget(10_000),
      );
      const again = await openEventStream(streamUrl(suite.app.baseUrl, roomId));
      streams.push(again);
      expect(again.status).toBe(200);
    } finally {
      await closeAll(streams);
    }
  });
});

describe('live availability of a room with a seat plan', () => {
  it('reports a booking moved to another seat, though no count changed, so open seat plans read it again', async () => {
    const roomId = await createRoom(suite.admin, 'Planned room');
    const plan = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
      json: {
        seats: ['P1', 'P2', 'P3'].map((label, i) => ({
          label,
          attributes: [],
          x: 10 + i * 10,
          y: 20,
        })),
      },
    });
    expect(plan.status, await plan.clone().text()).toBe(200);
    const seats = ((await plan.json()) as { seats: { id: string; label: string }[] }).seats;
    const slotId = await createSlot(suite.admin, roomId, DAY, '09:00', '11:00', 3);
    const stream = await openEventStream(streamUrl(suite.app.baseUrl, roomId));
    try {
      await stream.next((e) => e.event === 'ready', budget(10_000));
      const booked = await suite.admin.request(
        'POST',
        `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
        {
          json: {
            salutation: 'MS',
            firstName: 'Sitz',
            lastName: 'Wechsel',
            language: 'de',
            seatId: seats[0]!.id,
          },
        },
      );
      expect(booked.status, await booked.clone().text()).toBe(201);
      const { ticketId } = (await booked.json()) as { ticketId: string };
      await stream.next(seatsOf(slotId, 2), budget(15_000));
      const moved = await suite.admin.request('PUT', `/api/admin/tickets/${ticketId}/seat`, {
        json: { seatId: seats[1]!.id },
      });
      expect(moved.status, await moved.clone().text()).toBe(200);
      // The same free seats, another seat taken: a second event for the slot.
      await waitFor(
        'the move to be reported',
        () => stream.events.filter(seatsOf(slotId, 2)).length >= 2,
        budget(15_000),
      );
    } finally {
      await closeAll([stream]);
    }
  });
});

describe("the foyer display's live stream", () => {
  const displayStream = (base: string, roomId?: string) =>
    `${base}/api/display/stream${roomId ? `?roomId=${roomId}` : ''}`;

  it("watches the slots every room's display shows, up to the next one, as one stream, and frees them when it ends", async () => {
    const soon = await createRoom(suite.admin, 'Display soon');
    const later = await createRoom(suite.admin, 'Display later');
    const soonSlot = await createSlot(suite.admin, soon, DAY, '09:00', '11:00', 10);
    // After the slot the display shows: not on the screen, so not watched.
    const afterSlot = await createSlot(suite.admin, soon, '2026-11-28', '09:00', '11:00', 10);
    // The later room's first slot is next month's: the display shows it, so the days up to it are
    // watched.
    const laterSlot = await createSlot(suite.admin, later, '2026-12-03', '09:00', '11:00', 4);
    const display = await openEventStream(displayStream(suite.app.baseUrl));
    const one = await openEventStream(displayStream(suite.app.baseUrl, soon));
    try {
      expect(display.status).toBe(200);
      expect(display.headers['content-type']).toMatch(/^text\/event-stream/);
      await display.next((e) => e.event === 'ready', budget(10_000));
      await one.next((e) => e.event === 'ready', budget(10_000));
      const watching = await liveMetrics();
      // Two displays are two streams, however many months they watch.
      expect(watching.streams).toBe(2);
      expect(watching.watched_months).toBeGreaterThanOrEqual(2);

      await addToCart(laterSlot);
      await display.next(seatsOf(laterSlot, 3), budget(15_000));
      await addToCart(afterSlot);
      await addToCart(soonSlot);
      await display.next(seatsOf(soonSlot, 9), budget(15_000));
      await one.next(seatsOf(soonSlot, 9), budget(15_000));
      // The days up to the slot on the screen are watched, not the room's whole month.
      expect(display.events.some(seatsOf(afterSlot, 9))).toBe(false);
      expect(one.events.some(seatsOf(afterSlot, 9))).toBe(false);
      // The one room's display hears nothing of the other room.
      expect(one.events.some(seatsOf(laterSlot, 3))).toBe(false);
      // Each change is sent once, though the stream watches several months; so is the heartbeat.
      expect(display.events.filter(seatsOf(soonSlot, 9))).toHaveLength(1);
      await waitFor('heartbeats', () => one.comments >= 3, budget(10_000));
      expect(display.comments).toBeGreaterThan(0);
      expect(display.comments).toBeLessThanOrEqual(one.comments + 1);
    } finally {
      await closeAll([display, one]);
    }
    expect(await liveMetrics()).toMatchObject({ streams: 0, watched_months: 0 });
  });

  it('answers an unknown room 404 and a malformed one 400, as problems, keeping no stream', async () => {
    const unknown = await openEventStream(
      displayStream(suite.app.baseUrl, '00000000-0000-4000-8000-000000000000'),
    );
    expect(unknown.status).toBe(404);
    expect(JSON.parse(await unknown.body())).toMatchObject({ error: 'not_found' });
    const malformed = await openEventStream(displayStream(suite.app.baseUrl, 'lobby'));
    expect(malformed.status).toBe(400);
    expect(JSON.parse(await malformed.body())).toMatchObject({ error: 'validation__error' });
    expect((await liveMetrics()).streams).toBe(0);
  });
});

describe('live availability woken by the projections', () => {
  // A poll so rare that only the projector's notification can bring a change in time.
  const RARE_POLL_MS = 60_000;
  let woken: AdminSuite;
  beforeAll(async () => {
    woken = await openAdminSuite(clock, { env: { LIVE_POLL_MS: String(RARE_POLL_MS) } });
  });
  afterAll(async () => {
    await woken?.close();
  });

  it('sends a change as soon as the read models moved, not at the next poll', async () => {
    const roomId = await createRoom(woken.admin, 'Woken room');
    const slotId = await createSlot(woken.admin, roomId, DAY, '09:00', '11:00', 10);
    const stream = await openEventStream(streamUrl(woken.app.baseUrl, roomId));
    try {
      await stream.next((e) => e.event === 'ready', budget(10_000));
      const started = performance.now();
      await addToCart(slotId, woken.app.baseUrl);
      await stream.next(seatsOf(slotId, 9), budget(10_000));
      expect(performance.now() - started).toBeLessThan(RARE_POLL_MS / 2);
    } finally {
      stream.close();
    }
  });
});

describe('live availability woken again and again', () => {
  const RARE_POLL_MS = 60_000;
  const GAP_MS = 1000;
  let woken: AdminSuite;
  beforeAll(async () => {
    woken = await openAdminSuite(clock, {
      env: { LIVE_POLL_MS: String(RARE_POLL_MS), LIVE_WAKE_GAP_MS: String(GAP_MS) },
    });
  });
  afterAll(async () => {
    await woken?.close();
  });

  const polls = async () => (await liveMetrics(woken.app.baseUrl)).polls_total ?? Number.NaN;
  const add = (slotId: string) => addToCart(slotId, woken.app.baseUrl);

  it('reads nothing while nobody watches, however often the read models move', async () => {
    const roomId = await createRoom(woken.admin, 'Unwatched room');
    const slotId = await createSlot(woken.admin, roomId, DAY, '09:00', '11:00', 20);
    const before = await polls();
    for (let i = 0; i < 5; i++) await add(slotId);
    await sleep(300);
    expect(await polls()).toBe(before);
  });

  it('looks at most once per gap under a stream of batches, and once more for the last', async () => {
    const roomId = await createRoom(woken.admin, 'Busy room');
    const slotId = await createSlot(woken.admin, roomId, DAY, '12:00', '14:00', 50);
    const stream = await openEventStream(streamUrl(woken.app.baseUrl, roomId));
    try {
      await stream.next((e) => e.event === 'ready', budget(10_000));
      await add(slotId);
      await stream.next(seatsOf(slotId, 49), budget(10_000));
      const first = await polls();
      const started = performance.now();
      // Twelve adds over three gaps: each batch of the read models wakes the watcher.
      const added = 13;
      for (let i = 1; i < added; i++) {
        await add(slotId);
        await sleep(GAP_MS / 4);
      }
      const elapsed = performance.now() - started;
      // The last change still arrives, woken after the gap (the rare poll is a minute away).
      await stream.next(seatsOf(slotId, 50 - added), budget(10_000));
      const looks = (await polls()) - first;
      expect(looks).toBeGreaterThan(0);
      expect(looks).toBeLessThanOrEqual(Math.ceil((elapsed + budget(GAP_MS)) / GAP_MS) + 1);
    } finally {
      stream.close();
    }
  });
});
