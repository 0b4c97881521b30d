import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock, todayIn } from '@rr/platform';
import { addUser, Client, openAdminSuite, type AdminSuite } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/**
 * The product's error catalogue as clients know it (docs/product.md#errors): a client takes the
 * message key as the error code, or, when the payload array is not empty, the code, an
 * underscore and the first payload item; a key outside the catalogue shows "unknown". Each code the specification lists,
 * with the payloads it allows (none, or for `ticket__validation_error` one of the rules its
 * prefixed keys name). Not reproduced here: `generic__mail_send_exception` (the server sends mails
 * after the booking commits), `unknown` (the server's own failure), the bare rule codes (keys of
 * the browser's calendar marks, never an answer's code), and the cart rules the specification's
 * client checks itself before it asks (a slot already in the cart, a full cart: its "other
 * messages"), which the server answers as `ticket__validation_error` with the rule, as for
 * every rule.
 */
const SPEC_CATALOGUE: Record<string, readonly (string | null)[]> = {
  ticket__validation_error: [
    null,
    'timeslot_not_open',
    'max_tickets_per_time_reached',
    'max_tickets_per_day_reached',
    'timeslot_no_tickets_left',
    'max_tickets_by_user_reached',
  ],
  validation__error: [null],
  max_tickets_per_time_reached: [null],
  max_tickets_per_day_reached: [null],
  timeslot_no_tickets_left: [null],
  max_tickets_by_user_reached: [null],
  timeslot_not_open: [null],
  timeslot__overlapping: [null],
  unknown: [null],
  http__access_denied_exception: [null],
  booking__email_blacklisted: [null],
  recaptcha__validation_error: [null],
  blacklist__email_already_exists: [null],
  generic__mail_send_exception: [null],
};
const SPEC_KEYS = new Set(
  Object.entries(SPEC_CATALOGUE).flatMap(([code, firsts]) =>
    firsts.map((first) => (first === null ? code : `${code}_${first}`)),
  ),
);

/** The key as the specification derives it from an answer. */
function specKey(body: unknown): string {
  const { error, payload } = (body ?? {}) as { error?: unknown; payload?: unknown };
  if (typeof error !== 'string') return 'unknown';
  const first: unknown = Array.isArray(payload) ? payload[0] : undefined;
  if (first === undefined) return error;
  // The payload's items are strings; anything else is no key of the catalogue.
  return typeof first === 'string' ? `${error}_${first}` : 'unknown';
}

// Monday 23 Nov 2026, 10:00 in Vienna.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const day = (n: number) => addDays(todayIn(clock.now(), 'Europe/Vienna'), n);
let suite: AdminSuite;
let open: string;
let other: string;
let late: string;

const visitor = {
  salutation: 'MS',
  firstName: 'Stella',
  lastName: 'Spezifisch',
  email: 'stella.spezifisch@example.at',
  phone: '+436641234567',
  accessibility: false,
  language: 'de',
};

beforeAll(async () => {
  suite = await openAdminSuite(clock, {
    env: { MAX_TICKETS_PER_DAY: '1', MAX_TICKETS_PER_VISITOR: '2' },
    // The human check takes the token `robot` for one.
    verifyHuman: (token) => Promise.resolve(token !== 'robot'),
  });
  const window = { openStartValue: 0, openStartType: 'DAY', openEndValue: 365, openEndType: 'DAY' };
  open = await createRoom(suite.admin, 'Katalogsaal', window);
  other = await createRoom(suite.admin, 'Nebensaal', window);
  late = await createRoom(suite.admin, 'Spätsaal', {
    ...window,
    openStartValue: 30,
    openEndValue: 60,
  });
});
afterAll(async () => {
  await suite.close();
});

async function answer(res: Response, status: number, error: string): Promise<string> {
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect((body as { error: string }).error).toBe(error);
  return specKey(body);
}

const cart = (c: Client, timeSlotId: string, token?: string) =>
  c.request('POST', `/api/transactions${token ? `?g-recaptcha-response=${token}` : ''}`, {
    json: { timeSlotId },
  });
const add = (c: Client, tx: string, timeSlotId: string) =>
  c.request('POST', `/api/transactions/${tx}/tickets`, { json: { timeSlotId } });
async function cartOf(c: Client, ...slotIds: string[]): Promise<string> {
  const first = await cart(c, slotIds[0]!);
  expect(first.status, await first.clone().text()).toBe(201);
  const tx = ((await first.json()) as { transactionId: string }).transactionId;
  for (const id of slotIds.slice(1)) expect((await add(c, tx, id)).status).toBe(201);
  return tx;
}

