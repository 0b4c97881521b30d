import type { SeatAttribute } from '@rr/contracts/seats';
import type { PlanSeat, PlanSeatInput } from '../api/seat-plan-api';

/**
 * The seat plan while staff edit it (docs/product.md#seat-plans): seats with a key of their own
 * (the saved seat's id, or one made here for a new seat), placed in per cent of the plan's width
 * and height, turned in steps of 15°. Pure, so that placing, moving and copying rows are tested
 * without a browser.
 */
export interface DraftSeat {
  key: string;
  label: string;
  zone: string;
  attributes: SeatAttribute[];
  notes: string;
  x: number;
  y: number;
  rotation: number;
}

export const ROTATION_STEP = 15;
/** How far an arrow key moves a seat (per cent), and with Shift. */
export const NUDGE_STEP = 0.5;
export const NUDGE_STEP_BIG = 5;
/** The distance of a copied row from its original (per cent of the plan's height). */
export const ROW_STEP = 6;
/** Seats closer than this (per cent, both ways) overlap on the plan: no free spot there. */
const SEAT_SPAN = 4;

let made = 0;
/** A key for a seat that has no id yet (unique in this page's life). */
export const newSeatKey = (): string => `new-${++made}`;

const round = (value: number) => Math.round(value * 10) / 10;
export const clampPercent = (value: number): number => round(Math.min(100, Math.max(0, value)));

export function draftOf(seat: PlanSeat): DraftSeat {
  return {
    key: seat.id,
    label: seat.label,
    zone: seat.zone ?? '',
    attributes: [...seat.attributes],
    notes: seat.notes ?? '',
    x: seat.x,
    y: seat.y,
    rotation: seat.rotation,
  };
}

/** The request's seat: empty zone and notes left out. */
export function inputOf(seat: DraftSeat): PlanSeatInput {
  const zone = seat.zone.trim();
  const notes = seat.notes.trim();
  return {
    label: seat.label.trim(),
    ...(zone ? { zone } : {}),
    attributes: seat.attributes,
    ...(notes ? { notes } : {}),
    x: seat.x,
    y: seat.y,
    rotation: seat.rotation,
  };
}

const labelKey = (label: string) => label.trim().toLocaleLowerCase('de');

/** A label as a prefix and a number (`A12`: `A`, 12), or null without a closing number. */
function numbered(label: string): { prefix: string; number: number } | null {
  const match = /^(.*?)(\d+)$/.exec(label.trim());
  return match ? { prefix: match[1] ?? '', number: Number(match[2]) } : null;
}

/** The next label after the plan's last seat (`A7` → `A8`), never one the plan has. */
export function nextLabel(seats: readonly DraftSeat[]): string {
  const taken = new Set(seats.map((seat) => labelKey(seat.label)));
  const last = seats.length ? numbered(seats[seats.length - 1]?.label ?? '') : null;
  const prefix = last ? last.prefix : seats.length ? '' : 'A';
  let number = last ? last.number + 1 : seats.length + 1;
  while (taken.has(labelKey(`${prefix}${number}`))) number++;
  return `${prefix}${number}`;
}

const overlaps = (seat: DraftSeat, x: number, y: number) =>
  Math.abs(seat.x - x) < SEAT_SPAN && Math.abs(seat.y - y) < SEAT_SPAN;

/** The first place on the plan, row by row from the top left, that no seat covers. */
export function freeSpot(seats: readonly DraftSeat[]): { x: number; y: number } {
  for (let y = 5; y <= 95; y += ROW_STEP) {
    for (let x = 5; x <= 95; x += SEAT_SPAN + 1) {
      if (!seats.some((seat) => overlaps(seat, x, y))) return { x, y };
    }
  }
  return { x: 50, y: 50 };
}

/** A new seat at a place, labelled after the plan's last seat. */
export function placedSeat(seats: readonly DraftSeat[], x: number, y: number): DraftSeat {
  return {
    key: newSeatKey(),
    label: nextLabel(seats),
    zone: '',
    attributes: [],
    notes: '',
    x: clampPercent(x),
    y: clampPercent(y),
    rotation: 0,
  };
}

export function nudged(seat: DraftSeat, dx: number, dy: number): DraftSeat {
  return { ...seat, x: clampPercent(seat.x + dx), y: clampPercent(seat.y + dy) };
}

/** Turned by `steps` of 15° (negative: the other way), always within 0-345. */
export function rotated(seat: DraftSeat, steps: number): DraftSeat {
  const rotation = (((seat.rotation + steps * ROTATION_STEP) % 360) + 360) % 360;
  return { ...seat, rotation };
}

/** The next row letter (`A` → `B`, `b` → `c`), or null after `Z` or for any other prefix. */
function nextRowPrefix(prefix: string): string | null {
  if (!/^[A-Ya-y]$/.test(prefix)) return null;
  return String.fromCharCode(prefix.charCodeAt(0) + 1);
}

/**
 * Labels for copies of a row: a row named by one letter and numbered (`A1`..`A10`) becomes the
 * next letter with the same numbers (`B1`..`B10`) while none of these is taken; otherwise its
 * numbers continue after the highest of its prefix (`A11`..`A20`). Labels without a number get
 * the plan's next labels.
 */
export function rowCopyLabels(seats: readonly DraftSeat[], row: readonly DraftSeat[]): string[] {
  const taken = new Set(seats.map((seat) => labelKey(seat.label)));
  const parts = row.map((seat) => numbered(seat.label));
  const prefixes = new Set(parts.map((part) => part?.prefix));
  const prefix = parts[0]?.prefix;
  if (prefix === undefined || prefixes.size !== 1 || parts.some((part) => part === null)) {
    const labels: string[] = [];
    let all = [...seats];
    for (let i = 0; i < row.length; i++) {
      const label = nextLabel(all);
      labels.push(label);
      all = [...all, { ...row[i], label } as DraftSeat];
    }
    return labels;
  }
  const next = nextRowPrefix(prefix);
  if (next !== null) {
    const labels = parts.map((part) => `${next}${part?.number ?? 0}`);
    if (!labels.some((label) => taken.has(labelKey(label)))) return labels;
  }
  let number = Math.max(
    ...seats.map((seat) => numbered(seat.label)).map((p) => (p?.prefix === prefix ? p.number : 0)),
  );
  return row.map(() => {
    do number++;
    while (taken.has(labelKey(`${prefix}${number}`)));
    return `${prefix}${number}`;
  });
}

/** Copies of the row `keys` (in the plan's order) one row further down, labels continued. */
export function copiedRow(seats: readonly DraftSeat[], keys: ReadonlySet<string>): DraftSeat[] {
  const row = seats.filter((seat) => keys.has(seat.key));
  const labels = rowCopyLabels(seats, row);
  return row.map((seat, i) => ({
    ...seat,
    key: newSeatKey(),
    label: labels[i] ?? seat.label,
    y: clampPercent(seat.y + ROW_STEP),
  }));
}

/** The seats of the same row as `seat`: those whose label has its letters before the number. */
export function rowOf(seats: readonly DraftSeat[], seat: DraftSeat): DraftSeat[] {
  const prefix = numbered(seat.label)?.prefix;
  if (prefix === undefined) return [seat];
  return seats.filter((other) => numbered(other.label)?.prefix === prefix);
}
