import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@rr/contracts';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { Client } from '../support/app.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  openMailSuite,
  type MailSuite,
} from '../support/fixtures.ts';
import { makePng } from '../support/images.ts';
import { compareWithRebuild } from '../support/read-models.ts';
import { budget } from '../support/time-budget.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Translations of what staff write (docs/product.md#translations): the English texts of a room,
 * its image's alt text, a holiday and a closure's reason are stored beside the German ones and
 * read back wherever the German ones are; an English text left empty is absent from the events
 * and the answers (the German one serves both languages); bad English texts are refused like the
 * German ones; mails state the booking's language's text.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: MailSuite;

const room = {
  name: 'Lesesaal Nord',
  description: 'Ruhige Tische am Fenster',
  capacity: 10,
  openStartValue: 2,
  openStartType: 'DAY',
  openEndValue: 30,
  openEndType: 'WORKING_DAY',
};

/** A visitor's client that reads at staff's last write, as staff's own reads do. */
function visitorAtStaffWrite(): Client {
  const c = new Client(suite.app.baseUrl);
  c.lastPosition = suite.admin.lastPosition;
  return c;
}

const json = async <T>(res: Response): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
};

async function eventData(streamId: string, type: string): Promise<Record<string, unknown>[]> {
  const r = await suite.db.pool.query<{ data: Record<string, unknown> }>(
    'SELECT data FROM events WHERE stream_id = $1 AND event_type = $2 ORDER BY stream_version',
    [streamId, type],
  );
  return r.rows.map((row) => row.data);
}

