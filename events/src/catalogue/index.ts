import { catalogueValidator, type AnyEventDefinition } from './define.ts';
import { timeSlotStream } from './timeslot.ts';
import { transactionStream } from './transaction.ts';
import { visitorStream } from './visitor.ts';
import { roomStream } from './room.ts';
import { roomOrderStream } from './room-order.ts';
import { holidaysStream } from './holidays.ts';
import { blacklistStream } from './blacklist.ts';
import { noShowStream } from './no-shows.ts';
import { rekeyingStream } from './rekeying.ts';

export * from './define.ts';
export * from './timeslot.ts';
export * from './transaction.ts';
export * from './visitor.ts';
export * from './room.ts';
export * from './room-order.ts';
export * from './holidays.ts';
export * from './blacklist.ts';
export * from './no-shows.ts';
export * from './rekeying.ts';
export * from './stream-event.ts';
export * from './handlers.ts';

/** Every kind of stream of the log, each with every event type it holds (one file per stream). */
export const streams = [
  timeSlotStream,
  transactionStream,
  visitorStream,
  roomStream,
  roomOrderStream,
  holidaysStream,
  blacklistStream,
  noShowStream,
  rekeyingStream,
] as const;

/** Every event type the product writes. */
export const catalogue: readonly AnyEventDefinition[] = streams.flatMap(
  (s): readonly AnyEventDefinition[] => s.events,
);
export const validateEvent = catalogueValidator(catalogue);
export type { NewEvent } from '../types.ts';
