import { HISTORY_WHATS } from '@rr/contracts/history';
import type { HistoryEntry } from '../../../api/types';
import { formatDate, formatTimeRange, getLibraryTimeZone } from '../../../lib/dates';

/** The `what` values of the history API (what happened to a ticket or a slot). */
export { HISTORY_WHATS, type HistoryWhat } from '@rr/contracts/history';

/** The background jobs that act on tickets and slots; another one reads as "System". */
export const HISTORY_JOBS = [
  'cart-expiry',
  'personal-data-erasure',
  'demo-seed',
  'confirmation-release',
  'no-show-release',
  'waitlist-matcher',
  'visitor-rekeying',
] as const;

/** A catalogue key (in the admin-history namespace) with its interpolation values. */
export interface Label {
  readonly key: string;
  readonly params?: Readonly<Record<string, string>>;
}

/**
 * What happened: every `what` of the history API has its own text; a rebooking names the slot the
 * ticket went to ("moved to …"), a hold and a seat change in a room with a seat plan the seat
 * ("Seat A12 held", "moved to seat A12"). A word this app does not know yet (a newer server) reads
 * as "other event": an event's or a code's name never reaches the screen.
 */
export function whatLabel(entry: Pick<HistoryEntry, 'what' | 'movedTo' | 'seat'>): Label {
  if ((entry.what === 'held' || entry.what === 'seat-changed') && entry.seat)
    return { key: `what.${entry.what}-seat`, params: { seat: entry.seat } };
  if (entry.what === 'moved' && entry.movedTo) {
    const { date, startTime, endTime } = entry.movedTo;
    return {
      key: 'what.moved-to',
      params: { slot: `${formatDate(date)}, ${formatTimeRange(startTime, endTime)}` },
    };
  }
  return (HISTORY_WHATS as readonly string[]).includes(entry.what)
    ? { key: `what.${entry.what}` }
    : { key: 'what.other' };
}

/**
 * By whom: the visitor, an administrator (by user name), an API token (by name) or a system job
 * (by what it does; never by its code name).
 */
export function actorLabel(actor: HistoryEntry['actor']): Label {
  switch (actor.kind) {
    case 'visitor':
      return { key: 'actor.visitor' };
    case 'admin':
      return actor.username
        ? { key: 'actor.admin', params: { username: actor.username } }
        : { key: 'actor.admin-unknown' };
    case 'api-token':
      return actor.name
        ? { key: 'actor.api-token', params: { name: actor.name } }
        : { key: 'actor.api-token-unknown' };
    case 'system': {
      const job = actor.job ?? '';
      return (HISTORY_JOBS as readonly string[]).includes(job)
        ? { key: `actor.jobs.${job}` }
        : { key: 'actor.system' };
    }
    default:
      return { key: 'actor.unknown' };
  }
}

/**
 * dd.MM.yyyy HH:mm of an instant in the time zone (default the library's); an unreadable value
 * is returned unchanged.
 */
export function formatTimestamp(iso: string, timeZone = getLibraryTimeZone()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((item) => item.type === type)?.value ?? '';
  return `${part('day')}.${part('month')}.${part('year')} ${part('hour')}:${part('minute')}`;
}

/** The entries in time order; entries of the same instant keep the server's order. */
export function sortHistory(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return entries
    .map((entry, index) => ({ entry, index, time: Date.parse(entry.at) }))
    .sort((a, b) => {
      const [x, y] = [Number.isNaN(a.time) ? 0 : a.time, Number.isNaN(b.time) ? 0 : b.time];
      return x - y || a.index - b.index;
    })
    .map(({ entry }) => entry);
}

/** Consecutive entries of the same kind by the same actor, shown as one row. */
export interface HistoryGroup {
  readonly first: HistoryEntry;
  readonly last: HistoryEntry;
  readonly count: number;
}

const sameActor = (a: HistoryEntry['actor'], b: HistoryEntry['actor']) =>
  a.kind === b.kind && a.username === b.username && a.job === b.job;

/**
 * Groups repeated events: a cart extends its hold on every add or touch, which would be seven
 * identical "hold extended" rows; they become one row with the count and the first and last time.
 */
export function groupHistory(entries: readonly HistoryEntry[]): HistoryGroup[] {
  const groups: HistoryGroup[] = [];
  for (const entry of sortHistory(entries)) {
    const previous = groups.at(-1);
    if (
      previous &&
      previous.last.what === entry.what &&
      previous.last.event === entry.event &&
      sameActor(previous.last.actor, entry.actor)
    ) {
      groups[groups.length - 1] = { ...previous, last: entry, count: previous.count + 1 };
    } else {
      groups.push({ first: entry, last: entry, count: 1 });
    }
  }
  return groups;
}
