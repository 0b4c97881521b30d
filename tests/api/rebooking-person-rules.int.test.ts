import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@rr/domain';
import { releaseNoShows } from '@rr/command-service';
import { ManualClock } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import { bookAsNewVisitor, createRoom, createSlot } from '../support/fixtures.ts';

/**
 * A rebooking takes a seat, so it answers to every rule a booking applies to the person
 * (docs/product.md#rebooking): the blacklist, the no-show rule, members-only rooms and confirmed
 * addresses. Each rule is made to hold after the booking, then the move is tried: refused with the
 * booking's code, nothing written, the old ticket still booked. Every time is the injected clock's.
 */
// Monday 23 November 2026, 09:00 in Vienna.
const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
const TODAY = '2026-11-23';
const OPEN = { openStartValue: 0, openStartType: 'DAY', openEndValue: 365, openEndType: 'DAY' };

type Problem = { error: string; payload: string[] };
interface OwnerTicket {
  id: string;
  status: string;
  timeSlotId: string;
  confirmBy?: string | null;
}

let suite: AdminSuite;
let hour = 6;

/** A slot of the room ten days on (each at its own hour: a visitor's tickets never overlap). */
const slot = (roomId: string, date = addDays(TODAY, 10)) => {
  hour += 1;
  const h = String(hour).padStart(2, '0');
  return createSlot(suite.admin, roomId, date, `${h}:00`, `${h}:30`, 5);
};

/** A visitor of this address books one ticket of the slot (the rules under test are its). */
const book = (slotId: string, email: string) =>
  bookAsNewVisitor(suite.app.baseUrl, [slotId], 'de', {
    firstName: 'Rita',
    lastName: 'Regel',
    email,
  });

const services = (roomId: string, json: Record<string, unknown>) =>
  suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, { json });

const eventCount = async () =>
  Number((await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: { NO_SHOW_LIMIT: '2', NO_SHOW_WINDOW_DAYS: '30', NO_SHOW_BLOCK_DAYS: '14' },
  });
});
afterAll(async () => {
  await suite.close();
});

interface Rule {
  name: string;
  email: string;
  /** The room's services when booked (the rule may switch them on later). */
  services?: Record<string, unknown>;
  /** Makes the rule hold for the booking's address, after the booking. */
  arrange: (roomId: string, email: string) => Promise<void> | void;
  status: number;
  problem: Partial<Problem>;
}

const rules: Rule[] = [
  {
    name: 'a blacklisted address',
    email: 'blocked.reader@example.at',
    arrange: async (_roomId, email) => {
      const r = await suite.admin.request('POST', '/api/admin/blacklist', {
        json: { email, expiredAt: addDays(TODAY, 300) },
      });
      expect(r.status).toBe(201);
    },
    status: 403,
    problem: { error: 'booking__email_blacklisted' },
  },
  {
    name: 'an address blocked by the no-show rule',
    email: 'absent.reader@example.at',
    arrange: async (_roomId, email) => {
      // Two no-shows in a room with check-in, today and tomorrow, released by the job.
      const desk = await createRoom(suite.admin, 'Check-in room', OPEN);
      expect(
        (await services(desk, { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 })).status,
      ).toBe(200);
      for (const n of [0, 1]) {
        const date = addDays(TODAY, n);
        await book(await createSlot(suite.admin, desk, date, '10:00', '11:00', 5), email);
      }
      for (const n of [0, 1]) {
        // 10:30 in Vienna on the slot's day: past its release minute (10:20).
        clock.set(new Date(`${addDays(TODAY, n)}T09:30:00Z`));
        expect(await releaseNoShows(suite.app.deps)).toBe(1);
      }
    },
    status: 403,
    problem: { error: 'booking__no_show_blocked', payload: ['until', addDays(TODAY, 14)] },
  },
  {
    name: 'an address a members-only room does not admit',
    email: 'guest.reader@example.at',
    arrange: async (roomId) => {
      expect((await services(roomId, { allowedEmailDomains: ['uni.example'] })).status).toBe(200);
    },
    status: 403,
    problem: { error: 'booking__email_domain_not_allowed', payload: ['domains', 'uni.example'] },
  },
  {
    name: 'a booking whose confirmation deadline has come',
    email: 'late.reader@example.at',
    services: { confirmBookingMinutes: 30 },
    arrange: () => {
      clock.set(new Date(clock.now().getTime() + 31 * 60_000));
    },
    status: 409,
    problem: { error: 'booking__confirmation_lapsed' },
  },
];

describe('a move answers to the rules a booking applies to the person', () => {
  for (const rule of rules) {
    it(`refuses ${rule.name} with the booking's code and changes nothing`, async () => {
      const roomId = await createRoom(suite.admin, 'Regelsaal', OPEN);
      if (rule.services) expect((await services(roomId, rule.services)).status).toBe(200);
      const from = await slot(roomId);
      const to = await slot(roomId);
      const b = await book(from, rule.email);
      await rule.arrange(roomId, rule.email);

      const before = await eventCount();
      const res = await b.client.request(
        'POST',
        `/api/owners/${b.ownerId}/tickets/${b.ticketId}/move`,
        { json: { timeSlotId: to } },
      );
      expect(res.status, await res.clone().text()).toBe(rule.status);
      expect((await res.json()) as Problem).toMatchObject(rule.problem);
      expect(await eventCount()).toBe(before);
      const tickets = (await (
        await b.client.get(`/api/owners/${b.ownerId}/tickets`)
      ).json()) as OwnerTicket[];
      expect(tickets.map((t) => [t.id, t.status, t.timeSlotId])).toEqual([
        [b.ticketId, 'BOOKED', from],
      ]);
    });
  }

  it('asks for the confirmation a booking would: a ticket booked before its room asked awaits it once moved', async () => {
    const roomId = await createRoom(suite.admin, 'Bestätigungssaal', OPEN);
    const from = await slot(roomId);
    const to = await slot(roomId);
    const b = await book(from, 'new.rule@example.at');
    expect((await services(roomId, { confirmBookingMinutes: 30 })).status).toBe(200);
    const res = await b.client.request(
      'POST',
      `/api/owners/${b.ownerId}/tickets/${b.ticketId}/move`,
      { json: { timeSlotId: to } },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const moved = (await res.json()) as { id: string; position: string };
    const tickets = (await (
      await b.client.get(`/api/owners/${b.ownerId}/tickets`, { 'X-Min-Position': moved.position })
    ).json()) as OwnerTicket[];
    expect(tickets.find((t) => t.id === moved.id)?.confirmBy).toBe(
      new Date(clock.now().getTime() + 30 * 60_000).toISOString(),
    );
  });
});
