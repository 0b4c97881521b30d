// Over 300 lines: one generator; the simulated commands share the state of rooms, slots, carts and
// stream versions, which every part would need if it were split.
/**
 * A realistic event log for benchmarks, written in bulk.
 *
 * What the command side would have written over a year of a library's reading rooms: rooms and
 * their order, holidays, a blacklist, time slots for every opening day of every room
 * (`TimeSlotCreated`, with the `timeslot_guard` rows), carts (`TransactionStarted`,
 * `TicketAddedToTransaction` + `TicketHeld` on the slot stream, hold extensions, touches, removed
 * tickets), bookings (`TransactionBooked`, `TicketBooked`, `VisitorTicketsBooked`, with the
 * `bookings` row of its inline projection and the `personal_data` row of `recordPersonalData`), removed and expired carts, cancellations
 * and (optionally) the erasure of past bookings' personal data. Commands are generated with a simulated time,
 * sorted by it and written in that order, so commit order, stream versions and `created_at` agree.
 *
 * Written with multi-row INSERTs of large chunks (one transaction per chunk) that keep the store's
 * invariants: positions from the sequence and the writing transaction, stream versions 1..n per
 * stream, the `streams` row at the stream's last version, metadata as `StoreSession.append` writes
 * it (correlation id per command, actor, schema version), and every event checked by the
 * catalogue's `validateEvent`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { emailKey } from '@rr/platform';
import {
  HOLIDAYS_STREAM,
  ROOM_ORDER_STREAM,
  blacklistStreamId,
  roomStreamId,
  timeSlotStreamId,
  transactionStreamId,
  validateEvent,
  visitorStreamId,
  type Actor,
  type EventMetadata,
  type NewEvent,
} from '@rr/events';
import { addDays, isWeekend, minutesOf, todayIn, type Pool } from '@rr/platform';
import { seededRandom } from '../support/random.ts';

export interface GenerateOptions {
  rooms: number;
  /** Days of slots per room, centred on today (half in the past, half ahead). */
  days: number;
  /** Tickets (rm_tickets rows) to create; derived from `events` when not given. */
  tickets?: number;
  /** Total events to write, exactly; without it the log ends when `tickets` are made. */
  events?: number;
  /** Events per INSERT (and per database transaction). */
  chunkEvents?: number;
  seed?: number;
  timeZone?: string;
  /**
   * Whether the erasure job has run: past bookings' personal data deleted (PersonalDataErased).
   * Off by default, so every booking keeps its name and the reservations list sorts them all.
   */
  erase?: boolean;
  /** The secret of the visitor keys (the app's `VISITOR_KEY_SECRET`). */
  keySecret?: string;
  log?: (line: string) => void;
}

export type TicketStatus = 'NEW' | 'BOOKED' | 'CANCELLED' | 'INVALID';
export type TransactionStatus = 'NEW' | 'BOOKED' | 'REMOVED' | 'EXPIRED';

/** What was written, as the read models should show it. */
export interface GeneratedLog {
  events: number;
  streams: number;
  rooms: { id: string; name: string }[];
  holidays: number;
  blacklistEntries: number;
  slots: number;
  firstDate: string;
  lastDate: string;
  tickets: number;
  ticketsByStatus: Record<TicketStatus, number>;
  transactionsByStatus: Record<TransactionStatus, number>;
  /** Sum of rm_time_slots.ticket_count: held (NEW) and booked tickets. */
  seatsTaken: number;
  bookings: number;
  /** personal_data rows left (the others were erased the day after their last booked day). */
  personalData: number;
  /** Frequent last names, for searches. */
  lastNames: readonly string[];
  seconds: number;
}

// --- simulated data ------------------------------------------------------------------------------

