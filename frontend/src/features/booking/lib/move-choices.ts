/** What the move dialog needs of a slot: the visitor calendar's answer for it. */
export interface MoveSlot {
  id: string;
  date: string;
  startTime: string;
  endTime: string;
  capacity: number;
  ticketCount: number;
  failedRules: readonly string[];
}

/**
 * Why a slot cannot take the moved ticket: its own slot, no seat left, or another rule of the
 * seat answer; null when it has a free seat.
 */
export type MoveRefusal = 'own' | 'full' | 'other';

export interface MoveChoice<S extends MoveSlot> {
  slot: S;
  /** Seats a visitor could take (never below 0). */
  freeSeats: number;
  refusal: MoveRefusal | null;
}

export interface MoveDay<S extends MoveSlot> {
  date: string;
  choices: MoveChoice<S>[];
  /** How many of its slots could take the ticket. */
  free: number;
}

/**
 * The days and slots the move dialog offers (docs/product.md#rebooking): the slots the visitor
 * calendar shows (with seats, not closed, in the booking window), by day and time; each with its
 * free seats, or why it cannot take the ticket (its own slot, full, another rule), so a full slot
 * shows disabled with its reason instead of being left out.
 */
export function moveDays<S extends MoveSlot>(slots: readonly S[], ownSlotId: string): MoveDay<S>[] {
  const days = new Map<string, MoveChoice<S>[]>();
  const sorted = slots
    .filter((slot) => slot.capacity > 0 && !slot.failedRules.includes('timeslot_not_open'))
    .sort((a, b) => `${a.date} ${a.startTime}`.localeCompare(`${b.date} ${b.startTime}`));
  for (const slot of sorted) {
    const rules = slot.failedRules;
    const refusal: MoveRefusal | null =
      slot.id === ownSlotId
        ? 'own'
        : rules.includes('timeslot_no_tickets_left')
          ? 'full'
          : rules.length
            ? 'other'
            : null;
    const choice = { slot, freeSeats: Math.max(0, slot.capacity - slot.ticketCount), refusal };
    days.set(slot.date, [...(days.get(slot.date) ?? []), choice]);
  }
  return [...days].map(([date, choices]) => ({
    date,
    choices,
    free: choices.filter((choice) => choice.refusal === null).length,
  }));
}
