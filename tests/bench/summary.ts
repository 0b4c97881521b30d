/**
 * The table of issue #7 from bench-results.json (`npm run bench:summary`, the last step of
 * `npm run bench`): each figure, its baseline from the same run, the ratio, the target and
 * whether it is met. Exits 1 when a figure is missing or a target is not met.
 */
import { existsSync, readFileSync } from 'node:fs';
import { printTable, resultsFile, round } from './lib.ts';

interface Latency {
  p50: number;
  p95: number;
  p99: number;
}
interface Results {
  commands?: {
    host: { cpus: number };
    baseline: { perSecond: number };
    cartAdd: { perSecond: number; ratioToBaseline: number };
    visitorFlow: { perSecond: number; commandsPerSecond: number; ratioToBaseline: number };
    hotSlot: { outcomes: Record<string, number>; capacity: number; latencyMs: Latency };
    projectionLag: { commandsPerSecond: number; latencyMs: Latency };
    rssMiB: { idle: number; peakUnderCartAdds: number };
    checks: Record<string, boolean>;
  };
  rebuild?: {
    events: number;
    baseline: { eventsPerSecond: number };
    rebuild: { eventsPerSecond: number };
    ratioToBaseline: number;
  };
  queries?: {
    baseline: { latencyMs: Latency };
    calendar: { latencyMs: Latency };
    reservationsPage1: { latencyMs: Latency };
    reservationsPage500: { latencyMs: Latency };
  };
  bundle?: { visitor: { gzipBytes: number }; limitBytes: number };
}

if (!existsSync(resultsFile)) {
  console.error('bench-results.json is missing: run `npm run bench` first');
  process.exit(1);
}
const r = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
const rows: (string | number)[][] = [];
let failed = 0;
const verdict = (ok: boolean | null) => {
  if (ok === null) return '-';
  if (!ok) failed += 1;
  return ok ? 'yes' : 'NO';
};
const missing = (figure: string, script: string) => {
  failed += 1;
  rows.push([figure, `missing: run npm run bench:${script}`, '', '', '', 'NO']);
};

const c = r.commands;
if (c) {
  const base = `${Math.round(c.baseline.perSecond)} TPC-B tx/s`;
  rows.push([
    'Cart adds/s over HTTP, 16 clients, distinct slots',
    Math.round(c.cartAdd.perSecond),
    base,
    c.cartAdd.ratioToBaseline,
    '>= 0.5',
    verdict(c.cartAdd.ratioToBaseline >= 0.5),
  ]);
  rows.push([
    'Visitor flows/s (cart, 2nd ticket, book)',
    round(c.visitorFlow.perSecond, 1),
    base,
    c.visitorFlow.ratioToBaseline,
    'report',
    verdict(null),
  ]);
  const holds = c.hotSlot.outcomes['201'] ?? 0;
  const fivexx = Object.entries(c.hotSlot.outcomes)
    .filter(([k]) => k.startsWith('5'))
    .reduce((n, [, v]) => n + v, 0);
  rows.push([
    'Hot slot: 500 adds, capacity 50',
    `${holds} holds, ${fivexx} 5xx, p99 ${c.hotSlot.latencyMs.p99} ms`,
    '-',
    '-',
    '50 holds, 0 5xx, p99 < 1 s',
    verdict(holds === c.hotSlot.capacity && fivexx === 0 && c.hotSlot.latencyMs.p99 < 1000),
  ]);
  rows.push([
    `Projection lag at ${c.projectionLag.commandsPerSecond} commands/s`,
    `p99 ${c.projectionLag.latencyMs.p99} ms`,
    '-',
    '-',
    'p99 < 50 ms',
    verdict(c.projectionLag.latencyMs.p99 < 50),
  ]);
  rows.push([
    'All-in-one server RSS',
    `${c.rssMiB.idle} MiB idle, ${c.rssMiB.peakUnderCartAdds} MiB under load`,
    '-',
    '-',
    '< 250 MB idle',
    verdict(c.rssMiB.idle * 1.048576 < 250),
  ]);
} else missing('Command figures', 'commands');

const rb = r.rebuild;
if (rb) {
  rows.push([
    `Rebuild of all read models, ${rb.events.toLocaleString('en')} events`,
    `${Math.round(rb.rebuild.eventsPerSecond)} events/s`,
    `${Math.round(rb.baseline.eventsPerSecond)} events/s raw read`,
    rb.ratioToBaseline,
    '>= 20,000 events/s',
    verdict(rb.rebuild.eventsPerSecond >= 20_000),
  ]);
} else missing('Rebuild', 'rebuild');

const q = r.queries;
if (q) {
  const base = `SELECT 1 p95 ${q.baseline.latencyMs.p95} ms`;
  const ratio = (l: Latency) => round(l.p95 / q.baseline.latencyMs.p95, 1);
  rows.push([
    'Visitor month calendar (10 rooms x 1 year, 100k tickets)',
    `p95 ${q.calendar.latencyMs.p95} ms`,
    base,
    ratio(q.calendar.latencyMs),
    'p95 < 10 ms',
    verdict(q.calendar.latencyMs.p95 < 10),
  ]);
  for (const [label, page] of [
    ['page 1', q.reservationsPage1],
    ['page 500', q.reservationsPage500],
  ] as const) {
    rows.push([
      `Reservations search by name, 100k tickets, ${label}`,
      `p95 ${page.latencyMs.p95} ms`,
      base,
      ratio(page.latencyMs),
      'p95 < 30 ms',
      verdict(page.latencyMs.p95 < 30),
    ]);
  }
} else missing('Queries', 'queries');

const b = r.bundle;
if (b) {
  rows.push([
    'Visitor JS, gzip',
    `${b.visitor.gzipBytes.toLocaleString('en')} B`,
    '-',
    round(b.visitor.gzipBytes / b.limitBytes, 3),
    `<= ${b.limitBytes.toLocaleString('en')} B`,
    verdict(b.visitor.gzipBytes <= b.limitBytes),
  ]);
} else missing('Visitor bundle', 'bundle');

console.log(`\nIssue #7 figures (${c?.host.cpus ?? '?'} cores), from bench-results.json:\n`);
printTable(['figure', 'measured', 'baseline', 'ratio', 'target', 'met'], rows);
console.log(failed ? `\n${failed} target(s) not met or missing` : '\nall targets met');
process.exit(failed ? 1 : 0);
