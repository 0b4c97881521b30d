import { z } from 'zod';
import type { NewEvent } from '../types.ts';

export interface EventDefinition<T extends string, S extends z.ZodType> {
  type: T;
  schema: S;
  create(data: z.input<S>): NewEvent<T, z.output<S>>;
}

export function defineEvent<T extends string, S extends z.ZodType>(
  type: T,
  schema: S,
): EventDefinition<T, S> {
  return {
    type,
    schema,
    create: (data) => ({ type, data: schema.parse(data) }),
  };
}

export class UnknownEventError extends Error {
  override name = 'UnknownEventError';
}

/** Validates new events against the catalogue; an unknown type or bad data never reaches the log. */
export function catalogueValidator(
  definitions: EventDefinition<string, z.ZodType>[],
): (e: NewEvent) => void {
  const byType = new Map(definitions.map((d) => [d.type, d.schema]));
  return (e) => {
    const schema = byType.get(e.type);
    if (!schema) throw new UnknownEventError(`Unknown event type ${e.type}`);
    schema.parse(e.data);
  };
}
