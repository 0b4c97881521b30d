// Calendar feeds: a visitor's booked tickets and a room's slots for staff, parsed with ical.js;
// times are the library's local times (Europe/Vienna), in winter and in summer.
import { FIRST_SITE_ID } from '@rr/contracts/sites';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { erasePersonalData } from '@rr/command-service';
import { addDays, instantOf, ManualClock, messages, todayIn } from '@rr/platform';
import { runRoomCommand } from '../../command-service/src/rooms/stream.ts';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const TZ = 'Europe/Vienna';
const day = (n: number) => addDays(todayIn(clock.now(), TZ), n);
const WINTER = day(3);
// Far enough ahead to fall into summer time (UTC+2) when the clock is in November.
const SUMMER = day(220);
let suite: AdminSuite;
let roomId: string;
let winterSlot: string;
let summerSlot: string;

const visitor = {
  salutation: 'MR',
  firstName: 'Kasimir',
  lastName: 'Kalenderblatt',
  email: 'kasimir.kalenderblatt@example.at',
  phone: '+43 1 555 0101',
  organisation: 'Kalenderverein',
  accessibility: false,
  language: 'en',
};

interface FeedEvent {
  uid: string;
  start: Date;
  end: Date;
  localStart: string;
  tzid: string | null;
  summary: string;
  description: string;
}

/** Parses a feed with ical.js, its VTIMEZONE registered, into its events. */
function parseFeed(text: string): FeedEvent[] {
  const cal = new ICAL.Component(ICAL.parse(text) as unknown[]);
  for (const zone of cal.getAllSubcomponents('vtimezone'))
    ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  return cal.getAllSubcomponents('vevent').map((v) => {
    const event = new ICAL.Event(v);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
      localStart: event.startDate.toString(),
      tzid: v.getFirstProperty('dtstart')?.getParameter('tzid') as string | null,
      summary: event.summary,
      description: event.description,
    };
  });
}

