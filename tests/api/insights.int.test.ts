import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchWaitlists, releaseNoShows } from '@rr/command-service';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { readModelProjections, rebuildProjection } from '@rr/projections';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import { seededRandom } from '../support/random.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The insights (docs/product.md#insights) on a generated history: carts, bookings,
 * cancellations (some late), refused requests (5 carts on a full slot and one cart retrying 10
 * times count 6), a waitlist whose offers lapse and are taken, no-shows. Every figure of the
 * answer is checked against a count the test keeps itself while it makes the history. Every
 * time is the injected clock's.
 */
const ZONE = 'Europe/Vienna';
const clock = new ManualClock(new Date('2026-11-23T07:00:00Z'));
const today = () => todayIn(clock.now(), ZONE);
let suite: AdminSuite;
const insightsProjections = readModelProjections.filter((p) => p.name.startsWith('insight'));

/** The instant of a local date and time in the library's zone. */
function instantOf(date: string, time: string): Date {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const wall = new Intl.DateTimeFormat('sv-SE', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  })
    .format(new Date(guess))
    .replace(' ', 'T');
  const offset = Date.parse(`${wall}:00Z`) - guess;
  return new Date(guess - offset);
}

const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
const isoWeekday = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
const weekStart = (date: string) => addDays(date, 1 - isoWeekday(date));

interface Slot {
  id: string;
  roomId: string;
  date: string;
  start: string;
  end: string;
  capacity: number;
}

/** What the test counts while it makes the history. */
class Expected {
  offeredSeatMinutes = new Map<string, number>();
  bookedBySlot = new Map<string, number>();
  cancelledBySlot = new Map<string, number>();
  noShowsBySlot = new Map<string, number>();
  leadDays: number[] = [];
  cancelled = 0;
  lateCancelled = 0;
  refused = 0;
  waitlistJoins = 0;
  offersTaken = 0;
  offersLapsed = 0;

  constructor(readonly slots: Slot[]) {}

  /** The counts of two rooms together: what the insights of all rooms answer. */
  static merged(a: Expected, b: Expected): Expected {
    const m = new Expected([...a.slots, ...b.slots]);
    for (const key of ['bookedBySlot', 'cancelledBySlot', 'noShowsBySlot'] as const)
      for (const e of [a, b]) for (const [id, n] of e[key]) m.inc(m[key], id, n);
    m.leadDays = [...a.leadDays, ...b.leadDays];
    for (const key of [
      'cancelled',
      'lateCancelled',
      'refused',
      'waitlistJoins',
      'offersTaken',
      'offersLapsed',
    ] as const)
      m[key] = a[key] + b[key];
    return m;
  }

  inc(map: Map<string, number>, key: string, by = 1) {
    map.set(key, (map.get(key) ?? 0) + by);
  }

  /** The heatmap from the slots' minutes in each hour, capacity and bookings (seat-hours). */
  heatmap() {
    const cells = new Map<string, { offered: number; booked: number }>();
    for (const s of this.slots) {
      const [from, to] = [minutesOf(s.start), minutesOf(s.end)];
      for (let h = 0; h < 24; h++) {
        const m = Math.min(to, h * 60 + 60) - Math.max(from, h * 60);
        if (m <= 0) continue;
        const key = `${isoWeekday(s.date)}:${h}`;
        const c = cells.get(key) ?? { offered: 0, booked: 0 };
        c.offered += m * s.capacity;
        c.booked += m * (this.bookedBySlot.get(s.id) ?? 0);
        cells.set(key, c);
      }
    }
    return [...cells.entries()]
      .map(([key, c]) => {
        const [weekday, hour] = key.split(':').map(Number);
        return {
          weekday: weekday!,
          hour: hour!,
          offeredSeatHours: Math.round((c.offered / 60) * 100) / 100,
          bookedSeatHours: Math.round((c.booked / 60) * 100) / 100,
        };
      })
      .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
  }

  weeks() {
    const weeks = new Map<string, Record<string, number>>();
    for (const s of this.slots) {
      const w = weeks.get(weekStart(s.date)) ?? {
        offeredSeats: 0,
        bookedSeats: 0,
        cancelled: 0,
        noShows: 0,
      };
      w.offeredSeats! += s.capacity;
      w.bookedSeats! += this.bookedBySlot.get(s.id) ?? 0;
      w.cancelled! += this.cancelledBySlot.get(s.id) ?? 0;
      w.noShows! += this.noShowsBySlot.get(s.id) ?? 0;
      weeks.set(weekStart(s.date), w);
    }
    return [...weeks.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([weekStart, w]) => ({ weekStart, ...w }));
  }