describe("the specification's error keys", () => {
  it('come from every refusal of a code the specification lists', async () => {
    const keys: string[] = [];
    const { admin } = suite;

    // validation__error: the fields beside the payload, which stays empty.
    keys.push(
      await answer(
        await admin.request('POST', '/api/admin/rooms', { json: {} }),
        400,
        'validation__error',
      ),
    );

    // timeslot__overlapping: a slot within the times of another of the room.
    await createSlot(admin, open, day(3), '10:00', '12:00', 5);
    const clash = await admin.request('POST', `/api/admin/rooms/${open}/timeslots`, {
      json: {
        startTime: '11:00',
        endTime: '13:00',
        startDate: day(3),
        repeatUntil: day(3),
        daysOfWeek: [],
        includeHolidays: true,
        capacity: 5,
      },
    });
    keys.push(await answer(clash, 409, 'timeslot__overlapping'));

    // The cart rules, each the first payload item of ticket__validation_error.
    const first = await createSlot(admin, open, day(4), '10:00', '12:00', 5);
    const sameTime = await createSlot(admin, other, day(4), '11:00', '13:00', 5);
    const sameDay = await createSlot(admin, other, day(4), '14:00', '15:00', 5);
    const nextDay = await createSlot(admin, open, day(5), '10:00', '12:00', 5);
    const third = await createSlot(admin, open, day(6), '10:00', '12:00', 5);
    const full = await createSlot(admin, open, day(7), '10:00', '12:00', 1);
    const notOpen = await createSlot(admin, late, day(3), '10:00', '12:00', 5);
    // Another visitor's cart holds the one seat of `full`.
    await cartOf(new Client(suite.app.baseUrl), full);
    const v = new Client(suite.app.baseUrl);
    const tx = await cartOf(v, first);
    keys.push(await answer(await add(v, tx, sameTime), 409, 'ticket__validation_error'));
    keys.push(await answer(await add(v, tx, sameDay), 409, 'ticket__validation_error'));
    keys.push(await answer(await add(v, tx, full), 409, 'ticket__validation_error'));
    keys.push(await answer(await add(v, tx, notOpen), 409, 'ticket__validation_error'));
    expect((await add(v, tx, nextDay)).status).toBe(201);
    keys.push(await answer(await add(v, tx, third), 409, 'ticket__validation_error'));

    // recaptcha__validation_error: the human check refused a new cart.
    keys.push(
      await answer(
        await cart(new Client(suite.app.baseUrl), third, 'robot'),
        400,
        'recaptcha__validation_error',
      ),
    );

    // blacklist__email_already_exists, then booking__email_blacklisted.
    const entry = { email: 'blocked@example.at', expiredAt: day(60) };
    expect((await admin.request('POST', '/api/admin/blacklist', { json: entry })).status).toBe(201);
    keys.push(
      await answer(
        await admin.request('POST', '/api/admin/blacklist', { json: entry }),
        409,
        'blacklist__email_already_exists',
      ),
    );
    const blocked = new Client(suite.app.baseUrl);
    const btx = await cartOf(blocked, third);
    const booking = await blocked.request('PUT', `/api/transactions/${btx}/booking`, {
      json: { ...visitor, email: entry.email },
    });
    keys.push(await answer(booking, 403, 'booking__email_blacklisted'));

    // http__access_denied_exception: signed in without the role.
    await addUser(suite.db, 'reader', 'reader password', ['reports']);
    const reader = new Client(suite.app.baseUrl);
    expect((await reader.login('reader', 'reader password')).status).toBe(200);
    keys.push(
      await answer(
        await reader.get('/api/auth/staff-accounts'),
        403,
        'http__access_denied_exception',
      ),
    );

    expect(keys).toEqual([
      'validation__error',
      'timeslot__overlapping',
      'ticket__validation_error_max_tickets_per_time_reached',
      'ticket__validation_error_max_tickets_per_day_reached',
      'ticket__validation_error_timeslot_no_tickets_left',
      'ticket__validation_error_timeslot_not_open',
      'ticket__validation_error_max_tickets_by_user_reached',
      'recaptcha__validation_error',
      'blacklist__email_already_exists',
      'booking__email_blacklisted',
      'http__access_denied_exception',
    ]);
    for (const key of keys) expect(SPEC_KEYS, key).toContain(key);
  });

  it('leave the clashing day of timeslot__overlapping beside the payload', async () => {
    const clash = await suite.admin.request('POST', `/api/admin/rooms/${open}/timeslots`, {
      json: {
        startTime: '09:00',
        endTime: '10:30',
        startDate: day(3),
        repeatUntil: day(3),
        daysOfWeek: [],
        includeHolidays: true,
        capacity: 5,
      },
    });
    expect(clash.status).toBe(409);
    expect(await clash.json()).toMatchObject({
      error: 'timeslot__overlapping',
      payload: [],
      values: { date: day(3) },
    });
  });
});