async function getFeed(client: Client, path: string) {
  const res = await client.get(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
  const text = await res.text();
  return { text, events: parseFeed(text) };
}

async function book(slotIds: string[], email = visitor.email) {
  const v = new Client(suite.app.baseUrl);
  let transactionId = '';
  for (const timeSlotId of slotIds) {
    const res = transactionId
      ? await v.request('POST', `/api/transactions/${transactionId}/tickets`, {
          json: { timeSlotId },
        })
      : await v.request('POST', '/api/transactions', { json: { timeSlotId } });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    transactionId ||= ((await res.json()) as { transactionId: string }).transactionId;
  }
  const res = await v.request('PUT', `/api/transactions/${transactionId}/booking`, {
    json: { ...visitor, email },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const b = (await res.json()) as {
    ownerId: string;
    bookingNumber: string;
    tickets: { id: string; timeSlotId: string }[];
  };
  return { client: v, ...b };
}

async function createToken(roles: string[], name: string): Promise<string> {
  const res = await suite.admin.request('POST', '/api/admin/api-tokens', { json: { name, roles } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { secret: string }).secret;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock);
  roomId = await createRoom(suite.admin, 'Kalendersaal', {
    openStartValue: 0,
    openStartType: 'DAY',
    openEndValue: 365,
    openEndType: 'DAY',
    capacity: 5,
  });
  winterSlot = await createSlot(suite.admin, roomId, WINTER, '10:00', '12:30', 5);
  summerSlot = await createSlot(suite.admin, roomId, SUMMER, '14:00', '16:00', 3);
});
afterAll(async () => {
  await suite.close();
});

describe("a visitor's feed", () => {
  it('lists the booked tickets at their local times; a cancelled ticket disappears', async () => {
    const booking = await book([winterSlot, summerSlot]);
    const path = `/api/owners/${booking.ownerId}/tickets.ics`;
    const { text, events } = await getFeed(booking.client, path);
    expect(events).toHaveLength(2);
    const [winter, summer] = events;
    const ids = booking.tickets.map((t) => t.id);
    expect(winter).toMatchObject({
      uid: `${ids[0]}@reading-rooms`,
      tzid: TZ,
      localStart: `${WINTER}T10:00:00`,
      summary: 'Kalendersaal',
      description: `Booking number: ${booking.bookingNumber}`,
    });
    expect(winter!.start).toEqual(instantOf(WINTER, '10:00', TZ));
    expect(winter!.end).toEqual(instantOf(WINTER, '12:30', TZ));
    expect(winter!.start.toISOString()).toBe(`${WINTER}T09:00:00.000Z`);
    expect(summer).toMatchObject({ uid: `${ids[1]}@reading-rooms`, tzid: TZ });
    expect(summer!.localStart).toBe(`${SUMMER}T14:00:00`);
    expect(summer!.start.toISOString()).toBe(`${SUMMER}T12:00:00.000Z`);
    expect(summer!.end).toEqual(instantOf(SUMMER, '16:00', TZ));
    for (const word of [
      'Kasimir',
      'Kalenderblatt',
      'kasimir',
      '555 0101',
      '5550101',
      'Kalenderverein',
    ])
      expect(text).not.toContain(word);

    const cancel = await booking.client.request(
      'DELETE',
      `/api/owners/${booking.ownerId}/tickets?ids=${ids[0]}`,
    );
    expect(cancel.status).toBe(200);
    const after = await getFeed(booking.client, path);
    expect(after.events.map((e) => e.uid)).toEqual([`${ids[1]}@reading-rooms`]);
  });

  it('answers a malformed or unknown owner id 404 like the JSON route', async () => {
    const v = new Client(suite.app.baseUrl);
    for (const id of ['not-an-owner', '0'.repeat(32), 'A'.repeat(32), '%zz']) {
      const feed = await v.get(`/api/owners/${id}/tickets.ics`);
      const json = await v.get(`/api/owners/${id}/tickets`);
      expect(feed.status, id).toBe(404);
      expect(json.status, id).toBe(404);
      expect(((await feed.json()) as { error: string }).error).toBe('not_found');
    }
  });

  it('is gone with the booking’s personal data', async () => {
    const booking = await book([winterSlot], 'kasimir.kurz@example.at');
    const path = `/api/owners/${booking.ownerId}/tickets.ics`;
    expect((await getFeed(booking.client, path)).events).toHaveLength(1);
    const back = clock.now();
    clock.set(instantOf(addDays(WINTER, 1), '01:00', TZ));
    try {
      expect(await erasePersonalData(suite.app.deps)).toBeGreaterThanOrEqual(1);
    } finally {
      clock.set(back);
    }
    expect((await booking.client.get(path)).status).toBe(404);
  });
});

describe("a room's feed", () => {
  it('shows every slot with booked and free seats to staff, and with a reports token as ?token=', async () => {
    const booked = await book([summerSlot], 'kasimir.sommer@example.at');
    // Staff read what the visitor wrote (read your writes).
    suite.admin.lastPosition = booked.client.lastPosition;
    const path = `/api/admin/rooms/${roomId}/calendar.ics`;
    const { text, events } = await getFeed(suite.admin, path);
    const summer = events.find((e) => e.uid === `${summerSlot}@reading-rooms`);
    expect(summer).toMatchObject({
      tzid: TZ,
      localStart: `${SUMMER}T14:00:00`,
      summary: 'Kalendersaal: 2 booked, 1 free',
      description: 'Capacity 3, booked 2, free 1',
    });
    expect(summer!.start).toEqual(instantOf(SUMMER, '14:00', TZ));
    const winter = events.find((e) => e.uid === `${winterSlot}@reading-rooms`);
    // The first visitor's winter ticket was cancelled; the second's stays after its erasure.
    expect(winter).toMatchObject({ summary: 'Kalendersaal: 1 booked, 4 free' });
    expect(winter!.end).toEqual(instantOf(WINTER, '12:30', TZ));
    for (const word of ['Kasimir', 'Kalenderblatt', 'kasimir', 'example.at', 'Kalenderverein'])
      expect(text).not.toContain(word);

    const reports = await createToken(['reports'], 'Calendar app');
    const anonymous = new Client(suite.app.baseUrl);
    const byToken = await getFeed(anonymous, `${path}?token=${reports}`);
    expect(byToken.events.map((e) => e.uid).sort()).toEqual(events.map((e) => e.uid).sort());
    // A token in a URL is the feed's only: elsewhere, or to write, it counts for nothing.
    expect((await anonymous.get(`/api/admin/rooms?token=${reports}`)).status).toBe(401);
    expect(
      (await anonymous.request('DELETE', `/api/admin/rooms/${roomId}?token=${reports}`)).status,
    ).toBe(401);
    // Only its reports role counts there; a token without it is refused.
    const desk = await createToken(['checkin'], 'Desk calendar');
    expect((await anonymous.get(`${path}?token=${desk}`)).status).toBe(403);
    expect((await anonymous.get(`${path}?token=rr_${'x'.repeat(43)}`)).status).toBe(401);
    expect((await anonymous.get(path)).status).toBe(401);
    // A value of no token's shape (empty too) is bad input, whoever asks.
    for (const odd of ['', '%20', 'rr_short'])
      expect((await suite.admin.get(`${path}?token=${odd}`)).status).toBe(400);
    expect(
      (
        await suite.admin.get(
          `/api/admin/rooms/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/calendar.ics`,
        )
      ).status,
    ).toBe(404);
  });
});

describe('a room name that tries to write iCalendar lines', () => {
  // 45 characters: within the name's length, so only the characters refuse it.
  const EVIL = 'Red\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nX-INJECTED:yes';
  // Stored below the edge, where no length counts: the characters iCalendar escapes too.
  // A bell (U+0007) is no character of iCalendar's texts: the feed leaves it out.
  const STORED = `${EVIL}\r\nSUMMARY:Fake;room,\\\rEND:VCALENDAR\u0007`;
  /** A text value as RFC 5545 escapes it, read back (ical.js reads X- properties raw). */
  const unescaped = (raw: string) =>
    raw.replace(/\\([nN\\;,])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
  const asRead = (text: string) => text.replace(/\r\n?/g, '\n').replace('\u0007', '');

  it('is refused at the edge, and nothing is stored', async () => {
    const res = await suite.admin.request('POST', '/api/admin/rooms', {
      json: {
        name: EVIL,
        description: 'A room of the tests',
        capacity: 3,
        openStartValue: 0,
        openStartType: 'DAY',
        openEndValue: 30,
        openEndType: 'DAY',
      },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: string;
      payload: string[];
      errors: { field: string; message: string }[];
    };
    expect(body).toMatchObject({ error: 'validation__error', payload: [] });
    expect(body.errors).toContainEqual(
      expect.objectContaining({ field: 'name', message: messages.characters }),
    );
    const list = (await (await suite.admin.get('/api/admin/rooms?limit=999')).json()) as {
      content: { name: string }[];
    };
    expect(list.content.map((r) => r.name)).toEqual(['Kalendersaal']);
  });

  it('stored before the rule, stays one text in one well-formed feed', async () => {
    // Below the edge: the room command as an earlier release ran it, without the contract.
    const id = randomUUID();
    const created = await runRoomCommand(
      suite.app.deps,
      { kind: 'system', job: 'test' },
      {
        type: 'CreateRoom',
        data: {
          roomId: id,
          siteId: FIRST_SITE_ID,
          name: STORED,
          description: 'Line one\r\nBEGIN:VALARM',
          capacity: 4,
          openStart: { type: 'DAY', value: 0 },
          openEnd: { type: 'DAY', value: 365 },
        },
      },
    );
    suite.admin.lastPosition = created.position;
    await createSlot(suite.admin, id, WINTER, '09:00', '10:00', 4);
    await createSlot(suite.admin, id, WINTER, '11:00', '12:00', 4);
    const res = await suite.admin.get(`/api/admin/rooms/${id}/calendar.ics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const lines = text.split('\r\n');
    expect(lines.filter((l) => l === 'BEGIN:VCALENDAR')).toHaveLength(1);
    expect(lines.filter((l) => l === 'END:VCALENDAR')).toHaveLength(1);
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2);
    expect(lines.filter((l) => l === 'END:VEVENT')).toHaveLength(2);
    expect(lines.some((l) => l.startsWith('X-INJECTED'))).toBe(false);
    expect(text).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    const cal = new ICAL.Component(ICAL.parse(text) as unknown[]);
    expect(cal.getAllSubcomponents('vevent')).toHaveLength(2);
    expect(unescaped(String(cal.getFirstPropertyValue('x-wr-calname')))).toBe(asRead(STORED));
    expect(cal.getAllProperties().map((p) => p.name)).not.toContain('x-injected');
    const events = parseFeed(text);
    expect(events).toHaveLength(2);
    for (const e of events) {
      expect(e.summary).toBe(`${asRead(STORED)}: 0 booked, 4 free`);
      expect(e.description).toBe('Capacity 4, booked 0, free 4');
    }
  });
});
