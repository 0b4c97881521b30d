import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Client } from './app.ts';

/**
 * Staff import the adversarial iCalendar files (a 10 KB series amplification, a 5 MB file of
 * 79,000 events) and the largest file the limits accept, while a visitor books again and again
 * and a monitor asks /api/healthz every 100 ms. Shared by the integration test, which checks what
 * does not depend on the machine (every answer right, nothing lost, the server answering, the
 * event loop never held), and `npm run bench:holiday-import`, which prints the visitor's
 * latencies beside a baseline of the same run without an import.
 */

const wrap = (events: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//load test//EN',
    ...events,
    'END:VCALENDAR',
    '',
  ].join('\r\n');

const dayOf = (i: number) => {
  const d = new Date(Date.UTC(2025, 0, 1) + (i % 2550) * 86_400_000);
  return d.toISOString().slice(0, 10).replace(/-/g, '');
};

/** The adversarial 10 KB file: 40 daily series of 200 occurrences, each a year long. */
function amplification(): string {
  return wrap(
    Array.from({ length: 40 }, (_, i) =>
      [
        'BEGIN:VEVENT',
        `UID:amp-${i}@load`,
        'DTSTART;VALUE=DATE:20260101',
        'DTEND;VALUE=DATE:20270101',
        'RRULE:FREQ=DAILY;COUNT=200',
        `SUMMARY:Amplification ${i}`,
        'END:VEVENT',
      ].join('\r\n'),
    ),
  );
}

/** Single-day events with `padding` characters of description each. */
function plain(events: number, padding: number): string {
  const out: string[] = [];
  for (let i = 0; i < events; i++) {
    out.push(
      [
        'BEGIN:VEVENT',
        `UID:e${i}@load`,
        `DTSTART;VALUE=DATE:${dayOf(i)}`,
        `SUMMARY:Schließtag ${i}`,
        ...(padding ? [`DESCRIPTION:${'x'.repeat(padding)}`] : []),
        'END:VEVENT',
      ].join('\r\n'),
    );
  }
  return wrap(out);
}

/** As many events as fit: the bare minimum of each (no UID, LF line ends), as the attack had. */
function compact(events: number): string {
  let text = 'BEGIN:VCALENDAR\nVERSION:2.0\n';
  for (let i = 0; i < events; i++)
    text += `BEGIN:VEVENT\nDTSTART:${dayOf(i)}\nSUMMARY:H${i}\nEND:VEVENT\n`;
  return `${text}END:VCALENDAR\n`;
}

export interface CalendarFile {
  name: string;
  text: string;
  events: number;
  /** The answer the import must give (a refusal's code and payload, or what it imported). */
  expected: Record<string, unknown>;
}

/** The import window of the scenario's clock is 2025-01-01..2031-12-31 (see the test's clock). */
export const HOLIDAY_IMPORT_FILES = (): CalendarFile[] => [
  {
    name: 'amplification (40 daily series x 200, each a year long)',
    text: amplification(),
    events: 40,
    expected: { error: 'calendar__too_many_days', payload: ['10000'] },
  },
  {
    name: '5 MB of 79,000 events',
    text: compact(79_000),
    events: 79_000,
    expected: { error: 'calendar__too_many_events', payload: ['10000'] },
  },
  {
    name: 'the largest accepted: 10,000 events with descriptions',
    text: plain(10_000, 390),
    events: 10_000,
    expected: { imported: 10_000, duplicates: 0, outOfWindow: 0, ignored: 0 },
  },
];

const upload = (text: string) => {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/calendar' }), 'load.ics');
  return form;
};

export interface ImportFigure {
  file: string;
  bytes: number;
  events: number;
  status: number;
  body: Record<string, unknown>;
  importMs: number;
}

export interface LoadFigures {
  /** Each file's answer and how long it took (empty without imports). */
  imports: ImportFigure[];
  /** The visitor's requests: cart, calendar, booking, one after the other. */
  latenciesMs: number[];
  /** Answers the visitor did not expect, as `status body`. */
  failures: string[];
  bookings: number;
  health: { asked: number; answered: number; slowestMs: number };
  eventLoop: { p99Ms: number; maxMs: number };
  rss: { beforeMiB: number; peakMiB: number };
}

