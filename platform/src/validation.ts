import { z } from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { problems, type FieldError } from './problem.ts';

extendZodWithOpenApi(z);

/** Spec section 5 messages. */
export const messages = {
  required: 'Value is required',
  between: (min: number, max: number) => `The value must be between ${min} and ${max}`,
  maxLength: (max: number) => `The maximum length allowed is ${max}`,
  minLength: (min: number) => `This field should be at least ${min} characters long`,
  email: 'Value is not a valid email address',
  integer: 'Enter an integer',
  date: 'Select a valid date',
  time: 'Select a valid time',
};

/** Required text: trimmed, empty fails 'Value is required', then length bounds. */
export function requiredText(max: number, min = 1) {
  let s = z.string({ error: messages.required }).trim().min(1, messages.required);
  if (min > 1) s = s.min(min, messages.minLength(min));
  return s.max(max, messages.maxLength(max));
}

/** Optional text: trimmed; empty passes and becomes undefined. */
export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, messages.maxLength(max))
    .nullish()
    .transform((v) => (v ? v : undefined));
}

export function intBetween(min: number, max: number) {
  return z
    .number({ error: messages.required })
    .int(messages.integer)
    .min(min, messages.between(min, max))
    .max(max, messages.between(min, max));
}

/** Integers from query strings and paths. */
export function queryInt(min: number, max: number) {
  return z.coerce
    .number({ error: messages.integer })
    .int(messages.integer)
    .min(min, messages.between(min, max))
    .max(max, messages.between(min, max));
}

export const isoDate = z
  .string({ error: messages.required })
  .regex(/^\d{4}-\d{2}-\d{2}$/, messages.date)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, messages.date);

/** `field:ASC|DESC` joined by commas, restricted to the given fields. */
export function sortSpec<F extends string>(fields: readonly [F, ...F[]]) {
  const fieldSet = new Set<string>(fields);
  return z
    .string()
    .regex(
      /^[A-Za-z]+(:(ASC|DESC|asc|desc))?(,[A-Za-z]+(:(ASC|DESC|asc|desc))?)*$/,
      'Use field:ASC or field:DESC',
    )
    .transform((s, ctx) => {
      const parts = s.split(',').map((p) => {
        const [field, dir] = p.split(':');
        return { field: field as F, dir: (dir ?? 'ASC').toUpperCase() as 'ASC' | 'DESC' };
      });
      for (const p of parts) {
        if (!fieldSet.has(p.field)) {
          ctx.addIssue({ code: 'custom', message: `Unknown sort field ${p.field}` });
          return z.NEVER;
        }
      }
      return parts;
    });
}

/** Turns zod issues into the field list of a validation problem (first issue per field). */
export function toFieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const field = prefix + (issue.path.length ? issue.path.join('.') : '');
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, rule: issue.code, message: issue.message });
  }
  return out;
}

export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix = '',
): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw problems.validation(toFieldErrors(r.error, prefix));
  return r.data;
}

export { z };
