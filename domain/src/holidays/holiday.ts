import {
  HolidayCreated,
  HolidayDeleted,
  HolidayUpdated,
  type HolidayEvent,
} from '@rr/events/catalogue';
import type { LocalDate } from '../calendar.ts';
import { type Decide, unhandled } from '../decider.ts';
import { mustNameASite, refuse } from '../refusal.ts';

/** A holiday as the write side knows it: what its commands decide on. */
export interface Holiday {
  id: string;
  name: string;
  description: string | undefined;
  date: LocalDate;
  /** The site whose rooms it applies to; undefined: the whole system's (every site). */
  siteId: string | undefined;
  /** Number of events of this holiday: the version a client sends back with an update. */
  version: number;
}

/** `nameEn` and `descriptionEn`: the English texts, absent while staff leave them empty. */
export interface HolidayDetails {
  name: string;
  nameEn?: string | undefined;
  description: string | undefined;
  descriptionEn?: string | undefined;
  date: LocalDate;
  /** The site whose rooms it applies to; absent: every site (docs/product.md#sites). */
  siteId?: string | undefined;
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
        siteId: event.data.siteId,
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

/**
 * Same day, same name (ignoring case and spaces) and same site (or both the whole system's): what
 * a re-import must not create twice.
 */
export const holidayIdentity = (date: string, name: string, siteId?: string | null) =>
  `${siteId ?? '*'}|${date}|${name.trim().replace(/\s+/g, ' ').toLowerCase()}`;

export type HolidayCommand =
  | { type: 'CreateHoliday'; data: HolidayDetails & { holidayId: string } }
  /** An update names the version the client saw; another one meanwhile is a conflict. */
  | { type: 'UpdateHoliday'; data: HolidayDetails & { holidayId: string; version: number } }
  | { type: 'DeleteHoliday'; data: { holidayId: string } }
  /**
   * One batch of an import: a holiday whose date and name exist already (or came earlier in the
   * batch) is skipped as a duplicate, the others are created.
   */
  | {
      type: 'ImportHolidays';
      /** `siteId`: the site every holiday of the import is of (none: the whole system's). */
      data: { holidays: readonly HolidayDetails[]; siteId?: string | undefined };
    };

/**
 * What a holiday command decides on (the write side's `holiday_state` rows, written with the
 * events): the holidays it names, and for an import the identities on the batch's dates.
 */
export interface HolidayCommandState {
  holidays: ReadonlyMap<string, Holiday>;
  identities: ReadonlySet<string>;
  /** For a command naming a site: whether it exists (the sites read under lock). */
  siteExists?: boolean;
}

export interface HolidayDecision {
  /** The events of the holidays stream. */
  events: HolidayEvent[];
  /** Days of an import skipped as duplicates. */
  duplicates: number;
}

export const decideHoliday: Decide<
  HolidayCommand,
  HolidayCommandState,
  { newId: () => string },
  HolidayDecision
> = (command, state, { newId }) => {
  switch (command.type) {
    case 'CreateHoliday': {
      mustNameASite(state.siteExists);
      return { events: [HolidayCreated.create(command.data)], duplicates: 0 };
    }
    case 'UpdateHoliday': {
      const { version, ...details } = command.data;
      const current = state.holidays.get(details.holidayId);
      if (!current) throw refuse.notFound('Holiday');
      if (current.version !== version) throw refuse.versionConflict();
      mustNameASite(state.siteExists);
      return { events: [HolidayUpdated.create(details)], duplicates: 0 };
    }
    case 'DeleteHoliday': {
      if (!state.holidays.has(command.data.holidayId)) throw refuse.notFound('Holiday');
      return { events: [HolidayDeleted.create(command.data)], duplicates: 0 };
    }
    case 'ImportHolidays': {
      mustNameASite(state.siteExists);
      const events: HolidayEvent[] = [];
      const taken = new Set(state.identities);
      let duplicates = 0;
      for (const h of command.data.holidays) {
        const identity = holidayIdentity(h.date, h.name, h.siteId);
        if (taken.has(identity)) {
          duplicates += 1;
          continue;
        }
        taken.add(identity);
        events.push(HolidayCreated.create({ holidayId: newId(), ...h }));
      }
      return { events, duplicates };
    }
    default:
      return unhandled(command);
  }
};