const FIRST_NAMES = [
  'Anna',
  'Lukas',
  'Sophie',
  'David',
  'Lena',
  'Jakob',
  'Marie',
  'Felix',
  'Laura',
  'Maximilian',
  'Julia',
  'Elias',
  'Hannah',
  'Paul',
  'Sarah',
  'Tobias',
  'Katharina',
  'Simon',
  'Johanna',
  'Florian',
  'Emma',
  'Noah',
  'Lea',
  'Jonas',
  'Mia',
  'Leon',
  'Clara',
  'Fabian',
  'Valentina',
  'Matthias',
  'Theresa',
  'Stefan',
  'Magdalena',
  'Andreas',
  'Nina',
  'Michael',
  'Eva',
  'Thomas',
  'Ines',
  'Georg',
  'Zoë',
  'Ömer',
  'Élodie',
  'Çağla',
  'Aleksandra',
  'Dragan',
  'Mei',
  'Raj',
  'Fatima',
  'Omar',
];
const LAST_NAMES = [
  'Gruber',
  'Huber',
  'Bauer',
  'Wagner',
  'Müller',
  'Pichler',
  'Steiner',
  'Moser',
  'Mayer',
  'Hofer',
  'Leitner',
  'Berger',
  'Fuchs',
  'Eder',
  'Fischer',
  'Schmid',
  'Winkler',
  'Weber',
  'Schwarz',
  'Maier',
  'Schneider',
  'Reiter',
  'Mayr',
  'Schmidt',
  'Wimmer',
  'Egger',
  'Brunner',
  'Lang',
  'Baumgartner',
  'Auer',
  'Binder',
  'Lechner',
  'Wolf',
  'Wallner',
  'Aigner',
  'Ebner',
  'Koller',
  'Lehner',
  'Haas',
  'Schuster',
  'Özdemir',
  'Novak',
  'Horvath',
  'Kovačević',
  'Nguyen',
  'Yılmaz',
  'de la Cruz',
  "O'Brien",
  'Ångström',
  'van Dijk',
  'Zechner',
  'Kastner',
  'Riegler',
  'Pfeiffer',
  'Strasser',
  'Hauser',
  'Kofler',
  'Resch',
  'Seidl',
  'Kaiser',
];
const ORGANISATIONS = [
  'Universität Wien',
  'TU Wien',
  'Akademie der Wissenschaften',
  'Stadtarchiv',
  'BOKU',
  'Medizinische Universität',
  'Privat',
  'WU Wien',
  'Kunsthistorisches Museum',
  'Gymnasium Rahlgasse',
];
const ROOM_NAMES = [
  'Großer Lesesaal',
  'Handschriftensaal',
  'Zeitschriftenlesesaal',
  'Musiklesesaal',
  'Kartensaal',
  'Papyrussaal',
  'Rara-Lesesaal',
  'Forschungslesesaal',
  'Gruppenraum A',
  'Gruppenraum B',
];
const HOLIDAYS = [
  ['01-01', 'Neujahr'],
  ['01-06', 'Heilige Drei Könige'],
  ['05-01', 'Staatsfeiertag'],
  ['08-15', 'Mariä Himmelfahrt'],
  ['10-26', 'Nationalfeiertag'],
  ['11-01', 'Allerheiligen'],
  ['12-08', 'Mariä Empfängnis'],
  ['12-25', 'Christtag'],
  ['12-26', 'Stefanitag'],
] as const;
/** Slot times of a working day; Saturdays (some rooms) only the first. */
const SLOT_TIMES = [
  ['08:00', '12:00'],
  ['12:30', '16:30'],
  ['17:00', '20:00'],
] as const;

const MINUTE = 60_000;
const DAY_MS = 86_400_000;
/** An instant of a local date and time (Vienna is an hour or two ahead of UTC; an hour is close enough here). */
const instantOf = (date: string, minutes = 0) =>
  Date.parse(`${date}T00:00:00Z`) + (minutes - 60) * MINUTE;

interface Slot {
  id: string;
  roomId: string;
  roomIndex: number;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
  taken: number;
}

interface Visitor {
  firstName: string;
  lastName: string;
  salutation: 'MR' | 'MS' | 'NONE';
  title: string | null;
  organisation: string | null;
  email: string;
  phone: string;
  key: string;
}

interface Req {
  streamId: string;
  streamType: string;
  events: NewEvent[];
}

interface Command {
  at: number;
  seq: number;
  actor: Actor;
  requests: Req[];
  booking?: {
    ownerId: string;
    transactionId: string;
    visitorKey: string;
    bookingNumber: string;
    language: 'de' | 'en';
  };
  personal?: { ownerId: string; visitor: Visitor; accessibility: boolean; eraseAfter: string };
  guards?: { slot: Slot }[];
  /** The write side's `holiday_state` rows of created holidays. */
  holidays?: { id: string; name: string; date: string }[];
  blacklistEmail?: { entryKey: string; email: string };
}

