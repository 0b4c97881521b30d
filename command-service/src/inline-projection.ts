import {
  asStreamEvent,
  type AppendRequest,
  type CatalogueEvent,
  type NewEvent,
  type StreamEvent,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';

/** An event being appended, with the stream it goes to. */
export interface AppendedEvent<E extends CatalogueEvent = CatalogueEvent> {
  streamId: string;
  event: StreamEvent<E, NewEvent>;
}

/**
 * A table beside the log moved by the events of the command that appends them, in its
 * transaction: never behind the log (unlike the read models, which projections fill after the
 * commit). It gets the events of the types it handles, in append order, once per command.
 */
export interface InlineProjection {
  /** The table it moves. */
  table: string;
  handles: readonly string[];
  apply(client: PoolClient, events: readonly AppendedEvent[]): Promise<void>;
}

/** An inline projection whose events are typed by the types it handles. */
export function inlineProjection<E extends CatalogueEvent>(p: {
  table: string;
  handles: readonly E['type'][];
  apply(client: PoolClient, events: readonly AppendedEvent<E>[]): Promise<void>;
}): InlineProjection {
  return {
    table: p.table,
    handles: p.handles,
    apply: (client, events) =>
      p.apply(
        client,
        events.map((e) => ({ streamId: e.streamId, event: asStreamEvent<E, NewEvent>(e.event) })),
      ),
  };
}

/** The events of the appends, by the inline projection that handles them (keyed by event type). */
export function eventsByProjection(
  byType: ReadonlyMap<string, readonly InlineProjection[]>,
  requests: readonly AppendRequest[],
): Map<InlineProjection, AppendedEvent[]> {
  const batches = new Map<InlineProjection, AppendedEvent[]>();
  for (const r of requests)
    for (const event of r.events)
      for (const p of byType.get(event.type) ?? []) {
        const list = batches.get(p) ?? [];
        list.push({ streamId: r.streamId, event: asStreamEvent<CatalogueEvent, NewEvent>(event) });
        batches.set(p, list);
      }
  return batches;
}
