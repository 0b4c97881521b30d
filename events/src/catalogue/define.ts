import { z } from 'zod';
import type { NewEvent } from '../types.ts';

export interface EventDefinition<T extends string, S extends z.ZodType> {
  type: T;
  schema: S;
  /** The current shape's version, written as metadata.schemaVersion; older ones are upcast on read. */
  version: number;
  create(data: z.input<S>): NewEvent<T, z.output<S>>;
}

/** Any event definition of the catalogue. */
export type AnyEventDefinition = EventDefinition<string, z.ZodType>;

export function defineEvent<T extends string, S extends z.ZodType>(
  type: T,
  schema: S,
  version = 1,
): EventDefinition<T, S> {
  return {
    type,
    schema,
    version,
    create: (data) => ({ type, data: schema.parse(data) }),
  };
}

/**
 * A kind of stream of the log and every event type it holds: the one list its event union and
 * its consumers' handler maps (handlers.ts) are derived from.
 */
export interface StreamDefinition<
  K extends string = string,
  D extends readonly AnyEventDefinition[] = readonly AnyEventDefinition[],
> {
  /** The stream id's prefix (`timeslot` for `timeslot-<id>`). */
  kind: K;
  events: D;
}

export function defineStream<K extends string, const D extends readonly AnyEventDefinition[]>(
  kind: K,
  events: D,
): StreamDefinition<K, D> {
  return { kind, events };
}

/** An event of a definition as consumers read it: its type and its data as parsed. */
type EventOfDefinition<D> =
  D extends EventDefinition<infer T, infer S> ? { type: T; data: z.output<S> } : never;

/**
 * The event union of a stream (or of a list of definitions), derived from its definitions:
 * `EventOf<typeof timeSlotStream>` is `{ type, data }` for each of the stream's types.
 */
export type EventOf<S extends StreamDefinition | readonly AnyEventDefinition[]> =
  S extends StreamDefinition<string, infer D>
    ? EventOfDefinition<D[number]>
    : S extends readonly AnyEventDefinition[]
      ? EventOfDefinition<S[number]>
      : never;

export class UnknownEventError extends Error {
  override name = 'UnknownEventError';
}

/**
 * Validates new events against the catalogue; an unknown type or bad data never reaches the log.
 * Answers the data as parsed (unknown keys dropped) and the type's current schema version.
 */
export function catalogueValidator(
  definitions: readonly AnyEventDefinition[],
): (e: NewEvent) => { data: unknown; schemaVersion: number } {
  const byType = new Map(definitions.map((d) => [d.type, d]));
  return (e) => {
    const def = byType.get(e.type);
    if (!def) throw new UnknownEventError(`Unknown event type ${e.type}`);
    return { data: def.schema.parse(e.data), schemaVersion: def.version };
  };
}
