import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  holdHasSeat,
  seatsTakenApart,
  slotTickets,
  type HeldTicket,
  type SeatsTaken,
  type SlotTickets,
} from './seats.ts';
import type { TicketStatus } from './rule-codes.ts';

/**
 * The seat count compares holds' ends as text when both are in `toISOString`'s form and parses
 * them otherwise: its answers must be those of comparing the instants' milliseconds, whatever
 * form each instant is written in (events of other writers, an offset, no milliseconds).
 */

const STATUSES: TicketStatus[] = ['NEW', 'BOOKED', 'INVALID', 'CANCELLED'];

/** An instant from year 1 to 10 years beyond 9999 (toISOString's form ends at 9999). */
const instant = fc.date({
  min: new Date('0001-01-01T00:00:00.000Z'),
  max: new Date('+010010-01-01T00:00:00.000Z'),
  noInvalidDate: true,
});

/** An instant written in one of the forms ISO 8601 allows and Date.parse reads. */
const written = fc
  .tuple(instant, fc.constantFrom('iso', 'offset', 'seconds', 'space'))
  .map(([d, form]) => {
    const iso = d.toISOString();
    if (form === 'iso' || iso.length !== 24) return iso;
    if (form === 'seconds') return `${iso.slice(0, 19)}Z`;
    // As long as toISOString's form, but a space for the T: it must not be compared as text.
    if (form === 'space') return `${iso.slice(0, 10)} ${iso.slice(11)}`;
    // The same instant in a zone 2 h 30 min east.
    const shifted = new Date(d.getTime() + 150 * 60_000);
    const local = shifted.toISOString();
    return local.length === 24 ? `${local.slice(0, 23)}+02:30` : iso;
  });

/** Near `now` too, so that holds end on both sides of it and in the same millisecond. */
const ticketsAround = (now: Date) =>
  fc.array(
    fc.record({
      status: fc.constantFrom(...STATUSES),
      expiresAt: fc.oneof(
        written,
        fc.integer({ min: -3, max: 3 }).map((ms) => new Date(now.getTime() + ms).toISOString()),
        fc.constant(null),
      ),
    }),
    { maxLength: 30 },
  );

/** The count by milliseconds, as every instant is meant. */
function reference(tickets: SlotTickets, now: Date): SeatsTaken {
  let booked = 0;
  let held = 0;
  let heldUntil: string | null = null;
  for (const t of tickets.values()) {
    if (t.status === 'BOOKED') booked += 1;
    else if (t.status === 'NEW' && t.expiresAt !== null) {
      if (Date.parse(t.expiresAt) > now.getTime()) {
        held += 1;
        if (heldUntil === null || Date.parse(t.expiresAt) > Date.parse(heldUntil))
          heldUntil = t.expiresAt;
      }
    }
  }
  return { booked, held, heldUntil };
}

const asTickets = (list: { status: TicketStatus; expiresAt: string | null }[]) =>
  slotTickets(
    list.map((t, i): [string, HeldTicket] => [
      `ticket-${i}`,
      { ...t, transactionId: `cart-${i}`, ownerId: null },
    ]),
  );

describe('the seat count', () => {
  it('counts holds as their instants compare, whatever form each is written in', () => {
    fc.assert(
      fc.property(
        instant.chain((now) => fc.tuple(fc.constant(now), ticketsAround(now))),
        ([now, list]) => {
          const tickets = asTickets(list);
          expect(seatsTakenApart({ tickets }, now)).toEqual(reference(tickets, now));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('keeps a hold’s seat as the tickets ahead of it take theirs', () => {
    fc.assert(
      fc.property(
        instant.chain((now) => fc.tuple(fc.constant(now), ticketsAround(now))),
        fc.integer({ min: 0, max: 10 }),
        ([now, list], capacity) => {
          const tickets = asTickets(list);
          const ids = [...tickets.keys()];
          for (const [i, id] of ids.entries()) {
            const ahead = reference(asTickets(list.slice(0, i)), now);
            expect(holdHasSeat({ tickets, capacity }, id, now)).toBe(
              ahead.booked + ahead.held < capacity,
            );
          }
          expect(holdHasSeat({ tickets, capacity }, 'no such ticket', now)).toBe(false);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('reads a slot in the same millisecond as its hold’s end as ended', () => {
    const end = '2026-12-10T09:15:00.000Z';
    const tickets = asTickets([{ status: 'NEW', expiresAt: end }]);
    expect(seatsTakenApart({ tickets }, new Date(end)).held).toBe(0);
    expect(seatsTakenApart({ tickets }, new Date(Date.parse(end) - 1))).toEqual({
      booked: 0,
      held: 1,
      heldUntil: end,
    });
    // The same instant written with an offset.
    const offset = asTickets([{ status: 'NEW', expiresAt: '2026-12-10T11:45:00.000+02:30' }]);
    expect(seatsTakenApart({ tickets: offset }, new Date(end)).held).toBe(0);
    expect(seatsTakenApart({ tickets: offset }, new Date(Date.parse(end) - 1)).held).toBe(1);
  });
});
