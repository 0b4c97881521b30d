import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { RequestHandler } from 'express';
import {
  addDays,
  isWeekend,
  todayIn,
  type Config,
  type LocalDate,
  type Logger,
  type SessionUser,
  listen,
} from '@rr/platform';
import type { CommandDeps } from '@rr/command-service';
import { createApp } from './app.ts';

/**
 * The demo a newcomer sees after `npm start` on an empty database: three reading rooms with time
 * slots for the coming six weeks (weekdays, plus today), some of them nearly or fully booked, one
 * overbooked by staff, two cancellations and a closing day, so every visitor and staff screen has
 * something to show and a visitor can book at once. The Rara room uses the reading-room services
 * (check-in, no-show release, waitlist, reminders).
 *
 * It is made through the product's own API, in this process and as a staff member would (the
 * same routes, validation, deciders and events), so it can never hold data the product could not
 * have made. The bookings are staff bookings of invented people without an e-mail address: no
 * mail is sent. Dates follow the injected clock. Only an empty database is seeded (checked under
 * an advisory lock, so two processes starting at once seed once).
 */

export interface DemoSummary {
  rooms: number;
  timeSlots: number;
  holidays: number;
  bookings: number;
  cancelled: number;
}

interface DemoSlot {
  startTime: string;
  endTime: string;
  capacity: number;
}

interface DemoRoom {
  name: string;
  description: string;
  /** The English texts, shown to visitors and staff who chose English. */
  nameEn: string;
  descriptionEn: string;
  capacity: number;
  slots: [DemoSlot, DemoSlot];
  /** The reading-room services the room uses (none when absent). */
  services?: {
    checkInMinutesBefore: number;
    noShowReleaseMinutes: number;
    waitlistOfferMinutes: number;
    reminderHoursBefore: number;
  };
}

/** German names and descriptions (the interface is German by default), with English ones. */
export const demoRooms: [DemoRoom, DemoRoom, DemoRoom] = [
  {
    name: 'Großer Lesesaal',
    description: '60 Arbeitsplätze mit Tageslicht, Steckdosen und WLAN; Ruhezone',
    nameEn: 'Main reading room',
    descriptionEn: '60 desks with daylight, power sockets and Wi-Fi; quiet zone',
    capacity: 60,
    slots: [
      { startTime: '08:00', endTime: '13:00', capacity: 30 },
      { startTime: '13:00', endTime: '20:00', capacity: 30 },
    ],
  },
  {
    name: 'Rara-Lesesaal',
    description: 'Alte Drucke, Handschriften und Nachlässe; Lesen unter Aufsicht',
    nameEn: 'Rare books reading room',
    descriptionEn: 'Early printed books, manuscripts and papers; supervised reading',
    capacity: 8,
    slots: [
      { startTime: '09:00', endTime: '12:00', capacity: 6 },
      { startTime: '13:00', endTime: '16:00', capacity: 6 },
    ],
    // Supervised reading: check-in at the desk, no-shows released, a waitlist for the full
    // slots (its second bookable day is full), reminders the day before.
    services: {
      checkInMinutesBefore: 15,
      noShowReleaseMinutes: 30,
      waitlistOfferMinutes: 30,
      reminderHoursBefore: 24,
    },
  },
  {
    name: 'Zeitschriftenraum',
    description: 'Aktuelle Zeitschriften und Tageszeitungen, Arbeitsplätze für Laptops',
    nameEn: 'Periodicals room',
    descriptionEn: 'Current journals and daily newspapers, desks for laptops',
    capacity: 20,
    slots: [
      { startTime: '09:00', endTime: '13:00', capacity: 12 },
      { startTime: '13:00', endTime: '19:00', capacity: 12 },
    ],
  },
];

export const demoHoliday = {
  name: 'Schließtag (Inventur)',
  description: 'Die Bibliothek ist wegen der jährlichen Inventur geschlossen.',
  nameEn: 'Closed (stocktaking)',
  descriptionEn: 'The library is closed for its annual stocktaking.',
};

/** How far ahead the demo has slots: inside the rooms' booking window (30 working days). */
const DEMO_WEEKS = 6;

