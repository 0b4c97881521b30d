import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseDueTickets } from '@rr/command-service';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import { openAdminSuite, type AdminSuite } from '../support/app.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  type NewVisitorBooking,
} from '../support/fixtures.ts';
import { compareWithRebuild } from '../support/read-models.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The reservations list (docs/product.md#screens): each ticket's booking number and, for a
 * cancelled one, why: its visitor, the library (with the reason staff gave), a closure (its
 * reason), a move (to which slot); the cancelled tab also lists the bookings released unconfirmed,
 * the no-show tab those released as no-shows. A part of a booking number finds its booking.
 * A rebuild of the read models from the log gives the same rows.
 */
const BASE = new Date('2026-11-23T08:00:00Z'); // 09:00 in Vienna
const clock = new ManualClock(BASE);
const TODAY = BASE.toISOString().slice(0, 10);
const DAY = addDays(TODAY, 3);
const MINUTE = 60_000;

interface ListTicket {
  id: string;
  status: string;
  bookingNumber: string | null;
  noShow: boolean;
  unconfirmed?: boolean;
  cancellation?: {
    by: string;
    reason: string | null;
    movedTo: { date: string; startTime: string; endTime: string } | null;
  } | null;
}

let suite: AdminSuite;
const booked: Record<string, NewVisitorBooking> = {};
let moveTarget = '';

