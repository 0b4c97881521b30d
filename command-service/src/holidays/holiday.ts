import { randomUUID } from 'node:crypto';
import {
  HolidayCreated,
  HolidayDeleted,
  HolidayUpdated,
  type HolidayEvent,
  type NewEvent,
} from '@rr/events';
import { problems, type LocalDate } from '@rr/platform';

/** A holiday as the write side knows it: what its commands decide on. */
export interface Holiday {
  id: string;
  name: string;
  description: string | undefined;
  date: LocalDate;
  /** Number of events of this holiday: the version a client sends back with an update. */
  version: number;
}

export interface HolidayDetails {
  name: string;
  description: string | undefined;
  date: LocalDate;
}

/** One holiday after one of its events (undefined: deleted). */
export function evolveHoliday(
  current: Holiday | undefined,
  event: HolidayEvent,
): Holiday | undefined {
  switch (event.type) {
    case 'HolidayCreated':
    case 'HolidayUpdated':
      return {
        id: event.data.holidayId,
        name: event.data.name,
        description: event.data.description,
        date: event.data.date,
        version: (current?.version ?? 0) + 1,
      };
    case 'HolidayDeleted':
      return undefined;
  }
}

/** Every holiday after a history of holiday events: one step per event, O(n). */
export function foldHolidays(events: Iterable<HolidayEvent>): Map<string, Holiday> {
  const holidays = new Map<string, Holiday>();
  for (const event of events) {
    const id = event.data.holidayId;
    const next = evolveHoliday(holidays.get(id), event);
    if (next) holidays.set(id, next);
    else holidays.delete(id);
  }
  return holidays;
}

/** Same day and same name (ignoring case and spaces): what a re-import must not create twice. */
export const holidayIdentity = (date: string, name: string) =>
  `${date}|${name.trim().toLowerCase()}`;

export function decideHolidayCreate(holidayId: string, details: HolidayDetails): NewEvent[] {
  return [HolidayCreated.create({ holidayId, ...details })];
}

/** An update names the version the client saw; another one meanwhile is a conflict. */
export function decideHolidayUpdate(
  current: Holiday | undefined,
  update: HolidayDetails & { version: number },
): NewEvent[] {
  if (!current) throw problems.notFound('Holiday');
  if (current.version !== update.version) throw problems.versionConflict();
  const { version: _seen, ...details } = update;
  return [HolidayUpdated.create({ holidayId: current.id, ...details })];
}

export function decideHolidayDelete(current: Holiday | undefined): NewEvent[] {
  if (!current) throw problems.notFound('Holiday');
  return [HolidayDeleted.create({ holidayId: current.id })];
}

/**
 * One batch of an import: a holiday whose date and name exist already (`known`, the identities
 * on the batch's dates) is skipped as a duplicate, the others are created.
 */
export function decideHolidayImport(
  batch: readonly HolidayDetails[],
  known: ReadonlySet<string>,
  newId: () => string = randomUUID,
): { events: NewEvent[]; duplicates: number } {
  const events: NewEvent[] = [];
  const taken = new Set(known);
  let duplicates = 0;
  for (const h of batch) {
    const identity = holidayIdentity(h.date, h.name);
    if (taken.has(identity)) {
      duplicates += 1;
      continue;
    }
    taken.add(identity);
    events.push(decideHolidayCreate(newId(), h)[0]!);
  }
  return { events, duplicates };
}
