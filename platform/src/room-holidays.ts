/**
 * The holidays of a room (docs/product.md#sites): the whole system's (no site) and its site's.
 * The one rule both sides read holidays of a room by, as SQL: the write side over `holiday_state`
 * (the seat decision, slot series), the query side over `rm_holidays` (the lists, the visitor
 * calendar, the display). `table` is `holiday_state` or `rm_holidays`; `siteId` an SQL
 * expression of the room's site; `from` and `until` bound the dates (inclusive).
 */
export function roomHolidayDates(
  table: 'holiday_state' | 'rm_holidays',
  siteId: string,
  from: string,
  until: string,
): string {
  return `ARRAY(SELECT DISTINCT to_char(h.date, 'YYYY-MM-DD') FROM ${table} h
                 WHERE h.date BETWEEN ${from} AND ${until} AND ${isHolidayOfSite('h', siteId)})`;
}

/** The condition that the holiday `h` (an alias) is one of the rooms of site `siteId` (SQL). */
export const isHolidayOfSite = (h: string, siteId: string) =>
  `(${h}.site_id IS NULL OR ${h}.site_id = ${siteId})`;