const FIRST_NAMES = [
  'Anna', 'Lukas', 'Sophie', 'Jakob', 'Marie', 'Elias', 'Lena', 'Felix', 'Johanna', 'Paul',
  'Hannah', 'David', 'Laura', 'Tobias', 'Clara', 'Simon', 'Theresa', 'Florian', 'Katharina', 'Jonas',
]; // prettier-ignore
const LAST_NAMES = [
  'Gruber', 'Huber', 'Wagner', 'Pichler', 'Steiner', 'Moser', 'Mayer', 'Hofer', 'Leitner', 'Berger',
  'Fuchs', 'Eder', 'Fischer', 'Schmid', 'Winkler', 'Weber', 'Schwarz', 'Maier', 'Reiter', 'Brunner',
]; // prettier-ignore
const ORGANISATIONS = ['Universität Wien', '', 'Akademie der Wissenschaften', '', 'Stadtarchiv'];

/** The n-th invented person: a deterministic mix of names, some with organisation or phone. */
function person(n: number) {
  return {
    salutation: n % 3 === 0 ? 'NONE' : n % 2 === 0 ? 'MS' : 'MR',
    title: n % 7 === 0 ? 'Dr.' : '',
    firstName: FIRST_NAMES[n % FIRST_NAMES.length]!,
    lastName: LAST_NAMES[(n * 7 + Math.floor(n / LAST_NAMES.length)) % LAST_NAMES.length]!,
    organisation: ORGANISATIONS[n % ORGANISATIONS.length]!,
    phone: n % 4 === 0 ? `+4315${String(100000 + n * 7919).slice(-6)}` : '',
    accessibility: n % 11 === 5,
    language: 'de' as const,
  };
}

const SEED_USER: SessionUser = { username: 'demo-seed', roles: ['admin'] };

/** The app's API in this process on a loopback port, signed in as the seed's staff member. */
class StaffApi {
  private position: string | null = null;

  private constructor(
    private readonly server: Server,
    private readonly base: string,
  ) {}

