import type { HolidayEvent, RecordedEvent } from '@rr/events';
import { HOLIDAYS_STREAM, type StoreSession } from '@rr/events';

export interface Holiday {
  id: string;
  name: string;
  description: string | undefined;
  date: string;
  /** Number of events of this holiday: the version a client sends back with an update. */
  version: number;
}

export interface HolidaysState {
  streamVersion: number;
  holidays: Map<string, Holiday>;
}

export function evolveHolidays(state: HolidaysState, event: HolidayEvent): HolidaysState {
  const holidays = new Map(state.holidays);
  switch (event.type) {
    case 'HolidayCreated':
      holidays.set(event.data.holidayId, {
        id: event.data.holidayId,
        name: event.data.name,
        description: event.data.description,
        date: event.data.date,
        version: 1,
      });
      break;
    case 'HolidayUpdated': {
      const prev = holidays.get(event.data.holidayId);
      holidays.set(event.data.holidayId, {
        id: event.data.holidayId,
        name: event.data.name,
        description: event.data.description,
        date: event.data.date,
        version: (prev?.version ?? 0) + 1,
      });
      break;
    }
    case 'HolidayDeleted':
      holidays.delete(event.data.holidayId);
      break;
  }
  return { streamVersion: state.streamVersion + 1, holidays };
}

export function foldHolidays(events: RecordedEvent[]): HolidaysState {
  const initial: HolidaysState = { streamVersion: 0, holidays: new Map() };
  return events.reduce((s, e) => evolveHolidays(s, e as unknown as HolidayEvent), initial);
}

/** Locks the holiday stream (writers queue) and folds it: the consistent set of holidays. */
export async function loadHolidays(s: StoreSession, lock: boolean): Promise<HolidaysState> {
  if (lock) await s.lockStream(HOLIDAYS_STREAM);
  const { events } = await s.readStream(HOLIDAYS_STREAM);
  return foldHolidays(events);
}

export function holidayDates(state: HolidaysState): Set<string> {
  return new Set([...state.holidays.values()].map((h) => h.date));
}

/** Same day and same name (ignoring case and spaces): what a re-import must not create twice. */
export const holidayIdentity = (date: string, name: string) =>
  `${date}|${name.trim().toLowerCase()}`;
