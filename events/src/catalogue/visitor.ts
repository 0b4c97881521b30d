import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { date, id, ownerId, time } from './fields.ts';

/**
 * The visitor stream (`visitor-<key>`, keyed by the HMAC of the normalised e-mail): what the
 * per-visitor limits count, each booking's tickets of the visitor.
 */

const VisitorTicket = z.object({ ticketId: id, date, startTime: time, endTime: time });
export const VisitorTicketsBooked = defineEvent(
  'VisitorTicketsBooked',
  z.object({ ownerId, tickets: z.array(VisitorTicket) }),
);
export const VisitorTicketCancelled = defineEvent(
  'VisitorTicketCancelled',
  z.object({ ticketId: id }),
);

/** Every event type of a visitor's stream. */
export const visitorStream = defineStream('visitor', [
  VisitorTicketsBooked,
  VisitorTicketCancelled,
]);

export type VisitorEvent = EventOf<typeof visitorStream>;

export const visitorStreamId = (visitorKey: string) => `${visitorStream.kind}-${visitorKey}`;