async function expectRefused(
  method: string,
  path: string,
  body: Record<string, unknown>,
  field: string,
  message: string,
): Promise<void> {
  const before = Number(
    (await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n,
  );
  const res = await suite.admin.request(method, path, { json: body });
  expect(res.status, `${field} of ${JSON.stringify(body)}`).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  const problem = (await res.json()) as {
    error: string;
    errors: { field: string; message: string }[];
  };
  expect(problem.error).toBe('validation__error');
  expect(problem.errors).toContainEqual(expect.objectContaining({ field, message }));
  const after = Number(
    (await suite.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n,
  );
  expect(after).toBe(before);
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
});
afterAll(() => suite.close());

describe('a room in two languages', () => {
  it('stores and answers both texts; an English text emptied again is absent (the German serves both)', async () => {
    const created = await suite.admin.request('POST', '/api/admin/rooms', {
      json: { ...room, nameEn: ' North reading room ', descriptionEn: 'Quiet desks by the window' },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const expected = {
      name: 'Lesesaal Nord',
      nameEn: 'North reading room',
      description: 'Ruhige Tische am Fenster',
      descriptionEn: 'Quiet desks by the window',
    };
    expect(await json(await suite.admin.get(`/api/admin/rooms/${id}`))).toMatchObject(expected);
    const visitor = visitorAtStaffWrite();
    expect(await json(await visitor.get(`/api/rooms/${id}`))).toMatchObject(expected);
    const listed = await json<{ content: { id: string }[] }>(await visitor.get('/api/rooms'));
    expect(listed.content.find((r) => r.id === id)).toMatchObject(expected);
    // A staff search finds the English text too.
    const found = await json<{ content: { id: string }[] }>(
      await suite.admin.get('/api/admin/rooms?term=north'),
    );
    expect(found.content.map((r) => r.id)).toEqual([id]);

    // Emptied: the event leaves the English texts out, the answers too.
    const updated = await suite.admin.request('PUT', `/api/admin/rooms/${id}`, {
      json: { ...room, nameEn: '', descriptionEn: '   ', version: 1 },
    });
    expect(updated.status).toBe(200);
    const events = await eventData(`room-${id}`, 'RoomUpdated');
    expect(events[0]).not.toHaveProperty('nameEn');
    expect(events[0]).not.toHaveProperty('descriptionEn');
    const after = await json<Record<string, unknown>>(
      await suite.admin.get(`/api/admin/rooms/${id}`),
    );
    expect(after).toMatchObject({ name: 'Lesesaal Nord', description: 'Ruhige Tische am Fenster' });
    expect(after).not.toHaveProperty('nameEn');
    expect(after).not.toHaveProperty('descriptionEn');
  });

  it('a room written without English texts writes the events it always wrote', async () => {
    const id = await createRoom(suite.admin, 'Nur Deutsch');
    const [data] = await eventData(`room-${id}`, 'RoomCreated');
    expect(Object.keys(data!).sort()).toEqual(
      ['capacity', 'description', 'name', 'openEnd', 'openStart', 'roomId'].sort(),
    );
  });

  it('refuses bad English texts as it refuses the German ones, and stores nothing', async () => {
    await expectRefused(
      'POST',
      '/api/admin/rooms',
      { ...room, nameEn: 'ab' },
      'nameEn',
      messages.minLength(3),
    );
    await expectRefused(
      'POST',
      '/api/admin/rooms',
      { ...room, nameEn: 'x'.repeat(51) },
      'nameEn',
      messages.maxLength(50),
    );
    await expectRefused(
      'POST',
      '/api/admin/rooms',
      { ...room, nameEn: 'North\nroom' },
      'nameEn',
      messages.characters,
    );
    await expectRefused(
      'POST',
      '/api/admin/rooms',
      { ...room, descriptionEn: 'y'.repeat(101) },
      'descriptionEn',
      messages.maxLength(100),
    );
  });

  it("stores the image's English alt text, refuses a short one, and drops it with the image", async () => {
    const id = await createRoom(suite.admin, 'Bildraum');
    const form = (altEn: string) => {
      const f = new FormData();
      f.set('image', new Blob([new Uint8Array(makePng())], { type: 'image/png' }), 'room.png');
      f.set('alt', 'Ein heller Saal');
      f.set('altEn', altEn);
      return f;
    };
    const short = await suite.admin.request('PUT', `/api/admin/rooms/${id}/image`, {
      form: form('abc'),
    });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe(
      'altEn',
    );
    const set = await suite.admin.request('PUT', `/api/admin/rooms/${id}/image`, {
      form: form('A bright hall'),
    });
    expect(set.status).toBe(200);
    expect(await json(await visitorAtStaffWrite().get(`/api/rooms/${id}`))).toMatchObject({
      imageAlt: 'Ein heller Saal',
      imageAltEn: 'A bright hall',
    });
    expect((await suite.admin.request('DELETE', `/api/admin/rooms/${id}/image`)).status).toBe(200);
    const gone = await json<Record<string, unknown>>(
      await suite.admin.get(`/api/admin/rooms/${id}`),
    );
    expect(gone.imageAlt).toBeNull();
    expect(gone).not.toHaveProperty('imageAltEn');
  });
});

describe('a holiday in two languages', () => {
  it('stores and answers both texts, on the staff list and on the visitor calendar', async () => {
    const roomId = await createRoom(suite.admin, 'Feiertagsraum');
    const date = day(3);
    const created = await suite.admin.request('POST', '/api/admin/holidays', {
      json: {
        name: 'Mariä Empfängnis',
        nameEn: 'Immaculate Conception',
        description: 'Geschlossen',
        descriptionEn: 'Closed',
        date,
      },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await json(await suite.admin.get(`/api/admin/holidays/${id}`))).toEqual({
      id,
      version: 1,
      name: 'Mariä Empfängnis',
      nameEn: 'Immaculate Conception',
      description: 'Geschlossen',
      descriptionEn: 'Closed',
      date,
      // Of the whole system (docs/product.md#sites).
      siteId: null,
    });
    const calendar = await json<{ holidays: unknown[] }>(
      await visitorAtStaffWrite().get(
        `/api/rooms/${roomId}/calendar?fromDate=${date}&untilDate=${date}`,
      ),
    );
    expect(calendar.holidays).toEqual([
      { date, name: 'Mariä Empfängnis', nameEn: 'Immaculate Conception' },
    ]);
    // Without an English name the calendar names the German one only (it serves both).
    const updated = await suite.admin.request('PUT', `/api/admin/holidays/${id}`, {
      json: { name: 'Mariä Empfängnis', nameEn: '', date, version: 1 },
    });
    expect(updated.status).toBe(200);
    const again = await json<{ holidays: unknown[] }>(
      await visitorAtStaffWrite().get(
        `/api/rooms/${roomId}/calendar?fromDate=${date}&untilDate=${date}`,
      ),
    );
    expect(again.holidays).toEqual([{ date, name: 'Mariä Empfängnis' }]);
  });

  it('refuses a bad English name or description', async () => {
    const date = day(4);
    await expectRefused(
      'POST',
      '/api/admin/holidays',
      { name: 'Feiertag', nameEn: 'n'.repeat(101), date },
      'nameEn',
      messages.maxLength(100),
    );
    await expectRefused(
      'POST',
      '/api/admin/holidays',
      { name: 'Feiertag', descriptionEn: 'd'.repeat(501), date },
      'descriptionEn',
      messages.maxLength(500),
    );
  });
});

describe('a closure reason in two languages', () => {
  it("answers both on the slot and the cart, and each cancellation mail states its booking's language's", async () => {
    const roomId = await createRoom(suite.admin, 'Schadensraum', {
      nameEn: 'Damage room',
    });
    const date = day(5);
    const slot = await createSlot(suite.admin, roomId, date, '09:00', '12:00', 5);
    // The cart's answer names the room in both languages.
    const cart = await new Client(suite.app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: slot },
    });
    expect(cart.status).toBe(201);
    expect(await cart.json()).toMatchObject({
      ticket: { roomName: 'Schadensraum', roomNameEn: 'Damage room' },
    });
    await bookAsNewVisitor(suite.app.baseUrl, [slot], 'de');
    await bookAsNewVisitor(suite.app.baseUrl, [slot], 'en');
    await expectRefused(
      'POST',
      '/api/admin/closures',
      { roomIds: [roomId], fromDate: date, untilDate: date, reason: 'x', reasonEn: 'a\tb' },
      'reasonEn',
      messages.characters,
    );
    const closed = await suite.admin.request('POST', '/api/admin/closures', {
      json: {
        roomIds: [roomId],
        fromDate: date,
        untilDate: date,
        reason: 'Wasserschaden',
        reasonEn: 'Water damage',
        cancelBookings: true,
      },
    });
    expect(closed.status).toBe(200);
    expect(await closed.json()).toMatchObject({ closedSlots: 1, cancelledTickets: 2 });
    expect(
      await json(await suite.admin.get(`/api/admin/rooms/${roomId}/timeslots/${slot}`)),
    ).toMatchObject({
      closedReason: 'Wasserschaden',
      closedReasonEn: 'Water damage',
      roomName: 'Schadensraum',
      roomNameEn: 'Damage room',
    });
    const [event] = await eventData(`timeslot-${slot}`, 'TicketCancelled');
    expect(event).toMatchObject({ reason: 'Wasserschaden', reasonEn: 'Water damage' });

    await waitFor(
      'two cancellation mails in the outbox',
      async () =>
        Number(
          (
            await suite.db.pool.query<{ n: string }>(
              `SELECT count(*) AS n FROM mail_outbox WHERE kind = 'cancellation'`,
            )
          ).rows[0]!.n,
        ) >= 2,
      budget(5000),
    );
    await suite.sender.sendDue();
    const german = suite.sink.messages.find((m) => m.subject?.startsWith('Stornierung'));
    const english = suite.sink.messages.find((m) => m.subject?.startsWith('Cancellation'));
    expect(german?.text).toContain('Die Bibliothek hat Ihre Buchung storniert: Wasserschaden');
    expect(german?.text).toContain('Schadensraum');
    expect(english?.text).toContain('The library has cancelled your booking: Water damage');
    expect(english?.text).toContain('Damage room');
    expect(english?.text).not.toContain('Schadensraum');
  });
});

describe("staff's day lists", () => {
  it('name a room in both languages on the desk, the check-in and the display', async () => {
    const roomId = await createRoom(suite.admin, 'Eingangshalle', { nameEn: 'Entrance hall' });
    const services = await suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, {
      json: { checkInMinutesBefore: 30 },
    });
    expect(services.status).toBe(200);
    const checkIn = await json<{ rooms: { roomId: string }[] }>(
      await suite.admin.get('/api/admin/check-in'),
    );
    expect(checkIn.rooms.find((r) => r.roomId === roomId)).toMatchObject({
      roomName: 'Eingangshalle',
      roomNameEn: 'Entrance hall',
    });
    const desk = await json<{ rooms: { id: string }[] }>(await suite.admin.get('/api/admin/day'));
    expect(desk.rooms.find((r) => r.id === roomId)).toMatchObject({
      name: 'Eingangshalle',
      nameEn: 'Entrance hall',
    });
    const display = await json<{ rooms: { id: string }[] }>(
      await visitorAtStaffWrite().get(`/api/display?roomId=${roomId}`),
    );
    expect(display.rooms).toEqual([
      expect.objectContaining({ name: 'Eingangshalle', nameEn: 'Entrance hall' }),
    ]);
  });
});

describe('a rebuild', () => {
  it('gives the same read models, English texts included, from the log', async () => {
    const { live, rebuilt } = await compareWithRebuild(suite.db.pool, budget(20_000));
    expect(rebuilt).toEqual(live);
    // The English texts are among what was compared.
    expect(live.rm_rooms!.some((row) => row.includes('"name_en":"Damage room"'))).toBe(true);
    expect(
      live.rm_time_slots!.some((row) => row.includes('"closed_reason_en":"Water damage"')),
    ).toBe(true);
  });
});