  /** Bookings by whole days ahead, in order of the days. */
  histogram() {
    const byDays = new Map<number, number>();
    for (const d of this.leadDays) byDays.set(d, (byDays.get(d) ?? 0) + 1);
    return [...byDays.entries()]
      .sort(([a], [b]) => a - b)
      .map(([days, bookings]) => ({ days, bookings }));
  }

  percentile(p: number): number | null {
    if (this.leadDays.length === 0) return null;
    const sorted = [...this.leadDays].sort((a, b) => a - b);
    return sorted[Math.ceil(p * sorted.length) - 1]!;
  }
}

interface InsightsAnswer {
  heatmap: unknown[];
  weeks: { noShows: number }[];
  demand: { refused: number };
  leadTimeDays: {
    p50: number | null;
    p90: number | null;
    histogram: { days: number; bookings: number }[];
  };
  cancellations: number;
  lateCancellations: number;
  lateCancellationShare: number | null;
}

let visitorNo = 0;
const owner = () => {
  visitorNo += 1;
  return {
    salutation: 'NONE',
    firstName: 'Lea',
    lastName: `Leserin${visitorNo}`,
    phone: '+43 1 234',
    accessibility: false,
    email: `insight${visitorNo}@example.at`,
    language: 'de',
  };
};

/** A visitor's cart for one slot, booked: answers the ticket and owner ids. */
async function book(slot: Slot, expected: Expected) {
  const v = new Client(suite.app.baseUrl);
  const cart = await v.request('POST', '/api/transactions', { json: { timeSlotId: slot.id } });
  expect(cart.status).toBe(201);
  const { transactionId } = (await cart.json()) as { transactionId: string };
  const r = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: owner(),
  });
  expect(r.status).toBe(200);
  const booked = (await r.json()) as { ownerId: string; tickets: { id: string }[] };
  expected.inc(expected.bookedBySlot, slot.id);
  const lead = instantOf(slot.date, slot.start).getTime() - clock.now().getTime();
  expected.leadDays.push(Math.max(0, Math.floor(lead / 86_400_000)));
  return { ownerId: booked.ownerId, ticketId: booked.tickets[0]!.id };
}

async function cancel(slot: Slot, b: { ownerId: string; ticketId: string }, expected: Expected) {
  const r = await new Client(suite.app.baseUrl).request(
    'DELETE',
    `/api/owners/${b.ownerId}/tickets?ids=${b.ticketId}`,
  );
  expect(r.status).toBe(200);
  expected.inc(expected.bookedBySlot, slot.id, -1);
  expected.inc(expected.cancelledBySlot, slot.id);
  expected.cancelled += 1;
  const ahead = instantOf(slot.date, slot.start).getTime() - clock.now().getTime();
  if (ahead < 24 * 3_600_000) expected.lateCancelled += 1;
}

const insights = async (query: string) => {
  const r = await suite.admin.get(`/api/admin/insights?${query}`);
  expect(r.status).toBe(200);
  return (await r.json()) as InsightsAnswer;
};

const tables = insightsProjections.flatMap((p) => p.tables);
/** The insights projections' rows, table by table. */
const dump = async () =>
  Promise.all(
    tables.map(
      async (table) =>
        (
          await suite.db.pool.query<Record<string, unknown>>(
            `SELECT * FROM ${table} ORDER BY 1, 2, 3`,
          )
        ).rows,
    ),
  );
const rebuildInsights = async () => {
  for (const p of insightsProjections)
    await rebuildProjection(suite.db.pool, suite.app.deps.store, p);
};

beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite.close();
});

