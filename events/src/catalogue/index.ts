import { catalogueValidator, type AnyEventDefinition } from './define.ts';
import { streams } from './streams.ts';

export * from './define.ts';
export * from './timeslot.ts';
export * from './transaction.ts';
export * from './visitor.ts';
export * from './room.ts';
export * from './room-order.ts';
export * from './sites.ts';
export * from './holidays.ts';
export * from './blacklist.ts';
export * from './no-shows.ts';
export * from './rekeying.ts';
export * from './stream-event.ts';
export * from './handlers.ts';
export * from './streams.ts';

/** Every event type the product writes. */
export const catalogue: readonly AnyEventDefinition[] = streams.flatMap(
  (s): readonly AnyEventDefinition[] => s.events,
);
export const validateEvent = catalogueValidator(catalogue);
export type { NewEvent } from '../types.ts';