const ev = (type: string, data: unknown): NewEvent => ({ type, data });
const admin: Actor = { kind: 'admin', username: 'admin' };
const visitorActor: Actor = { kind: 'visitor' };

/** Generates the log and writes it to the (migrated, empty) database behind `pool`. */
export async function generateLog(pool: Pool, options: GenerateOptions): Promise<GeneratedLog> {
  const started = performance.now();
  const log = options.log ?? ((line: string) => console.log(line));
  const rnd = seededRandom(options.seed ?? 7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const between = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
  const timeZone = options.timeZone ?? 'Europe/Vienna';
  const keySecret = options.keySecret ?? 'bench-visitor-key-secret';
  const now = Date.now();
  const today = todayIn(new Date(now), timeZone);
  const firstDate = addDays(today, -Math.floor(options.days / 2));
  const lastDate = addDays(firstDate, options.days - 1);
  const simStart = instantOf(addDays(firstDate, -60));

  const commands: Command[] = [];
  let seq = 0;
  let eventCount = 0;
  const add = (c: Omit<Command, 'seq'>) => {
    commands.push({ ...c, seq: seq++ });
    for (const r of c.requests) eventCount += r.events.length;
  };

  // Rooms, their order, holidays, a small blacklist: set up before the year begins.
  const rooms = Array.from({ length: options.rooms }, (_, i) => ({
    id: randomUUID(),
    name: ROOM_NAMES[i % ROOM_NAMES.length]! + (i >= ROOM_NAMES.length ? ` ${i + 1}` : ''),
    capacity: 12 + ((i * 7) % 30),
    saturdays: i % 2 === 0,
  }));
  rooms.forEach((r, i) =>
    add({
      at: simStart - DAY_MS * 10 + i * MINUTE,
      actor: admin,
      requests: [
        {
          streamId: roomStreamId(r.id),
          streamType: 'room',
          events: [
            ev('RoomCreated', {
              roomId: r.id,
              name: r.name,
              description: `${r.name}: Arbeitsplätze mit Leselampe und Steckdose`,
              capacity: r.capacity,
              openStart: { type: 'DAY', value: 1 },
              openEnd: { type: 'DAY', value: 120 },
            }),
          ],
        },
      ],
    }),
  );
  add({
    at: simStart - DAY_MS * 9,
    actor: admin,
    requests: [
      {
        streamId: ROOM_ORDER_STREAM,
        streamType: 'room-order',
        events: [ev('RoomOrderChanged', { roomIds: rooms.map((r) => r.id) })],
      },
    ],
  });
  const holidayDates = new Set<string>();
  const holidayEvents: NewEvent[] = [];
  const holidays: NonNullable<Command['holidays']> = [];
  for (let y = Number(firstDate.slice(0, 4)); y <= Number(lastDate.slice(0, 4)); y++) {
    for (const [md, name] of HOLIDAYS) {
      const date = `${y}-${md}`;
      const holiday = { id: randomUUID(), name, date };
      holidayDates.add(date);
      holidays.push(holiday);
      holidayEvents.push(ev('HolidayCreated', { holidayId: holiday.id, name, date }));
    }
  }
  add({
    at: simStart - DAY_MS * 8,
    actor: admin,
    requests: [{ streamId: HOLIDAYS_STREAM, streamType: 'holidays', events: holidayEvents }],
    holidays,
  });
  const blacklisted = 5;
  for (let i = 0; i < blacklisted; i++) {
    const email = `spam${i}@example.net`;
    const entryKey = emailKey(keySecret, email);
    add({
      at: simStart - DAY_MS * 7 + i * MINUTE,
      actor: admin,
      requests: [
        {
          streamId: blacklistStreamId(entryKey),
          streamType: 'blacklist',
          events: [
            ev('BlacklistEntryAdded', {
              entryKey,
              expiredAt: addDays(lastDate, 365),
              description: 'no-shows',
            }),
          ],
        },
      ],
      blacklistEmail: { entryKey, email },
    });
  }

  // Slots: every opening day of the year per room (Mon-Fri, Saturdays in some rooms, no holidays),
  // created month by month and time by time (one series command each), a month ahead.
  const slots: Slot[] = [];
  const byRoomDate = new Map<string, Slot[]>();
  const estTickets = options.tickets ?? Math.ceil((options.events ?? 1_000_000) / 5.4);
  let seatsBase = 0;
  const plan: { room: number; date: string; times: (typeof SLOT_TIMES)[number][] }[] = [];
  for (let d = firstDate; d <= lastDate; d = addDays(d, 1)) {
    if (holidayDates.has(d)) continue;
    const sunday = new Date(`${d}T00:00:00Z`).getUTCDay() === 0;
    if (sunday) continue;
    rooms.forEach((r, i) => {
      if (isWeekend(d) && !r.saturdays) return;
      const times = isWeekend(d) ? SLOT_TIMES.slice(0, 1) : [...SLOT_TIMES];
      plan.push({ room: i, date: d, times });
      seatsBase += r.capacity * times.length;
    });
  }
  // Enough seats for the tickets that stay held or booked, with room to spare.
  const scale = Math.max(1, (estTickets * 1.15) / seatsBase);
  const series = new Map<string, Slot[]>();
  for (const p of plan) {
    const room = rooms[p.room]!;
    for (const [startTime, endTime] of p.times) {
      const slot: Slot = {
        id: randomUUID(),
        roomId: room.id,
        roomIndex: p.room,
        date: p.date,
        startTime,
        endTime,
        capacity: Math.ceil(room.capacity * scale),
        taken: 0,
      };
      slots.push(slot);
      const key = `${room.id}|${p.date}`;
      byRoomDate.set(key, [...(byRoomDate.get(key) ?? []), slot]);
      const sKey = `${room.id}|${p.date.slice(0, 7)}|${startTime}`;
      series.set(sKey, [...(series.get(sKey) ?? []), slot]);
    }
  }
  for (const list of series.values()) {
    const first = list[0]!;
    add({
      at:
        Math.max(simStart - DAY_MS * 5, instantOf(first.date.slice(0, 7) + '-01') - DAY_MS * 70) +
        first.roomIndex * MINUTE,
      actor: admin,
      requests: list.map((s) => ({
        streamId: timeSlotStreamId(s.id),
        streamType: 'timeslot',
        events: [
          ev('TimeSlotCreated', {
            timeSlotId: s.id,
            roomId: s.roomId,
            date: s.date,
            startTime: s.startTime,
            endTime: s.endTime,
            capacity: s.capacity,
          }),
        ],
      })),
      guards: list.map((slot) => ({ slot })),
    });
  }

  // Visitors: a name, an address, a key; many book more than once.
  const visitors: Visitor[] = Array.from(
    { length: Math.max(50, Math.ceil(estTickets / 4)) },
    (_, i) => {
      const firstName = pick(FIRST_NAMES);
      const lastName = pick(LAST_NAMES);
      const email = `${firstName}.${lastName}.${i}@example.org`
        .toLowerCase()
        .replace(/[^a-z0-9.@]/g, 'x');
      const x = rnd();
      return {
        firstName,
        lastName,
        salutation: x < 0.45 ? 'MS' : x < 0.9 ? 'MR' : 'NONE',
        title: rnd() < 0.15 ? pick(['Dr.', 'Mag.', 'Prof.', 'DI']) : null,
        organisation: rnd() < 0.4 ? pick(ORGANISATIONS) : null,
        email,
        phone: `+43${between(600000000, 699999999)}`,
        key: emailKey(keySecret, email),
      };
    },
  );

  // Carts until the tickets (or the events) are made.
  const ticketsByStatus: Record<TicketStatus, number> = {
    NEW: 0,
    BOOKED: 0,
    CANCELLED: 0,
    INVALID: 0,
  };
  const transactionsByStatus: Record<TransactionStatus, number> = {
    NEW: 0,
    BOOKED: 0,
    REMOVED: 0,
    EXPIRED: 0,
  };
  const open = slots.filter((s) => instantOf(s.date, minutesOf(s.startTime)) > simStart + DAY_MS);
  const bookingNumbers = new Set<string>();
  const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  const newBookingNumber = () => {
    for (;;) {
      const n = `R-${[...randomBytes(6)].map((b) => ALPHABET[b % 32]).join('')}`;
      if (!bookingNumbers.has(n)) {
        bookingNumbers.add(n);
        return n;
      }
    }
  };
  let tickets = 0;
  let bookings = 0;
  let personalData = 0;
  const MAX_CART_EVENTS = 40;
  const more = () =>
    options.tickets !== undefined
      ? tickets < options.tickets &&
        (options.events === undefined || eventCount + MAX_CART_EVENTS <= options.events)
      : eventCount + MAX_CART_EVENTS <= options.events!;
  while (more() && open.length > 0) {
    const idx = Math.floor(rnd() * open.length);
    const first = open[idx]!;
    if (first.taken >= first.capacity) {
      open[idx] = open[open.length - 1]!;
      open.pop();
      continue;
    }
    const firstStart = instantOf(first.date, minutesOf(first.startTime));
    // The cart is made up to 45 days before the visit, never later than 20 minutes ago.
    const from = Math.max(simStart, firstStart - 45 * DAY_MS);
    const until = Math.min(now - 20 * MINUTE, firstStart - 2 * 3600_000);
    if (until <= from) {
      open[idx] = open[open.length - 1]!;
      open.pop();
      continue;
    }
    let t = from + Math.floor(rnd() * (until - from));
    const x = rnd();
    const size = x < 0.55 ? 1 : x < 0.85 ? 2 : x < 0.95 ? 3 : x < 0.99 ? 4 : 5;
    const cartSlots = [first];
    for (let tries = 0; cartSlots.length < size && tries < 12; tries++) {
      const date = addDays(first.date, between(0, 6));
      const cands = byRoomDate.get(`${first.roomId}|${date}`);
      if (!cands) continue;
      const s = pick(cands);
      if (cartSlots.includes(s) || s.taken >= s.capacity) continue;
      cartSlots.push(s);
    }
    const visitor = pick(visitors);
    const transactionId = randomUUID();
    const cartStream = transactionStreamId(transactionId);
    const held: { ticketId: string; slot: Slot }[] = [];
    const expiry = (at: number) => new Date(at + 15 * MINUTE).toISOString();
    let expiresAt = '';
    for (const slot of cartSlots) {
      const ticketId = randomUUID();
      expiresAt = expiry(t);
      const cartEvents: NewEvent[] = [];
      if (held.length === 0)
        cartEvents.push(ev('TransactionStarted', { transactionId, expiresAt }));
      cartEvents.push(
        ev('TicketAddedToTransaction', {
          ticketId,
          timeSlotId: slot.id,
          roomId: slot.roomId,
          date: slot.date,
          startTime: slot.startTime,
          endTime: slot.endTime,
          expiresAt,
        }),
      );
      const requests: Req[] = [
        { streamId: cartStream, streamType: 'transaction', events: cartEvents },
        {
          streamId: timeSlotStreamId(slot.id),
          streamType: 'timeslot',
          events: [ev('TicketHeld', { ticketId, timeSlotId: slot.id, transactionId, expiresAt })],
        },
        ...held.map((h) => ({
          streamId: timeSlotStreamId(h.slot.id),
          streamType: 'timeslot',
          events: [ev('TicketHoldExtended', { ticketId: h.ticketId, expiresAt })],
        })),
      ];
      add({ at: t, actor: visitorActor, requests });
      held.push({ ticketId, slot });
      slot.taken += 1;
      tickets += 1;
      t += between(20, 120) * 1000;
    }
    const release = (h: { ticketId: string; slot: Slot }, reason: string) => ({
      streamId: timeSlotStreamId(h.slot.id),
      streamType: 'timeslot',
      events: [ev('TicketReleased', { ticketId: h.ticketId, reason })],
    });
    // Now and then a ticket comes out of the cart again.
    if (held.length > 1 && rnd() < 0.08) {
      const h = held.splice(Math.floor(rnd() * held.length), 1)[0]!;
      add({
        at: t,
        actor: visitorActor,
        requests: [
          {
            streamId: cartStream,
            streamType: 'transaction',
            events: [ev('TicketRemovedFromTransaction', { ticketId: h.ticketId })],
          },
          release(h, 'removed'),
        ],
      });
      h.slot.taken -= 1;
      ticketsByStatus.INVALID += 1;
      t += between(5, 60) * 1000;
    }
    // Filling in the form takes a while: the cart is touched.
    if (rnd() < 0.25) {
      t += between(3, 10) * MINUTE;
      expiresAt = expiry(t);
      add({
        at: t,
        actor: visitorActor,
        requests: [
          {
            streamId: cartStream,
            streamType: 'transaction',
            events: [ev('TransactionTouched', { expiresAt })],
          },
          ...held.map((h) => ({
            streamId: timeSlotStreamId(h.slot.id),
            streamType: 'timeslot',
            events: [ev('TicketHoldExtended', { ticketId: h.ticketId, expiresAt })],
          })),
        ],
      });
    }
    const outcome = rnd();
    const lastTouch = t;
    /** The cart ends unbooked (it expired, or the visitor removed it): every hold is released. */
    const end = (at: number, actor: Actor, status: 'EXPIRED' | 'REMOVED') => {
      const [type, reason] =
        status === 'EXPIRED'
          ? ['TransactionExpired', 'expired']
          : ['TransactionRemoved', 'transaction_removed'];
      add({
        at,
        actor,
        requests: [
          {
            streamId: cartStream,
            streamType: 'transaction',
            events: [ev(type, { transactionId })],
          },
          ...held.map((h) => release(h, reason)),
        ],
      });
      for (const h of held) h.slot.taken -= 1;
      transactionsByStatus[status] += 1;
      ticketsByStatus.INVALID += held.length;
    };
    if (now - lastTouch < 15 * MINUTE) {
      transactionsByStatus.NEW += 1;
      ticketsByStatus.NEW += held.length;
    } else if (outcome < 0.1) {
      end(
        Date.parse(expiresAt) + between(1, 5) * 1000,
        { kind: 'system', job: 'cart-expiry' },
        'EXPIRED',
      );
    } else if (outcome < 0.15) {
      end(t + between(10, 120) * 1000, visitorActor, 'REMOVED');
    } else {
      const bookedAt = t + between(30, 300) * 1000;
      const ownerId = randomBytes(16).toString('hex');
      const bookingNumber = newBookingNumber();
      const language = rnd() < 0.8 ? 'de' : 'en';
      const lastBooked = held
        .map((h) => h.slot.date)
        .sort()
        .at(-1)!;
      const eraseAfter = addDays(lastBooked, 1);
      const erasedAt = instantOf(eraseAfter, 90);
      const erased = options.erase === true && eraseAfter <= today && erasedAt < now;
      add({
        at: bookedAt,
        actor: visitorActor,
        requests: [
          {
            streamId: cartStream,
            streamType: 'transaction',
            events: [
              ev('TransactionBooked', {
                transactionId,
                ownerId,
                bookingNumber,
                visitorKey: visitor.key,
                language,
                ticketIds: held.map((h) => h.ticketId),
              }),
            ],
          },
          ...held.map((h) => ({
            streamId: timeSlotStreamId(h.slot.id),
            streamType: 'timeslot',
            events: [ev('TicketBooked', { ticketId: h.ticketId, ownerId })],
          })),
          {
            streamId: visitorStreamId(visitor.key),
            streamType: 'visitor',
            events: [
              ev('VisitorTicketsBooked', {
                ownerId,
                tickets: held.map((h) => ({
                  ticketId: h.ticketId,
                  date: h.slot.date,
                  startTime: h.slot.startTime,
                  endTime: h.slot.endTime,
                })),
              }),
            ],
          },
        ],
        booking: { ownerId, transactionId, visitorKey: visitor.key, bookingNumber, language },
        // The end state of the erasure job: past bookings' personal data is gone.
        ...(erased
          ? {}
          : { personal: { ownerId, visitor, accessibility: rnd() < 0.05, eraseAfter } }),
      });
      bookings += 1;
      if (!erased) personalData += 1;
      transactionsByStatus.BOOKED += 1;
      // Some cancel one or all of their tickets before the visit.
      let cancelled = 0;
      if (rnd() < 0.07) {
        const which = rnd() < 0.5 ? held : [pick(held)];
        const earliest = Math.min(
          ...which.map((h) => instantOf(h.slot.date, minutesOf(h.slot.startTime))),
        );
        const cFrom = bookedAt + 3600_000;
        const cUntil = Math.min(now - MINUTE, earliest - 3600_000);
        if (cUntil > cFrom) {
          add({
            at: cFrom + Math.floor(rnd() * (cUntil - cFrom)),
            actor: rnd() < 0.2 ? admin : visitorActor,
            requests: [
              ...which.map((h) => ({
                streamId: timeSlotStreamId(h.slot.id),
                streamType: 'timeslot',
                events: [ev('TicketCancelled', { ticketId: h.ticketId, ownerId })],
              })),
              {
                streamId: visitorStreamId(visitor.key),
                streamType: 'visitor',
                events: which.map((h) => ev('VisitorTicketCancelled', { ticketId: h.ticketId })),
              },
            ],
          });
          for (const h of which) h.slot.taken -= 1;
          cancelled = which.length;
        }
      }
      ticketsByStatus.CANCELLED += cancelled;
      ticketsByStatus.BOOKED += held.length - cancelled;
      if (erased) {
        add({
          at: erasedAt,
          actor: { kind: 'system', job: 'personal-data-erasure' },
          requests: [
            {
              streamId: cartStream,
              streamType: 'transaction',
              events: [ev('PersonalDataErased', { ownerId })],
            },
          ],
        });
      }
    }
  }
  // An exact event count: the rest as room descriptions being edited.
  if (options.events !== undefined) {
    let n = 0;
    while (eventCount < options.events) {
      const r = rooms[n % rooms.length]!;
      add({
        at: now - (options.events - eventCount) * 1000,
        actor: admin,
        requests: [
          {
            streamId: roomStreamId(r.id),
            streamType: 'room',
            events: [
              ev('RoomUpdated', {
                roomId: r.id,
                name: r.name,
                description: `${r.name}: Arbeitsplätze mit Leselampe und Steckdose (${++n})`,
                capacity: r.capacity,
                openStart: { type: 'DAY', value: 1 },
                openEnd: { type: 'DAY', value: 120 },
              }),
            ],
          },
        ],
      });
    }
  }
  log(
    `generated ${eventCount.toLocaleString('en')} events in ${commands.length.toLocaleString('en')} commands; writing ...`,
  );

  commands.sort((a, b) => a.at - b.at || a.seq - b.seq);
  const streams = await writeCommands(pool, commands, options.chunkEvents ?? 20_000, log);
  // The write side's room_state rows (migration 020): the rooms as created, in their order.
  await pool.query(
    `INSERT INTO room_state (room_id, version, name, has_image, open_start_type, open_start_value,
                             open_end_type, open_end_value, sort_order)
     SELECT id, 1, name, false, 'DAY', 1, 'DAY', 120, (ord - 1)::int
       FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS r(id, name, ord)`,
    [rooms.map((r) => r.id), rooms.map((r) => r.name)],
  );
  const seatsTaken = ticketsByStatus.NEW + ticketsByStatus.BOOKED;
  return {
    events: eventCount,
    streams,
    rooms: rooms.map((r) => ({ id: r.id, name: r.name })),
    holidays: holidayEvents.length,
    blacklistEntries: blacklisted,
    slots: slots.length,
    firstDate,
    lastDate,
    tickets,
    ticketsByStatus,
    transactionsByStatus,
    seatsTaken,
    bookings,
    personalData,
    lastNames: LAST_NAMES,
    seconds: (performance.now() - started) / 1000,
  };
}

// --- the bulk writer -------------------------------------------------------------------------------

/** Writes commands in order, chunk by chunk, each chunk one transaction; answers the number of streams. */
async function writeCommands(
  pool: Pool,
  commands: Command[],
  chunkEvents: number,
  log: (line: string) => void,
): Promise<number> {
  const versions = new Map<string, number>();
  let written = 0;
  let i = 0;
  const started = performance.now();
  while (i < commands.length) {
    const ev = {
      stream: [] as string[],
      version: [] as number[],
      id: [] as string[],
      type: [] as string[],
      data: [] as string[],
      meta: [] as string[],
      at: [] as string[],
    };
    const touched = new Map<string, string>();
    const bookings: NonNullable<Command['booking']>[] = [];
    const bookingAt: string[] = [];
    const personal: NonNullable<Command['personal']>[] = [];
    const guards: Slot[] = [];
    const blacklist: NonNullable<Command['blacklistEmail']>[] = [];
    const holidayRows: NonNullable<Command['holidays']> = [];
    while (i < commands.length && ev.id.length < chunkEvents) {
      const c = commands[i++]!;
      const at = new Date(c.at).toISOString();
      const correlationId = randomUUID();
      for (const r of c.requests) {
        let v = versions.get(r.streamId) ?? 0;
        for (const e of r.events) {
          const checked = validateEvent(e);
          const metadata: EventMetadata = {
            correlationId,
            causationId: null,
            actor: c.actor,
            schemaVersion: checked.schemaVersion,
          };
          v += 1;
          ev.stream.push(r.streamId);
          ev.version.push(v);
          ev.id.push(randomUUID());
          ev.type.push(e.type);
          ev.data.push(JSON.stringify(checked.data));
          ev.meta.push(JSON.stringify(metadata));
          ev.at.push(at);
        }
        versions.set(r.streamId, v);
        touched.set(r.streamId, r.streamType);
      }
      if (c.booking) {
        bookings.push(c.booking);
        bookingAt.push(at);
      }
      if (c.personal) personal.push(c.personal);
      if (c.guards) guards.push(...c.guards.map((g) => g.slot));
      if (c.blacklistEmail) blacklist.push(c.blacklistEmail);
      if (c.holidays) holidayRows.push(...c.holidays);
    }
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const ids = [...touched.keys()];
      await client.query(
        `INSERT INTO streams (stream_id, stream_type, version)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
         ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version`,
        [ids, ids.map((s) => touched.get(s)!), ids.map((s) => versions.get(s)!)],
      );
      await client.query(
        `INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata, created_at)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[], $7::timestamptz[])`,
        [ev.stream, ev.version, ev.id, ev.type, ev.data, ev.meta, ev.at],
      );
      if (bookings.length) {
        await client.query(
          `INSERT INTO bookings (owner_id, transaction_id, visitor_key, booking_number, language, created_at)
           SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])`,
          [
            bookings.map((b) => b.ownerId),
            bookings.map((b) => b.transactionId),
            bookings.map((b) => b.visitorKey),
            bookings.map((b) => b.bookingNumber),
            bookings.map((b) => b.language),
            bookingAt,
          ],
        );
      }
      if (personal.length) {
        await client.query(
          `INSERT INTO personal_data (owner_id, salutation, title, first_name, last_name, organisation, email, phone, accessibility, erase_after)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::boolean[], $10::date[])`,
          [
            personal.map((p) => p.ownerId),
            personal.map((p) => p.visitor.salutation),
            personal.map((p) => p.visitor.title),
            personal.map((p) => p.visitor.firstName),
            personal.map((p) => p.visitor.lastName),
            personal.map((p) => p.visitor.organisation),
            personal.map((p) => p.visitor.email),
            personal.map((p) => p.visitor.phone),
            personal.map((p) => p.accessibility),
            personal.map((p) => p.eraseAfter),
          ],
        );
      }
      if (guards.length) {
        await client.query(
          `INSERT INTO timeslot_guard (time_slot_id, room_id, date, start_min, end_min)
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[], $4::int[], $5::int[])`,
          [
            guards.map((s) => s.id),
            guards.map((s) => s.roomId),
            guards.map((s) => s.date),
            guards.map((s) => minutesOf(s.startTime)),
            guards.map((s) => minutesOf(s.endTime)),
          ],
        );
      }
      if (holidayRows.length) {
        await client.query(
          `INSERT INTO holiday_state (holiday_id, date, name, version)
           SELECT id, date, name, 1 FROM unnest($1::uuid[], $2::date[], $3::text[]) AS h(id, date, name)`,
          [
            holidayRows.map((h) => h.id),
            holidayRows.map((h) => h.date),
            holidayRows.map((h) => h.name),
          ],
        );
      }
      if (blacklist.length) {
        await client.query(
          'INSERT INTO blacklist_emails (entry_key, email) SELECT * FROM unnest($1::text[], $2::text[])',
          [blacklist.map((b) => b.entryKey), blacklist.map((b) => b.email)],
        );
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    written += ev.id.length;
    if (written % 200_000 < chunkEvents)
      log(
        `  ${written.toLocaleString('en')} events written (${Math.round(written / ((performance.now() - started) / 1000)).toLocaleString('en')}/s)`,
      );
  }
  await pool.query('ANALYZE');
  return versions.size;
}