describe('insights on a generated history', () => {
  it('answers every figure as the test counted it', async () => {
    const random = seededRandom(823);
    const firstDay = today();
    const roomId = await createRoom(suite.admin, 'Insight room', { openStartValue: 0 });
    const waitRoomId = await createRoom(suite.admin, 'Insight waitlist room', {
      openStartValue: 0,
    });
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${waitRoomId}/services`, {
      json: { waitlistOfferMinutes: 30, checkInMinutesBefore: 30, noShowReleaseMinutes: 15 },
    });
    expect(services.status).toBe(200);

    // Slots over two weeks: mornings, afternoons (across hours) and a slot filled to the brim.
    const times: [string, string][] = [
      ['08:00', '10:30'],
      ['13:15', '17:45'],
    ];
    const slots: Slot[] = [];
    for (let d = 2; d <= 12; d += 2) {
      for (const [start, end] of times) {
        const date = addDays(today(), d);
        const capacity = 2 + Math.floor(random() * 4);
        const id = await createSlot(suite.admin, roomId, date, start, end, capacity);
        slots.push({ id, roomId, date, start, end, capacity });
      }
    }
    const full: Slot = {
      id: '',
      roomId,
      date: addDays(today(), 3),
      start: '09:00',
      end: '11:00',
      capacity: 2,
    };
    full.id = await createSlot(suite.admin, roomId, full.date, full.start, full.end, full.capacity);
    slots.push(full);
    const expected = new Expected(slots);

    // Bookings at different times of the history, some cancelled early, some late.
    const bookings: { slot: Slot; b: { ownerId: string; ticketId: string } }[] = [];
    for (const slot of slots.filter((s) => s !== full)) {
      const n = Math.floor(random() * (slot.capacity + 1));
      for (let i = 0; i < n; i++) {
        clock.advance(Math.floor(random() * 5 * 3_600_000));
        bookings.push({ slot, b: await book(slot, expected) });
      }
    }
    for (let i = 0; i < full.capacity; i++) await book(full, expected);
    // 5 carts refused on the full slot, and one cart (holding a seat elsewhere) retrying 10 times.
    for (let i = 0; i < 5; i++) {
      const r = await new Client(suite.app.baseUrl).request('POST', '/api/transactions', {
        json: { timeSlotId: full.id },
      });
      expect(r.status).toBe(409);
    }
    const retrier = new Client(suite.app.baseUrl);
    const other = slots.find(
      (s) => s !== full && (expected.bookedBySlot.get(s.id) ?? 0) < s.capacity,
    )!;
    const hold = await retrier.request('POST', '/api/transactions', {
      json: { timeSlotId: other.id },
    });
    expect(hold.status).toBe(201);
    const cart = (await hold.json()) as { transactionId: string };
    for (let i = 0; i < 10; i++) {
      const r = await retrier.request('POST', `/api/transactions/${cart.transactionId}/tickets`, {
        json: { timeSlotId: full.id },
      });
      expect(r.status).toBe(409);
    }
    // Its hold ends unbooked: a hold is no booking.
    expect(
      (await retrier.request('DELETE', `/api/transactions/${cart.transactionId}`)).status,
    ).toBe(200);
    expected.refused = 6;

    // Cancellations: the first third of the bookings two days ahead, a few within 24 hours.
    for (const { slot, b } of bookings.filter((_, i) => i % 3 === 0)) {
      const start = instantOf(slot.date, slot.start).getTime();
      const late = random() < 0.4;
      const at = late ? start - 3 * 3_600_000 : start - 3 * 86_400_000;
      if (at > clock.now().getTime()) clock.set(new Date(at));
      if (clock.now().getTime() >= start) continue;
      await cancel(slot, b, expected);
    }

    // The waitlist room: a slot of one seat, booked; three readers join; the seat frees; the
    // first offer lapses, the second is taken; one booked reader of another slot is a no-show.
    const waitDate = addDays(today(), 2);
    const ws: Slot = {
      id: '',
      roomId: waitRoomId,
      date: waitDate,
      start: '18:00',
      end: '20:00',
      capacity: 1,
    };
    ws.id = await createSlot(suite.admin, waitRoomId, ws.date, ws.start, ws.end, ws.capacity);
    const noShowSlot: Slot = {
      id: '',
      roomId: waitRoomId,
      date: waitDate,
      start: '15:00',
      end: '16:00',
      capacity: 3,
    };
    noShowSlot.id = await createSlot(
      suite.admin,
      waitRoomId,
      waitDate,
      noShowSlot.start,
      noShowSlot.end,
      3,
    );
    const waitExpected = new Expected([ws, noShowSlot]);
    const seat = await book(ws, waitExpected);
    await book(noShowSlot, waitExpected);
    for (let i = 0; i < 3; i++) {
      const r = await new Client(suite.app.baseUrl).request(
        'POST',
        `/api/timeslots/${ws.id}/waitlist`,
        {
          json: { email: `waiting${i}@example.at`, language: 'de' },
        },
      );
      expect(r.status).toBe(201);
      waitExpected.waitlistJoins += 1;
    }
    await cancel(ws, seat, waitExpected);
    expect(await matchWaitlists(suite.app.deps)).toBe(1);
    clock.advance(31 * 60_000);
    expect(await matchWaitlists(suite.app.deps)).toBe(1);
    waitExpected.offersLapsed += 1;
    const offer = await suite.db.pool.query<{ offer_id: string }>(
      `SELECT offer_id FROM waitlist_entries WHERE time_slot_id = $1 AND status = 'offered'`,
      [ws.id],
    );
    const taker = new Client(suite.app.baseUrl);
    const took = await taker.request(
      'POST',
      `/api/timeslots/${ws.id}/waitlist/offers/${offer.rows[0]!.offer_id}`,
    );
    expect(took.status).toBe(201);
    waitExpected.offersTaken += 1;
    const { transactionId } = (await took.json()) as { transactionId: string };
    const bookedOffer = await taker.request('PUT', `/api/transactions/${transactionId}/booking`, {
      json: owner(),
    });
    expect(bookedOffer.status).toBe(200);
    waitExpected.inc(waitExpected.bookedBySlot, ws.id);
    waitExpected.leadDays.push(
      Math.floor((instantOf(ws.date, ws.start).getTime() - clock.now().getTime()) / 86_400_000),
    );
    clock.set(new Date(instantOf(waitDate, '15:16').getTime()));
    expect(await releaseNoShows(suite.app.deps)).toBe(1);
    waitExpected.inc(waitExpected.noShowsBySlot, noShowSlot.id);

    // The projection follows the jobs' events and the refusals are written beside the request:
    // wait until both show, then compare every figure.
    const period = `fromDate=${firstDay}&untilDate=${addDays(firstDay, 30)}`;
    await waitFor(
      'the refusals and the no-show recorded',
      async () =>
        (await insights(`roomId=${roomId}&${period}`)).demand.refused === expected.refused &&
        (await insights(`roomId=${waitRoomId}&${period}`)).weeks.some((w) => w.noShows === 1),
      budget(5000),
    );

    for (const [id, e] of [
      [roomId, expected],
      [waitRoomId, waitExpected],
    ] as const) {
      const got = await insights(`roomId=${id}&${period}`);
      expect(got.heatmap).toEqual(e.heatmap());
      expect(got.weeks).toEqual(e.weeks());
      expect(got.demand).toEqual({
        refused: e.refused,
        waitlistJoins: e.waitlistJoins,
        offersTaken: e.offersTaken,
        offersLapsed: e.offersLapsed,
      });
      expect(got.leadTimeDays.p50).toBe(e.percentile(0.5));
      expect(got.leadTimeDays.p90).toBe(e.percentile(0.9));
      expect(got.leadTimeDays.histogram).toEqual(e.histogram());
      expect(got.cancellations).toBe(e.cancelled);
      expect(got.lateCancellations).toBe(e.lateCancelled);
      expect(got.lateCancellationShare).toBe(
        e.cancelled === 0 ? null : e.lateCancelled / e.cancelled,
      );
    }
    expect(expected.lateCancelled).toBeGreaterThan(0);
    expect(expected.cancelled).toBeGreaterThan(expected.lateCancelled);

    // Each part as CSV, the same figures: the demand of the first room.
    const csv = await suite.admin.get(
      `/api/admin/insights.csv?part=demand&roomId=${roomId}&${period}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await csv.text()).split('\r\n')[1]).toBe(
      `${expected.refused};${expected.waitlistJoins};${expected.offersTaken};${expected.offersLapsed}`,
    );

    // All rooms: every figure of both rooms' counts together.
    const both = Expected.merged(expected, waitExpected);
    const all = await insights(period);
    expect(all.heatmap).toEqual(both.heatmap());
    expect(all.weeks).toEqual(both.weeks());
    expect(all.demand).toEqual({
      refused: both.refused,
      waitlistJoins: both.waitlistJoins,
      offersTaken: both.offersTaken,
      offersLapsed: both.offersLapsed,
    });
    expect(all.leadTimeDays).toEqual({
      p50: both.percentile(0.5),
      p90: both.percentile(0.9),
      histogram: both.histogram(),
    });
    expect(all.cancellations).toBe(both.cancelled);
    expect(all.lateCancellations).toBe(both.lateCancelled);
    expect(all.demand.refused).toBe(6);
    // A period before the history holds nothing.
    const before = await insights(
      `fromDate=${addDays(firstDay, -30)}&untilDate=${addDays(firstDay, -1)}`,
    );
    expect(before).toMatchObject({ heatmap: [], weeks: [], demand: { refused: 0 } });
  });

  it('gives the same rows when rebuilt from the log in one batch', async () => {
    expect(tables).toContain('rm_insight_lead_months');
    const live = await dump();
    expect(live[0]!.length).toBeGreaterThan(10);
    await rebuildInsights();
    expect(await dump()).toEqual(live);
  });

  it("counts a moved slot's bookings to its new start, as the per-ticket rows do", async () => {
    // A booked morning slot of the history starts at 00:30 instead of 08:00 (its day stays).
    const slot = (
      await suite.db.pool.query<{ id: string; room_id: string; end_min: number; capacity: number }>(
        `SELECT time_slot_id AS id, room_id, end_min, capacity FROM rm_insight_slots
          WHERE booked > 0 AND start_min = 480 ORDER BY date LIMIT 1`,
      )
    ).rows[0]!;
    const end = `${String(Math.floor(slot.end_min / 60)).padStart(2, '0')}:${String(slot.end_min % 60).padStart(2, '0')}`;
    const moved = await suite.admin.request(
      'PUT',
      `/api/admin/rooms/${slot.room_id}/timeslots/${slot.id}`,
      { json: { startTime: '00:30', endTime: end, capacity: slot.capacity } },
    );
    expect(moved.status).toBe(200);
    // The lead time as counted from every booked ticket of the insights projection (the former
    // query), against the insight-lead projection's counts the API answers.
    const from = addDays(today(), -60);
    const until = addDays(today(), 60);
    const perTicket = async () =>
      (
        await suite.db.pool.query<{
          days: number;
          bookings: number;
          cancelled: number;
          late: number;
        }>(
          `SELECT greatest(0, floor(extract(epoch FROM (starts_local AT TIME ZONE $4::text) - booked_at) / 86400))::int AS days,
                  count(*)::int AS bookings, count(cancelled_at)::int AS cancelled,
                  count(*) FILTER (WHERE cancelled_at > (starts_local AT TIME ZONE $4::text) - interval '24 hours')::int AS late
             FROM rm_insight_bookings WHERE room_id = $1 AND date BETWEEN $2::date AND $3::date
            GROUP BY 1 ORDER BY 1`,
          [slot.room_id, from, until, ZONE],
        )
      ).rows;
    const answered = async () => {
      const got = await insights(`roomId=${slot.room_id}&fromDate=${from}&untilDate=${until}`);
      return {
        lead: got.leadTimeDays.histogram,
        cancelled: got.cancellations,
        late: got.lateCancellations,
      };
    };
    const expectedOf = (rows: Awaited<ReturnType<typeof perTicket>>) => ({
      lead: rows.map((r) => ({ days: r.days, bookings: r.bookings })),
      cancelled: rows.reduce((n, r) => n + r.cancelled, 0),
      late: rows.reduce((n, r) => n + r.late, 0),
    });
    await waitFor(
      'the move projected by both',
      async () =>
        (
          await suite.db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM rm_insight_bookings b JOIN rm_insight_lead_tickets t USING (ticket_id)
            WHERE b.time_slot_id = $1 AND b.starts_local::time = time '00:30'
              AND (b.starts_local AT TIME ZONE $2::text) = t.starts_at`,
            [slot.id, ZONE],
          )
        ).rows[0]!.n > 0,
      budget(5000),
    );
    expect(await answered()).toEqual(expectedOf(await perTicket()));
    // And a rebuild gives the same rows after the move.
    const live = await dump();
    await rebuildInsights();
    expect(await dump()).toEqual(live);
  });

  it("answers periods at the calendar's end, whose day after has no ISO date, with no figures", async () => {
    // The lead time's whole months end at the day after the period: 10000-01-01 here.
    for (const [fromDate, untilDate] of [
      ['9999-12-31', '9999-12-31'],
      ['9999-12-01', '9999-12-31'],
      ['9999-12-15', '9999-12-31'],
      ['9999-11-20', '9999-12-31'],
    ]) {
      const r = await suite.admin.get(
        `/api/admin/insights?fromDate=${fromDate}&untilDate=${untilDate}`,
      );
      expect(r.status, `${fromDate} to ${untilDate}`).toBe(200);
      const x = (await r.json()) as { weeks: unknown[]; leadTimeDays: { histogram: unknown[] } };
      expect(x.weeks).toEqual([]);
      expect(x.leadTimeDays.histogram).toEqual([]);
      const csv = await suite.admin.get(
        `/api/admin/insights.csv?part=lead-time&fromDate=${fromDate}&untilDate=${untilDate}`,
      );
      expect(csv.status).toBe(200);
    }
  });

  it('refuses a bad period and a bad room with validation__error, and visitors', async () => {
    const from = today();
    for (const q of [
      `fromDate=${from}&untilDate=${addDays(from, -1)}`,
      `fromDate=${from}&untilDate=${addDays(from, 400)}`,
      `roomId=nope&fromDate=${from}&untilDate=${from}`,
      `untilDate=${from}`,
    ]) {
      const r = await suite.admin.get(`/api/admin/insights?${q}`);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe('validation__error');
    }
    const visitor = await new Client(suite.app.baseUrl).get(
      `/api/admin/insights?fromDate=${from}&untilDate=${from}`,
    );
    expect(visitor.status).toBe(401);
  });
});
