/** Occupancy in percent (rounded), or null — shown blank — when the capacity is missing or below 1. */
export function occupancyPercent(
  count: number,
  capacity: number | null | undefined,
): number | null {
  if (capacity === null || capacity === undefined || capacity < 1) return null;
  return Math.round((count / capacity) * 100);
}

/**
 * Seat numbers of a daily report: rows sorted by start time then last name; the number counts up
 * across consecutive tickets of the same slot and restarts at 1 for a new slot.
 */
export function withSeatNumbers<T extends { timeSlotId: string }>(
  rows: T[],
): (T & { seatNumber: number })[] {
  let previous: string | null = null;
  let seat = 0;
  return rows.map((row) => {
    seat = row.timeSlotId === previous ? seat + 1 : 1;
    previous = row.timeSlotId;
    return { ...row, seatNumber: seat };
  });
}

/**
 * CSV that Excel opens correctly: UTF-8 with a byte-order mark, semicolons, CRLF, quoted fields.
 * Cells that a spreadsheet would run as a formula (= + - @ at the start) are made inert with a quote.
 */
export function toCsv(headers: string[], rows: CsvCell[][]): string {
  const cell = (v: CsvCell): string => {
    if (v === null || v === undefined) return '';
    let s = String(v);
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[";\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return '\uFEFF' + [headers, ...rows].map((r) => r.map(cell).join(';')).join('\r\n') + '\r\n';
}

/** A cell of a CSV export. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * A table as CSV (toCsv), with the column "Standort" last when `site` names the sites its rows
 * are of (siteColumnOf): a library of one site (null) keeps the columns it always had.
 */
export function csvWithSite(header: string[], rows: CsvCell[][], site: string | null): string {
  if (site === null) return toCsv(header, rows);
  return toCsv(
    [...header, 'Standort'],
    rows.map((row) => [...row, site]),
  );
}