export interface LoadScenario {
  baseUrl: string;
  /** Signed in as a staff member who may import holidays. */
  admin: Client;
  roomId: string;
  /** A slot of the room with room for every booking of the run. */
  slotId: string;
  slotDay: string;
  /** The files to import while the visitor books (none: the same visitor alone, a baseline). */
  files: CalendarFile[];
  /** How long the visitor books alone before and after the imports. */
  quietMs: number;
  /** How long a health check may take before it counts as unanswered. */
  healthTimeoutMs: number;
}

/**
 * Runs the visitor and the health monitor, imports the files one after the other and stops both
 * after `quietMs` more. Measures the event loop of this process (where the app under test runs
 * in the test and in the benchmark).
 */
export async function runHolidayImportLoad(s: LoadScenario): Promise<LoadFigures> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let running = true;
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;

  const health = { asked: 0, answered: 0, slowestMs: 0 };
  const monitor = (async () => {
    while (running) {
      health.asked += 1;
      const t = performance.now();
      try {
        const r = await fetch(`${s.baseUrl}/api/healthz`, {
          signal: AbortSignal.timeout(s.healthTimeoutMs),
        });
        if (r.status === 200) health.answered += 1;
      } catch {
        // unanswered
      }
      health.slowestMs = Math.max(health.slowestMs, performance.now() - t);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  // The visitor: a cart, its calendar read (waiting for its own write), the booking.
  const latenciesMs: number[] = [];
  const failures: string[] = [];
  const timed = async (step: () => Promise<Response>, expected: number) => {
    const t = performance.now();
    const r = await step();
    latenciesMs.push(performance.now() - t);
    if (r.status !== expected) failures.push(`${r.status} ${await r.text()}`);
    return r;
  };
  let bookings = 0;
  // Addresses of this run only: a run before on the same slot counts against no visitor's limits.
  const run = randomBytes(3).toString('hex');
  const visitor = (async () => {
    for (let n = 0; running; n++) {
      const v = new Client(s.baseUrl);
      const cart = await timed(
        () => v.request('POST', '/api/transactions', { json: { timeSlotId: s.slotId } }),
        201,
      );
      if (cart.status !== 201) continue;
      const { transactionId } = (await cart.json()) as { transactionId: string };
      await timed(
        () => v.get(`/api/rooms/${s.roomId}/booking?fromDate=${s.slotDay}&untilDate=${s.slotDay}`),
        200,
      );
      const booked = await timed(
        () =>
          v.request('PUT', `/api/transactions/${transactionId}/booking`, {
            json: {
              salutation: 'MS',
              firstName: 'Lena',
              lastName: 'Last',
              email: `lena.${run}.${n}@example.at`,
              phone: '+436641234567',
              language: 'de',
            },
          }),
        200,
      );
      if (booked.status === 200) bookings += 1;
    }
  })();

  const imports: ImportFigure[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, s.quietMs));
    for (const file of s.files) {
      const t = performance.now();
      const r = await s.admin.request('POST', '/api/admin/holidays/ical', {
        form: upload(file.text),
      });
      const importMs = performance.now() - t;
      imports.push({
        file: file.name,
        bytes: Buffer.byteLength(file.text),
        events: file.events,
        status: r.status,
        body: (await r.json()) as Record<string, unknown>,
        importMs: Math.round(importMs),
      });
    }
    await new Promise((resolve) => setTimeout(resolve, s.quietMs));
  } finally {
    running = false;
    await Promise.allSettled([monitor, visitor]);
    loop.disable();
  }
  const ms = (ns: number) => Math.round(ns / 1e6);
  return {
    imports,
    latenciesMs,
    failures,
    bookings,
    health,
    eventLoop: { p99Ms: ms(loop.percentile(99)), maxMs: ms(loop.max) },
    rss: { beforeMiB: Math.round(rssBefore / 2 ** 20), peakMiB: Math.round(peakRss / 2 ** 20) },
  };
}
