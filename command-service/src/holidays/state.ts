import { HOLIDAYS_STREAM, type StoreSession } from '@rr/events';
import { holidayIdentity, type Holiday, type LocalDate } from '@rr/domain';
import { roomHolidayDates, type PoolClient } from '@rr/platform';

/**
 * The write side's holidays: the events live in the `holidays` stream; `holiday_state` (migration
 * 018) holds each holiday's state after them, written in the transaction that appends them
 * (write-state.ts). A
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
  site_id: string | null;
  version: number;
}

const toHoliday = (r: HolidayRow): Holiday => ({
  id: r.holiday_id,
  date: r.date,
  name: r.name,
  description: r.description ?? undefined,
  siteId: r.site_id ?? undefined,
  version: r.version,
});

const COLUMNS = `holiday_id::text AS holiday_id, to_char(date, 'YYYY-MM-DD') AS date, name, description, site_id::text AS site_id, version`;

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
  const r = await client.query<{ date: string; name: string; site_id: string | null }>({
    name: 'rr_holiday_identities_on',
    text: `SELECT to_char(date, 'YYYY-MM-DD') AS date, name, site_id::text AS site_id FROM holiday_state WHERE date = ANY($1::date[])`,
    values: [[...new Set(dates)]],
  });
  return new Set(r.rows.map((row) => holidayIdentity(row.date, row.name, row.site_id)));
}

/**
 * The holidays of a room from..until (inclusive): the whole system's and its site's
 * (roomHolidayDates): what its slot series skips.
 */
export async function roomHolidaysBetween(
  client: PoolClient,
  roomId: string,
  from: LocalDate,
  until: LocalDate,
): Promise<Set<LocalDate>> {
  const r = await client.query<{ holidays: string[] }>({
    name: 'rr_room_holidays_between',
    text: `SELECT ${roomHolidayDates('holiday_state', 'r.site_id', '$2', '$3')} AS holidays
             FROM room_state r WHERE r.room_id = $1`,
    values: [roomId, from, until],
  });
  return new Set(r.rows[0]?.holidays ?? []);
}
