import type { EventOf, StreamDefinition } from './catalogue/define.ts';
import { asStreamEvents, type CatalogueEvent } from './catalogue/stream-event.ts';
import type { AppendRequest, ExpectedVersion, NewEvent, RecordedEvent } from './types.ts';

/**
 * A stream's state folded from its recorded events, each read as the stream's event type
 * (asStreamEvents: the catalogue validated every event when it was appended).
 */
export function foldStream<Event extends CatalogueEvent, State>(
  events: readonly RecordedEvent[],
  evolve: (state: State, event: Event) => State,
  initial: State,
): State {
  return asStreamEvents<Event>(events).reduce(evolve, initial);
}

/** The expected version of a stream read at `version` (0: it does not exist yet). */
export const expected = (version: number): ExpectedVersion =>
  version === 0 ? 'no_stream' : version;

/** An append of one stream, left out when the decision has no events for it. */
export function streamAppend(
  streamId: string,
  streamType: string,
  version: number,
  events: NewEvent[],
): AppendRequest[] {
  return events.length
    ? [{ streamId, streamType, expectedVersion: expected(version), events }]
    : [];
}

/**
 * An append of a stream of a kind the catalogue defines: the stream's type is the kind, and only
 * the kind's events are taken.
 */
export function streamAppendOf<S extends StreamDefinition>(
  stream: S,
  streamId: string,
  version: number,
  events: readonly EventOf<S>[],
): AppendRequest[] {
  return streamAppend(streamId, stream.kind, version, [...events]);
}