  static async open(
    deps: CommandDeps,
    config: Config,
    logger: Logger,
    readModels: string[],
  ): Promise<StaffApi> {
    const sessions: RequestHandler = (req, _res, next) => {
      // The seed signs its requests in without a session store: the staff routes read only
      // `req.session.user`, so a plain object stands in for express-session's Session.
      (req as unknown as { session: { user: SessionUser } }).session = { user: SEED_USER };
      next();
    };
    const app = createApp({
      role: 'all',
      deps,
      config,
      // The seed's own requests stay out of the request log; its failures still show.
      logger: logger.child({ job: 'demo-seed' }, { level: 'warn' }),
      sessions,
      trustedSessions: true,
      readModels,
      serveFrontend: false,
    });
    const server = await listen(app, 0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    return new StaffApi(server, `http://127.0.0.1:${port}/api`);
  }

  /** A call as the SPA makes it; reads wait for the read models to reach the last write. */
  async call<T>(method: string, path: string, json?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      'X-Requested-With': 'XMLHttpRequest',
      Cookie: 'rr.sid=demo-seed',
    };
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'GET' && this.position) headers['X-Min-Position'] = this.position;
    const res = await fetch(this.base + path, {
      method,
      headers,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo seed: ${method} ${path} answered ${res.status}: ${text}`);
    const body = (text ? JSON.parse(text) : {}) as T & { position?: string };
    if (method !== 'GET' && body.position) this.position = body.position;
    return body;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first weekday on or after a date that is not excluded. */
function weekdayFrom(date: LocalDate, exclude: Set<LocalDate> = new Set()): LocalDate {
  let d = date;
  while (isWeekend(d) || exclude.has(d)) d = addDays(d, 1);
  return d;
}

/** Seeds the demo into an empty database; answers what it made, or null when it was not empty. */
export async function seedDemoData(
  deps: CommandDeps,
  config: Config,
  logger: Logger,
  readModels: string[],
): Promise<DemoSummary | null> {
  const lock = await deps.pool.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('rr:demo-seed'))`);
    const used = await lock.query('SELECT 1 FROM streams LIMIT 1');
    if (used.rowCount) return null;
    const api = await StaffApi.open(deps, config, logger, readModels);
    try {
      return await seed(api, todayIn(deps.clock.now(), deps.timeZone));
    } finally {
      await api.close();
    }
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(hashtext('rr:demo-seed'))`).catch(() => undefined);
    lock.release();
  }
}

async function seed(api: StaffApi, today: LocalDate): Promise<DemoSummary> {
  const summary: DemoSummary = { rooms: 0, timeSlots: 0, holidays: 0, bookings: 0, cancelled: 0 };

  // A closing day in the second week: no slots that day (created before the slots, which skip it).
  const closingDay = weekdayFrom(addDays(today, 9));
  await api.call('POST', '/admin/holidays', { ...demoHoliday, date: closingDay });
  summary.holidays += 1;

  const roomIds: string[] = [];
  for (const room of demoRooms) {
    const { id } = await api.call<{ id: string }>('POST', '/admin/rooms', {
      name: room.name,
      description: room.description,
      nameEn: room.nameEn,
      descriptionEn: room.descriptionEn,
      capacity: room.capacity,
      openStartValue: 2,
      openStartType: 'DAY',
      openEndValue: 30,
      openEndType: 'WORKING_DAY',
    });
    roomIds.push(id);
    summary.rooms += 1;
    if (room.services) await api.call('PUT', `/admin/rooms/${id}/services`, room.services);
    for (const slot of room.slots) {
      // Today, whatever the weekday (the daily report has rows), then every weekday ahead.
      for (const [startDate, repeatUntil, daysOfWeek] of [
        [today, today, []],
        [
          addDays(today, 1),
          addDays(today, DEMO_WEEKS * 7),
          ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'],
        ],
      ] as const) {
        const { createdTimeSlots } = await api.call<{ createdTimeSlots: number }>(
          'POST',
          `/admin/rooms/${id}/timeslots`,
          { ...slot, startDate, repeatUntil, daysOfWeek, includeHolidays: false },
        );
        summary.timeSlots += createdTimeSlots;
      }
    }
  }

  const slotIds = new Map<string, string>();
  for (const roomId of roomIds) {
    const list = await api.call<{ content: { id: string; date: string; startTime: string }[] }>(
      'GET',
      `/admin/rooms/${roomId}/timeslots?fromDate=${today}&untilDate=${addDays(today, DEMO_WEEKS * 7)}&limit=999`,
    );
    for (const s of list.content) slotIds.set(`${roomId} ${s.date} ${s.startTime}`, s.id);
  }
  let people = 0;
  const tickets: string[] = [];
  const book = async (room: 0 | 1 | 2, date: LocalDate, slot: 0 | 1, count: number) => {
    const roomId = roomIds[room]!;
    const slotId = slotIds.get(`${roomId} ${date} ${demoRooms[room].slots[slot].startTime}`);
    if (!slotId) throw new Error(`demo seed: no slot in room ${room} on ${date}`);
    for (let i = 0; i < count; i++) {
      const { ticketId } = await api.call<{ ticketId: string }>(
        'POST',
        `/admin/rooms/${roomId}/timeslots/${slotId}/booking`,
        person(people++),
      );
      tickets.push(ticketId);
      summary.bookings += 1;
    }
  };

  // Visitors book from two days ahead (the rooms' open start): the first two such weekdays.
  const firstBookable = weekdayFrom(addDays(today, 2), new Set([closingDay]));
  const secondBookable = weekdayFrom(addDays(firstBookable, 1), new Set([closingDay]));
  const nextWeek = weekdayFrom(addDays(today, 7), new Set([closingDay]));
  await book(0, today, 0, 6); // today: the daily report and the reservations list have rows
  await book(0, firstBookable, 0, 27); // nearly full
  await book(1, firstBookable, 0, 5); // nearly full
  await book(1, firstBookable, 1, 3);
  await book(1, secondBookable, 0, 6); // the Rara room's second bookable day is fully booked
  await book(1, secondBookable, 1, 6);
  await book(2, nextWeek, 1, 13); // staff booked one more than the capacity: overbooked
  // Two cancellations: the cancelled tab and the occupancy report's CANCELLED type have rows.
  const cancel = tickets.slice(6, 8);
  await api.call('GET', `/admin/tickets?ticketId=${cancel[0]}`); // waits for the read models
  const { cancelled } = await api.call<{ cancelled: number }>(
    'DELETE',
    `/admin/tickets?ids=${cancel.join(',')}`,
  );
  summary.cancelled = cancelled;
  // Everything seeded is visible before the server answers its first request.
  await api.call('GET', `/admin/tickets?ticketId=${cancel[0]}`);
  return summary;
}
