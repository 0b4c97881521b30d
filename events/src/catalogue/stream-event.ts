import type { NewEvent, RecordedEvent } from '../types.ts';
import type { EventOf } from './define.ts';
import type { streams } from './streams.ts';

/** Every event the catalogue defines, as `{ type, data }`: what asStreamEvents may name. */
export type CatalogueEvent = EventOf<(typeof streams)[number]>;

/**
 * An event of the log (or of an append) read as one of the catalogue's types: the record's own
 * fields (stream, version, position, ...) and the type's data.
 */
export type StreamEvent<E extends CatalogueEvent, R extends NewEvent = RecordedEvent> = R & E;

/**
 * The one place an event is given its stream's type. Sound because the catalogue validated every
 * event's data against its type's schema when it was appended (`validateEvent`), older shapes are
 * upcast on read (upcasting.ts), and a stream holds only its own kinds. The caller names the
 * union its stream holds (or, for a projection, the types it handles); it switches on `type`.
 */
export function asStreamEvents<E extends CatalogueEvent, R extends NewEvent = RecordedEvent>(
  events: readonly R[],
): readonly StreamEvent<E, R>[] {
  return events as readonly StreamEvent<E, R>[];
}

/** One event given its stream's type (see asStreamEvents). */
export function asStreamEvent<E extends CatalogueEvent, R extends NewEvent = RecordedEvent>(
  event: R,
): StreamEvent<E, R> {
  return event as StreamEvent<E, R>;
}
