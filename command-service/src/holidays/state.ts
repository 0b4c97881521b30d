import {
  HOLIDAYS_STREAM,
  type AppendOptions,
  type HolidayEvent,
  type NewEvent,
  type StoreSession,
} from '@rr/events';
import type { LocalDate, PoolClient } from '@rr/platform';
import { evolveHoliday, holidayIdentity, type Holiday } from './holiday.ts';

/**
 * The write side's holidays: the events live in the `holidays` stream; `holiday_state` (migration
 * 018) holds each holiday's state after them, written in the transaction that appends them. A
 * command reads the rows it decides on (one holiday, the holidays on some dates) instead of
 * folding the stream, so its cost does not grow with the number of holidays.
 *
 * Writers lock the stream first (they queue, and the table cannot move under them).
 */
export async function lockHolidays(s: StoreSession): Promise<number> {
  return (await s.lockStream(HOLIDAYS_STREAM)) ?? 0;
}

interface HolidayRow {
  holiday_id: string;
  date: string;
  name: string;
  description: string | null;
  version: number;
}

const toHoliday = (r: HolidayRow): Holiday => ({
  id: r.holiday_id,
  date: r.date,
  name: r.name,
  description: r.description ?? undefined,
  version: r.version,
});

const COLUMNS = `holiday_id::text AS holiday_id, to_char(date, 'YYYY-MM-DD') AS date, name, description, version`;

export async function holidaysById(
  client: PoolClient,
  ids: readonly string[],
): Promise<Map<string, Holiday>> {
  if (ids.length === 0) return new Map();
  const r = await client.query<HolidayRow>({
    name: 'rr_holidays_by_id',
    text: `SELECT ${COLUMNS} FROM holiday_state WHERE holiday_id = ANY($1::uuid[])`,
    values: [ids],
  });
  return new Map(r.rows.map((row) => [row.holiday_id, toHoliday(row)]));
}

/** The identities (date and name) of the holidays on these dates: an import's duplicates. */
export async function holidayIdentitiesOn(
  client: PoolClient,
  dates: readonly LocalDate[],
): Promise<Set<string>> {
  const r = await client.query<{ date: string; name: string }>({
    name: 'rr_holiday_identities_on',
    text: `SELECT to_char(date, 'YYYY-MM-DD') AS date, name FROM holiday_state WHERE date = ANY($1::date[])`,
    values: [[...new Set(dates)]],
  });
  return new Set(r.rows.map((row) => holidayIdentity(row.date, row.name)));
}

/** The days with a holiday from..until (inclusive): what a slot series skips. */
export async function holidayDatesBetween(
  client: PoolClient,
  from: LocalDate,
  until: LocalDate,
): Promise<Set<LocalDate>> {
  const r = await client.query<{ date: string }>({
    name: 'rr_holiday_dates_between',
    text: `SELECT DISTINCT to_char(date, 'YYYY-MM-DD') AS date FROM holiday_state WHERE date BETWEEN $1 AND $2`,
    values: [from, until],
  });
  return new Set(r.rows.map((row) => row.date));
}

/**
 * Appends holiday events at the stream's version (the caller holds the lock: lockHolidays) and
 * moves `holiday_state` by the same events, with the same evolveHoliday the history folds with.
 */
export async function appendHolidayEvents(
  s: StoreSession,
  streamVersion: number,
  events: NewEvent[],
  options: AppendOptions,
): Promise<void> {
  if (events.length === 0) return;
  await s.append(
    [
      {
        streamId: HOLIDAYS_STREAM,
        streamType: 'holidays',
        expectedVersion: streamVersion === 0 ? 'no_stream' : streamVersion,
        events,
      },
    ],
    options,
  );
  const changes = events as unknown as HolidayEvent[];
  const ids = [...new Set(changes.map((e) => e.data.holidayId))];
  const creates = changes.every((e) => e.type === 'HolidayCreated');
  const state = creates ? new Map<string, Holiday>() : await holidaysById(s.client, ids);
  const gone: string[] = [];
  for (const event of changes) {
    const next = evolveHoliday(state.get(event.data.holidayId), event);
    if (next) state.set(next.id, next);
    else {
      state.delete(event.data.holidayId);
      gone.push(event.data.holidayId);
    }
  }
  if (gone.length)
    await s.client.query('DELETE FROM holiday_state WHERE holiday_id = ANY($1::uuid[])', [gone]);
  const rows = [...state.values()];
  if (rows.length)
    await s.client.query(
      `INSERT INTO holiday_state (holiday_id, date, name, description, version)
       SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::text[], $5::int[])
       ON CONFLICT (holiday_id) DO UPDATE SET date = excluded.date, name = excluded.name,
         description = excluded.description, version = excluded.version`,
      [
        rows.map((h) => h.id),
        rows.map((h) => h.date),
        rows.map((h) => h.name),
        rows.map((h) => h.description ?? null),
        rows.map((h) => h.version),
      ],
    );
}
