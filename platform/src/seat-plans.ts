import { CsvError, parse } from 'csv-parse/sync';
import { SEAT_ATTRIBUTES } from '@rr/contracts/seats';
import { toCsv } from '@rr/domain';
import type { FieldError } from './problem.ts';
import { z } from './validation.ts';

/**
 * A room's seat plan at the API (docs/product.md#seat-plans): the seats as staff read and set
 * them (both services answer them), and the plan as a spreadsheet (`seats.csv`): written by the
 * query side, read by the command side.
 */

/** One seat as staff see it: its id stays with its label. */
export const SeatAnswer = z
  .object({
    id: z.uuid(),
    label: z.string(),
    zone: z.string().nullable(),
    attributes: z.array(z.enum(SEAT_ATTRIBUTES)),
    notes: z.string().nullable(),
    x: z.number().openapi({ description: "Per cent of the plan's width (0-100)" }),
    y: z.number().openapi({ description: "Per cent of the plan's height (0-100)" }),
    rotation: z.number().int().openapi({ description: 'Degrees, 0-345 in steps of 15' }),
  })
  .openapi('Seat');
export type SeatAnswer = z.output<typeof SeatAnswer>;

/** A seat as the write side and the events hold it (`PlanSeat`), as far as the answer needs. */
export interface SeatOfPlan {
  seatId: string;
  label: string;
  zone?: string | undefined;
  attributes: readonly string[];
  notes?: string | undefined;
  x: number;
  y: number;
  rotation: number;
}

export const seatAnswerOf = (s: SeatOfPlan): SeatAnswer => ({
  id: s.seatId,
  label: s.label,
  zone: s.zone ?? null,
  attributes: [...s.attributes] as SeatAnswer['attributes'],
  notes: s.notes ?? null,
  x: s.x,
  y: s.y,
  rotation: s.rotation,
});

/** The columns of `seats.csv`, in the order the export writes them. */
export const SEAT_CSV_COLUMNS = ['label', 'zone', 'attributes', 'x', 'y', 'rotation', 'notes'];
const REQUIRED_COLUMNS = ['label', 'x', 'y'];

/** The plan's seats as `seats.csv` (attributes space-separated; the reports' CSV dialect). */
export function seatsCsv(seats: readonly SeatAnswer[]): string {
  return toCsv(
    SEAT_CSV_COLUMNS,
    seats.map((s) => [s.label, s.zone, s.attributes.join(' '), s.x, s.y, s.rotation, s.notes]),
  );
}

/** What a `seats.csv` holds: the seats to set (checked by SeatsInput after), or why it cannot be read. */
export type SeatsFromCsv =
  { ok: true; seats: Record<string, unknown>[] } | { ok: false; errors: FieldError[] };

const refused = (field: string, message: string, rule = 'invalid'): SeatsFromCsv => ({
  ok: false,
  errors: [{ field, rule, message }],
});

/**
 * Reads `seats.csv`: UTF-8 (a byte order mark is fine), a header row naming the columns (any
 * order, any case; label, x and y required), then one seat a row (seat N is the N-th row after
 * the header, from 0; blank rows are skipped). Cells are separated as the header is: by `;` (the
 * export's), `,` or tab. Numbers take a decimal point or comma; a text the export guarded against
 * spreadsheet formulas (`'` before `= + - @`) is read without the guard. What cannot be read
 * names the field `csv`; a cell that breaks a seat's rule is SeatsInput's to name (`seats.N.x`).
 */
export function seatsFromCsv(bytes: Buffer, maxSeats: number): SeatsFromCsv {
  let text: string;
  try {
    // Strips a leading byte order mark; refuses bytes that are no UTF-8.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refused('csv', 'The file is not UTF-8 text');
  }
  const firstLine = /^[^\r\n]*/.exec(text)![0];
  const delimiter = [';', '\t', ','].find((d) => firstLine.includes(d)) ?? ';';
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      // The header and at most one seat too many: enough to say there are too many.
      to: maxSeats + 2,
    });
  } catch (err) {
    if (err instanceof CsvError) return refused('csv', `The file is not valid CSV: ${err.message}`);
    throw err;
  }
  const [header, ...records] = rows;
  if (!header) return refused('csv', 'The header row is missing', 'required');
  const columns = header.map((h) => h.trim().toLowerCase());
  const unknown = columns.find((c) => !SEAT_CSV_COLUMNS.includes(c));
  if (unknown !== undefined)
    return refused(
      'csv',
      `Unknown column "${unknown.slice(0, 40)}" (${SEAT_CSV_COLUMNS.join(', ')})`,
    );
  const twice = columns.find((c, i) => columns.indexOf(c) !== i);
  if (twice !== undefined) return refused('csv', `The column "${twice}" is named twice`);
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length)
    return refused('csv', `The header row needs the columns ${missing.join(', ')}`, 'required');

  const seats: Record<string, unknown>[] = [];
  const errors: FieldError[] = [];
  for (const cells of records) {
    if (cells.every((c) => c.trim() === '')) continue;
    const index = seats.length;
    if (cells.slice(columns.length).some((c) => c.trim() !== ''))
      errors.push({
        field: `seats.${index}`,
        rule: 'invalid',
        message: 'The row has more cells than the header row',
      });
    seats.push(seatOfRow(columns, cells));
  }
  return errors.length ? { ok: false, errors } : { ok: true, seats };
}

function seatOfRow(columns: readonly string[], cells: readonly string[]): Record<string, unknown> {
  const seat: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const cell = unguarded((cells[i] ?? '').trim());
    if (column === 'attributes') seat.attributes = cell.split(/\s+/).filter(Boolean);
    else if (column === 'x' || column === 'y' || column === 'rotation') {
      if (cell !== '' || column !== 'rotation') seat[column] = numberOf(cell);
    } else if (cell !== '') seat[column] = cell;
  });
  return seat;
}

/** The export's guard against formulas taken off (toCsv writes `'=x` for `=x`). */
const unguarded = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** A number (point or comma as its decimal mark); else the text, which the seat's rule refuses. */
function numberOf(cell: string): unknown {
  if (cell === '') return undefined;
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(cell)) return cell;
  return Number(cell.replace(',', '.'));
}
