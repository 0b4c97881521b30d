import * as z from 'zod/mini';
import { intBetween, isoDate, untilNotBefore } from './fields.ts';
import { optionalText, requiredText, rule } from './rules.ts';

/**
 * Seats of a room with a seat plan (docs/product.md#seat-plans): each seat has a label unique in
 * its room ("A12"), attributes from a fixed, translated set, an optional zone and notes, and a
 * place on the room's plan. A seat keeps its id by its label: the same label is the same seat
 * (its tickets and history), a new label a new seat.
 */

/** The attributes a seat may have; the browser's catalogues translate each (`seat.attribute.*`). */
export const SEAT_ATTRIBUTES = [
  'power',
  'window',
  'pc',
  'quiet',
  'standing-desk',
  'accessible',
  'lamp',
  'group-table',
] as const;
export type SeatAttribute = (typeof SEAT_ATTRIBUTES)[number];

/** A seat of a slot as visitors see it: free, taken (held or booked) or out of service. */
export const SEAT_STATES = ['free', 'taken', 'out_of_service'] as const;
export type SeatState = (typeof SEAT_STATES)[number];

/** The most seats a room's plan holds (a large reading room has several hundred). */
export const MAX_SEATS_PER_ROOM = 2000;

/** A seat's label: 1-12 characters of one line, such as `A12` or `Fenster 3`. */
export const SeatLabel = requiredText(12, 1);

/** A seat's place on the plan, in per cent of the plan's width and height (0-100). */
const coordinate = z
  .number()
  .check(rule<number>('between', (v) => v >= 0 && v <= 100, { min: 0, max: 100 }));

/** One seat as staff set it: label, zone, attributes, notes, place and rotation (15° steps). */
export const SeatInput = z.object({
  label: SeatLabel,
  zone: optionalText(40, 'single', 1),
  attributes: z._default(
    z.array(z.enum(SEAT_ATTRIBUTES)).check(z.maxLength(SEAT_ATTRIBUTES.length)),
    [],
  ),
  notes: optionalText(200, 'single', 1),
  x: coordinate,
  y: coordinate,
  rotation: z._default(intBetween(0, 345).check(rule<number>('integer', (v) => v % 15 === 0)), 0),
});
export type SeatInput = z.infer<typeof SeatInput>;

/** The seats of a room as staff set them: every label once ('unique', on the repeated label). */
export const SeatsInput = z.object({
  seats: z.array(SeatInput).check(
    z.maxLength(MAX_SEATS_PER_ROOM),
    z.superRefine((seats, ctx) => {
      const seen = new Set<string>();
      seats.forEach((seat, index) => {
        const key = seat.label.trim().toLocaleLowerCase('de');
        if (seen.has(key))
          ctx.issues.push({
            code: 'custom',
            input: seat.label,
            path: [index, 'label'],
            params: { rule: 'unique' },
            message: 'unique',
          });
        seen.add(key);
      });
    }),
  ),
});
export type SeatsInput = z.infer<typeof SeatsInput>;

/**
 * A seat out of service from one day to another (both included) with staff's reason (one line,
 * 1-500 characters); `until` not before `from` ('date-not-before').
 */
export const OutOfServiceInput = z
  .object({ from: isoDate(), until: isoDate(), reason: requiredText(500) })
  .check(untilNotBefore('from', 'until'));
export type OutOfServiceInput = z.infer<typeof OutOfServiceInput>;

/** A seat wished for when a ticket is added: that seat, or any free seat with these attributes. */
export const SeatWish = z.object({
  seatId: z.optional(z.uuid()),
  seatAttributes: z.optional(
    z.array(z.enum(SEAT_ATTRIBUTES)).check(z.maxLength(SEAT_ATTRIBUTES.length)),
  ),
});
export type SeatWish = z.infer<typeof SeatWish>;

/** A ticket's seat, as every answer, list and feed names it. */
export interface TicketSeat {
  id: string;
  label: string;
}

/**
 * The seats of the room's plan a slot offers (docs/product.md#seat-plans, e.g. exam places):
 * at least one, each a seat of the plan; null: every seat in service.
 */
const offeredSeatIds = z.nullable(
  z.array(z.uuid()).check(z.minLength(1), z.maxLength(MAX_SEATS_PER_ROOM)),
);

/** The seats one slot offers. */
export const SlotSeatsInput = z.object({ seatIds: offeredSeatIds });
export type SlotSeatsInput = z.infer<typeof SlotSeatsInput>;

/** The seats every slot of the room in a date range offers (the end not before the start). */
export const SlotsSeatsInput = z
  .object({ fromDate: isoDate(), untilDate: isoDate(), seatIds: offeredSeatIds })
  .check(untilNotBefore('fromDate', 'untilDate'));
export type SlotsSeatsInput = z.infer<typeof SlotsSeatsInput>;
