import { z } from 'zod';
import type { NewEvent } from '../types.ts';

export interface EventDefinition<T extends string, S extends z.ZodType> {
  type: T;
  schema: S;
  /** The current shape's version, written as metadata.schemaVersion; older ones are upcast on read. */
  version: number;
  create(data: z.input<S>): NewEvent<T, z.output<S>>;
}

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

export class UnknownEventError extends Error {
  override name = 'UnknownEventError';
}

/**
 * Validates new events against the catalogue; an unknown type or bad data never reaches the log.
 * Answers the data as parsed (unknown keys dropped) and the type's current schema version.
 */
export function catalogueValidator(
  definitions: EventDefinition<string, z.ZodType>[],
): (e: NewEvent) => { data: unknown; schemaVersion: number } {
  const byType = new Map(definitions.map((d) => [d.type, d]));
  return (e) => {
    const def = byType.get(e.type);
    if (!def) throw new UnknownEventError(`Unknown event type ${e.type}`);
    return { data: def.schema.parse(e.data), schemaVersion: def.version };
  };
}
