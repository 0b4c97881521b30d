import type * as z from 'zod/mini';

/** What an input element states of a field's rules: `maxLength` of a text, `min`/`max` of a number. */
export interface InputBounds {
  maxLength?: number;
  min?: number;
  max?: number;
}

/**
 * The input attributes of a field, read from its contract (zod's own length checks, the
 * 'between' rule's bounds), so a form's inputs state the limits the contract checks and no form
 * writes them again. Looks through optional, nullable, default and pipe wrappers.
 */
export function inputBounds(schema: z.core.$ZodType): InputBounds {
  const bounds: InputBounds = {};
  for (let s: z.core.$ZodType | undefined = schema; s;) {
    const def = s._zod.def as z.core.$ZodTypeDef & {
      in?: z.core.$ZodType;
      innerType?: z.core.$ZodType;
    };
    for (const check of def.checks ?? []) {
      const {
        check: kind,
        maximum,
        params,
      } = check._zod.def as {
        check?: string;
        maximum?: number;
        params?: Record<string, unknown>;
      };
      if (kind === 'max_length' && def.type === 'string') bounds.maxLength ??= maximum;
      if (params?.rule === 'between') {
        bounds.min ??= params.min as number;
        bounds.max ??= params.max as number;
      }
    }
    s = def.in ?? def.innerType;
  }
  return bounds;
}

/** The input attributes of every field of an object contract. */
export function shapeBounds<S extends z.core.$ZodShape>(
  schema: z.core.$ZodObject<S>,
): Record<keyof S, InputBounds> {
  const shape = schema._zod.def.shape;
  return Object.fromEntries(
    Object.keys(shape).map((field) => [field, inputBounds(shape[field]!)]),
  ) as Record<keyof S, InputBounds>;
}
