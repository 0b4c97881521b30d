import { describe, expect, it } from 'vitest';
import { ManualClock, type Pool } from '@rr/platform';
import { LiveAvailability, type LiveSubscriber } from './live-availability.ts';

const ROOM = '00000000-0000-4000-8000-000000000001';
const SLOT = '00000000-0000-4000-8000-000000000002';

/**
 * A database as the watcher sees it: where the read models stand and the free seats of one slot
 * of the one room; `move` changes both, as a projector's batch does.
 */
function fakeDatabase() {
  const state = { tx: 1, seatsFree: 10, checkpointReads: 0, seatReads: 0 };
  const pool = {
    query: (q: { name: string; values?: unknown[] }) => {
      const p = `read_models:${state.tx}_1`;
      if (q.name === 'rr_live_checkpoints') {
        state.checkpointReads += 1;
        return Promise.resolve({ rows: [{ p }] });
      }
      state.seatReads += 1;
      const keys = (q.values?.[0] as string[]).length;
      return Promise.resolve({
        rows: [
          {
            fingerprint: p,
            position: `${state.tx}_1`,
            rooms: Array.from({ length: keys }, (_, i) => i),
            slots: [[0, SLOT, state.seatsFree, false, 10, 10 - state.seatsFree]],
          },
        ],
      });
    },
    // The watcher only queries: the rest of a pg.Pool is never touched.
  } as unknown as Pool;
  const move = () => {
    state.tx += 1;
    state.seatsFree -= 1;
  };
  return { pool, state, move };
}

/** A stream's subscriber that keeps what it was sent. */
function subscriber(): LiveSubscriber & { texts: string[] } {
  const texts: string[] = [];
  return { texts, write: (text) => (texts.push(text), true), end: () => undefined };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

// A poll too rare to matter here: only wakes make the watcher look.
const RARE_POLL_MS = 60_000;

describe('LiveAvailability woken by the read models moving', () => {
  it('looks at once when woken and sends the change, instead of at its next poll', async () => {
    const db = fakeDatabase();
    const live = new LiveAvailability(db.pool, new ManualClock(new Date()), {
      maxStreams: 10,
      pollMs: RARE_POLL_MS,
      wakeGapMs: 0,
      heartbeatMs: RARE_POLL_MS,
    });
    const s = subscriber();
    const opened = await live.subscribe(ROOM, '2026-12', s);
    if (typeof opened === 'string') throw new Error(opened);
    try {
      db.move();
      live.wake();
      await until('the event', () => s.texts.some((t) => t.startsWith('event: availability')));
      expect(s.texts.join('')).toContain(`"seatsFree":9`);
      expect(live.polls).toBe(1);
    } finally {
      opened.close();
    }
  });

  it('woken again and again, looks at most once per gap, and once more for wakes meanwhile', async () => {
    const db = fakeDatabase();
    const GAP_MS = 1000;
    const live = new LiveAvailability(db.pool, new ManualClock(new Date()), {
      maxStreams: 10,
      pollMs: RARE_POLL_MS,
      wakeGapMs: GAP_MS,
      heartbeatMs: RARE_POLL_MS,
    });
    const opened = await live.subscribe(ROOM, '2026-12', subscriber());
    if (typeof opened === 'string') throw new Error(opened);
    try {
      live.wake();
      await until('the first look', () => live.polls === 1);
      const first = performance.now();
      // A batch every 10 ms for less than the gap: no second look before the gap has passed.
      while (performance.now() - first < GAP_MS / 3) {
        db.move();
        live.wake();
        await sleep(10);
      }
      expect(live.polls).toBe(1);
      await until('the look after the gap', () => live.polls === 2);
      expect(performance.now() - first).toBeGreaterThanOrEqual(GAP_MS - 5);
      // Nothing woke it since: the next look is the rare poll's.
      await sleep(GAP_MS * 1.5);
      expect(live.polls).toBe(2);
    } finally {
      opened.close();
    }
  });

  it('does nothing when woken while nobody watches', async () => {
    const db = fakeDatabase();
    const live = new LiveAvailability(db.pool, new ManualClock(new Date()), {
      maxStreams: 10,
      pollMs: RARE_POLL_MS,
      wakeGapMs: 0,
      heartbeatMs: RARE_POLL_MS,
    });
    live.wake();
    await sleep(50);
    expect(live.polls).toBe(0);
    expect(db.state.checkpointReads + db.state.seatReads).toBe(0);
  });
});
