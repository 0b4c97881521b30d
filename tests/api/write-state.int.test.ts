import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, todayIn, addDays } from '@rr/platform';
import { up as roomStateMigration } from '../../platform/migrations/020_room_state.ts';
import { up as roomServicesMigration } from '../../platform/migrations/021_room_services.ts';
import { up as translationsMigration } from '../../platform/migrations/065_translations.ts';
import { up as seatPlansMigration } from '../../platform/migrations/068_seat_plans.ts';
import { up as sitesMigration } from '../../platform/migrations/073_sites.ts';
import { Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * Commands decide on event-sourced state only: on their streams, or on the
 * write side's state tables moved by the events in the same transaction (room_state,
 * holiday_state, timeslot_guard), never on the read models that projections fill after the
 * commit. Here the read models are wiped (as a lagging or rebuilding projection would leave
 * them) and the commands still decide right.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const today = todayIn(clock.now(), 'Europe/Vienna');
let suite: AdminSuite;
beforeAll(async () => {
  suite = await openAdminSuite(clock);
});
afterAll(async () => {
  await suite.close();
});

interface RoomStateRow {
  room_id: string;
  sort_order: number;
}
const roomStateRows = async () =>
  (
    await suite.db.pool.query<RoomStateRow>(
      `SELECT room_id::text, version, name, has_image, open_start_type, open_start_value,
              open_end_type, open_end_value, services, sort_order FROM room_state ORDER BY sort_order`,
    )
  ).rows;