async function list(query: string): Promise<{ content: ListTicket[]; totalCount: number }> {
  const res = await suite.admin.get(`/api/admin/tickets?fromDate=${TODAY}&${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { content: ListTicket[]; totalCount: number };
}

async function services(roomId: string, body: Record<string, number>) {
  const res = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
    json: body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  const plain = await createRoom(suite.admin, 'Lesesaal', OPEN_FROM_TODAY);
  const closing = await createRoom(suite.admin, 'Zeitschriftenraum', OPEN_FROM_TODAY);
  const confirming = await createRoom(suite.admin, 'Handschriftenraum', OPEN_FROM_TODAY);
  await services(confirming, { confirmBookingMinutes: 30 });
  const checkIn = await createRoom(suite.admin, 'Gruppenraum', OPEN_FROM_TODAY);
  await services(checkIn, { checkInMinutesBefore: 15, noShowReleaseMinutes: 20 });
  const slot = await createSlot(suite.admin, plain, DAY, '10:00', '12:00', 10);
  moveTarget = await createSlot(suite.admin, plain, DAY, '13:00', '14:30', 10);
  const closed = await createSlot(suite.admin, closing, DAY, '10:00', '12:00', 10);
  const awaiting = await createSlot(suite.admin, confirming, DAY, '10:00', '12:00', 10);
  const checked = await createSlot(suite.admin, checkIn, DAY, '10:00', '12:00', 10);
  const book = (name: string, slotId: string) =>
    bookAsNewVisitor(suite.app.baseUrl, [slotId], 'de', { lastName: name }).then((b) => {
      booked[name] = b;
    });
  for (const name of ['Visitor', 'Library', 'Brandt', 'Moved']) await book(name, slot);
  await book('Closure', closed);
  await book('Unconfirmed', awaiting);
  await book('NoShow', checked);

  // The visitor cancels through the mail's link; staff with a reason; a closure of the room's day.
  const v = booked.Visitor!;
  const own = await v.client.request(
    'DELETE',
    `/api/owners/${v.ownerId}/tickets?ids=${v.ticketId}`,
  );
  expect(own.status, await own.clone().text()).toBe(200);
  const staff = await suite.admin.request(
    'DELETE',
    `/api/admin/tickets?ids=${booked.Library!.ticketId}&reason=${encodeURIComponent('Doppelt gebucht')}`,
  );
  expect(staff.status, await staff.clone().text()).toBe(200);
  const closure = await suite.admin.request('POST', '/api/admin/closures', {
    json: {
      roomIds: [closing],
      fromDate: DAY,
      untilDate: DAY,
      reason: 'Wasserschaden',
      cancelBookings: true,
    },
  });
  expect(closure.status, await closure.clone().text()).toBe(200);
  const m = booked.Moved!;
  const move = await m.client.request(
    'POST',
    `/api/owners/${m.ownerId}/tickets/${m.ticketId}/move`,
    { json: { timeSlotId: moveTarget } },
  );
  expect(move.status, await move.clone().text()).toBe(200);
  // The confirmation lapses; later the reader of the check-in room does not come.
  clock.set(new Date(BASE.getTime() + 30 * MINUTE));
  expect(await releaseDueTickets(suite.app.deps)).toBe(1);
  clock.set(new Date(`${DAY}T10:21:00+01:00`));
  expect(await releaseDueTickets(suite.app.deps)).toBe(1);
  await waitFor(
    'the read models to see the cancellations and releases',
    async () =>
      (await list('status=CANCELED_ONLY')).totalCount === 5 &&
      (await list('status=NO_SHOW')).totalCount === 1,
    budget(5000),
  );
});
afterAll(async () => {
  await suite.close();
});

describe('the cancelled tab', () => {
  it('says for each ticket why it was cancelled, with its booking number', async () => {
    const { content } = await list('status=CANCELED_ONLY');
    const byTicket = new Map(content.map((t) => [t.id, t]));
    const of = (name: string) => byTicket.get(booked[name]!.ticketId);
    expect(of('Visitor')).toMatchObject({
      status: 'CANCELLED',
      bookingNumber: booked.Visitor!.bookingNumber,
      cancellation: { by: 'visitor', reason: null, movedTo: null },
    });
    expect(of('Library')).toMatchObject({
      status: 'CANCELLED',
      cancellation: { by: 'library', reason: 'Doppelt gebucht', movedTo: null },
    });
    expect(of('Closure')).toMatchObject({
      status: 'CANCELLED',
      cancellation: { by: 'closure', reason: 'Wasserschaden', movedTo: null },
    });
    expect(of('Moved')).toMatchObject({
      status: 'CANCELLED',
      bookingNumber: booked.Moved!.bookingNumber,
      cancellation: {
        by: 'moved',
        reason: null,
        movedTo: { date: DAY, startTime: '13:00', endTime: '14:30' },
      },
    });
    // Released unconfirmed: in the cancelled tab, said by its flag.
    expect(of('Unconfirmed')).toMatchObject({
      status: 'INVALID',
      unconfirmed: true,
      cancellation: null,
    });
    expect(of('Brandt')).toBeUndefined();
    expect(of('NoShow')).toBeUndefined();
  });

  it('leaves the no-shows to their tab and the booked tickets to theirs', async () => {
    const noShows = await list('status=NO_SHOW');
    expect(noShows.content).toMatchObject([
      { id: booked.NoShow!.ticketId, status: 'INVALID', noShow: true, cancellation: null },
    ]);
    const open = await list('sort=name:ASC');
    // The plain booking and the moved booking's new ticket.
    expect(open.content.map((t) => t.bookingNumber).sort()).toEqual(
      [booked.Brandt!.bookingNumber, booked.Moved!.bookingNumber].sort(),
    );
    expect(open.content.every((t) => t.status === 'BOOKED' && !t.cancellation)).toBe(true);
  });
});

describe('the search', () => {
  it('finds a booking by a part of its number, in any case, with or without "R-"', async () => {
    const number = booked.Library!.bookingNumber; // R-XXXXXX
    for (const part of [number.slice(2, 6), number.slice(4).toLowerCase(), number.slice(0, 4)]) {
      for (const sort of ['name:ASC', 'date:ASC,name:ASC']) {
        const found = await list(
          `status=CANCELED_ONLY&searchTerm=${encodeURIComponent(part)}&sort=${sort}`,
        );
        expect(
          found.content.map((t) => t.id),
          `${part} ${sort}`,
        ).toContain(booked.Library!.ticketId);
        expect(
          found.content.every((t) => t.bookingNumber?.includes(part.toUpperCase())),
          `${part} ${sort}`,
        ).toBe(true);
        expect(found.totalCount).toBe(found.content.length);
      }
    }
    // The moved booking's new ticket is found by its number in the booked tab.
    const moved = await list(
      `searchTerm=${encodeURIComponent(booked.Moved!.bookingNumber.slice(3))}`,
    );
    expect(moved.content.map((t) => t.bookingNumber)).toContain(booked.Moved!.bookingNumber);
    // A name that could be a part of a number ("BRANDT") still finds the name.
    const names = await list('searchTerm=brandt');
    expect(names.content.map((t) => t.id)).toEqual([booked.Brandt!.ticketId]);
    expect((await list('status=CANCELED_ONLY&searchTerm=Library')).content).toMatchObject([
      { id: booked.Library!.ticketId },
    ]);
  });
});

describe('a rebuild', () => {
  it('gives the same rows, cancellations and their reasons included', async () => {
    const { live, rebuilt } = await compareWithRebuild(suite.db.pool, budget(20_000));
    expect(rebuilt).toEqual(live);
    expect(live.rm_tickets!.filter((row) => row.includes('"cancelled_by":"closure"'))).toHaveLength(
      1,
    );
  });
});