describe('decisions on the write side, not on the read models', () => {
  it('a cart decides the booking window on room_state and holiday_state, and names the room', async () => {
    const { admin, db, app } = suite;
    const roomId = await createRoom(admin, 'Fensterplatz', {
      openStartValue: 1,
      openStartType: 'WORKING_DAY',
      openEndValue: 3,
      openEndType: 'WORKING_DAY',
    });
    // Tomorrow is a holiday: the first working day of the window is the day after.
    const tomorrow = addDays(today, 1);
    const holiday = await admin.request('POST', '/api/admin/holidays', {
      json: { name: 'Schließtag', date: tomorrow },
    });
    expect(holiday.status).toBe(201);
    const inside = await createSlot(admin, roomId, addDays(today, 2), '09:00', '10:00', 3);
    const onHoliday = await createSlot(admin, roomId, tomorrow, '09:00', '10:00', 3);
    // The read models lose the room and the holiday, as if their projections lagged behind.
    await db.pool.query('DELETE FROM rm_rooms; DELETE FROM rm_holidays');

    const visitor = new Client(app.baseUrl);
    const added = await visitor.request('POST', '/api/transactions', {
      json: { timeSlotId: inside },
    });
    expect(added.status).toBe(201);
    const cart = (await added.json()) as { tickets: { roomName: string }[] };
    expect(cart.tickets[0]!.roomName).toBe('Fensterplatz');

    const refused = await new Client(app.baseUrl).request('POST', '/api/transactions', {
      json: { timeSlotId: onHoliday },
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { payload: string[] }).payload).toEqual([
      'timeslot_not_open',
    ]);
  });

  it('the staff owner edit decides on the streams: a cancelled ticket stays uneditable whatever rm_tickets says', async () => {
    const { admin, db } = suite;
    const roomId = await createRoom(admin, 'Editierraum');
    const slotId = await createSlot(admin, roomId, addDays(today, 7), '09:00', '10:00', 3);
    const person = {
      salutation: 'MS',
      firstName: 'Erika',
      lastName: 'Muster',
      accessibility: false,
      language: 'de',
    };
    const booked = await admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
      { json: person },
    );
    expect(booked.status).toBe(201);
    const { ticketId } = (await booked.json()) as { ticketId: string };
    await admin.get(`/api/admin/tickets?roomId=${roomId}`); // read-your-writes: rm_tickets has it
    const cancelled = await admin.request('DELETE', `/api/admin/tickets?ids=${ticketId}`);
    expect(cancelled.status).toBe(200);
    await admin.get(`/api/admin/tickets?roomId=${roomId}`);
    // A read model that missed the cancellation.
    await db.pool.query(`UPDATE rm_tickets SET status = 'BOOKED' WHERE id = $1`, [ticketId]);
    const edit = await admin.request('PUT', `/api/admin/tickets/${ticketId}/owner`, {
      json: { ...person, firstName: 'Erik' },
    });
    expect(edit.status).toBe(409);
    // The owner edit names no status: the bare code's message ("only booked tickets").
    expect(await edit.json()).toMatchObject({ error: 'ticket__not_booked', payload: [] });
  });

  it("a booking's row beside the log is its TransactionBooked, recorded at the event's time", async () => {
    const { admin, db } = suite;
    const roomId = await createRoom(admin, 'Buchungsraum');
    const slotId = await createSlot(admin, roomId, addDays(today, 7), '09:00', '10:00', 3);
    const booked = await admin.request(
      'POST',
      `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
      {
        json: {
          salutation: 'NONE',
          firstName: 'Ada',
          lastName: 'Lovelace',
          accessibility: false,
          language: 'en',
        },
      },
    );
    expect(booked.status).toBe(201);
    const { ownerId, bookingNumber } = (await booked.json()) as {
      ownerId: string;
      bookingNumber: string;
    };
    const event = (
      await db.pool.query<{ stream_id: string; data: Record<string, unknown>; created_at: Date }>(
        `SELECT stream_id, data, created_at FROM events
          WHERE event_type = 'TransactionBooked' AND data->>'ownerId' = $1`,
        [ownerId],
      )
    ).rows;
    expect(event).toHaveLength(1);
    const { stream_id, data, created_at } = event[0]!;
    expect(data).toMatchObject({ ownerId, bookingNumber, language: 'en' });
    const row = (
      await db.pool.query(
        `SELECT owner_id, transaction_id::text, visitor_key, booking_number, language, created_at
           FROM bookings WHERE owner_id = $1`,
        [ownerId],
      )
    ).rows;
    expect(row).toEqual([
      {
        owner_id: ownerId,
        transaction_id: stream_id.slice('transaction-'.length),
        visitor_key: data.visitorKey,
        booking_number: bookingNumber,
        language: 'en',
        created_at,
      },
    ]);
  });

  it('the room order decides on room_state; room_state rebuilt from the room streams (migrations 020, 021, 065, 068) equals the live one', async () => {
    const { admin, db } = suite;
    const a = await createRoom(admin, 'Raum A');
    const b = await createRoom(admin, 'Raum B');
    const c = await createRoom(admin, 'Raum C');
    const changed = await admin.request('PUT', `/api/admin/rooms/${b}`, {
      json: {
        name: 'Raum B neu',
        description: 'A room of the tests',
        capacity: 4,
        openStartValue: 0,
        openStartType: 'DAY',
        openEndValue: 9,
        openEndType: 'DAY',
        version: 1,
      },
    });
    expect(changed.status).toBe(200);
    const services = { checkInMinutesBefore: 10, reminderHoursBefore: 24 };
    const set = await admin.request('PUT', `/api/admin/rooms/${c}/services`, { json: services });
    expect(set.status).toBe(200);
    expect((await admin.request('DELETE', `/api/admin/rooms/${a}`)).status).toBe(200);
    await db.pool.query('DELETE FROM rm_rooms');
    expect((await admin.request('PUT', `/api/admin/rooms/${c}/order/0`)).status).toBe(200);
    const d = await createRoom(admin, 'Raum D');

    const live = await roomStateRows();
    expect(live.map((r) => r.room_id).slice(0, 1)).toEqual([c]);
    expect(live.map((r) => r.room_id)).not.toContain(a);
    expect(live.at(-1)).toMatchObject({ room_id: d, sort_order: live.length - 1 });
    expect(live.find((r) => r.room_id === c)).toMatchObject({
      services: { ...services, noShowReleaseMinutes: null, waitlistOfferMinutes: null },
    });
    expect(live.find((r) => r.room_id === b)).toMatchObject({
      name: 'Raum B neu',
      version: 2,
      open_end_type: 'DAY',
      open_end_value: 9,
    });

    const k = knex({ client: 'pg', connection: db.url });
    try {
      await k.raw('DROP TABLE room_state');
      await roomStateMigration(k);
      await roomServicesMigration(k);
      await translationsMigration(k);
      await seatPlansMigration(k);
      await sitesMigration(k);
    } finally {
      await k.destroy();
    }
    expect(await roomStateRows()).toEqual(live);
  });

  it('staff cancel tickets of several owners in one slot in one command: each on the slot as the earlier left it', async () => {
    const { admin, app, db } = suite;
    const roomId = await createRoom(admin, 'Stornoraum');
    const slotId = await createSlot(admin, roomId, addDays(today, 8), '09:00', '10:00', 3);
    const ticketIds: string[] = [];
    for (const firstName of ['Anna', 'Berta', 'Carla']) {
      const r = await admin.request(
        'POST',
        `/api/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
        { json: { firstName, lastName: 'Muster', language: 'de' } },
      );
      expect(r.status).toBe(201);
      ticketIds.push(((await r.json()) as { ticketId: string }).ticketId);
    }
    await admin.get(`/api/admin/tickets?roomId=${roomId}`);
    const cancelled = await admin.request(
      'DELETE',
      `/api/admin/tickets?ids=${ticketIds.slice(0, 2).join(',')}`,
    );
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { cancelled: number }).cancelled).toBe(2);
    const versions = await db.pool.query<{ v: string }>(
      `SELECT stream_version::text AS v FROM events WHERE stream_id = $1 ORDER BY stream_version`,
      [`timeslot-${slotId}`],
    );
    // Created, three holds and bookings, two cancellations: one version each, no gap.
    expect(versions.rows.map((r) => Number(r.v))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The freed seats are free: two visitors get them, a third does not.
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(
        (
          await new Client(app.baseUrl).request('POST', '/api/transactions', {
            json: { timeSlotId: slotId },
          })
        ).status,
      );
    expect(answers).toEqual([201, 201, 409]);
  });
});
