import { z } from 'zod';
import * as contracts from '@rr/contracts';
import { fieldErrorOf, isStorableText, messageOf, messages } from '@rr/contracts';
import { problems, type FieldError } from './problem.ts';
import { fromContract } from './contract-schema.ts';

/**
 * The field rules of docs/product.md#validation and their messages live in `@rr/contracts` (shared with the
 * browser); these are their classic zod twins for the server's own schemas (see fromContract).
 */
export { isStorableText, messages };
export { fromContract, type FromContract } from './contract-schema.ts';

/**
 * The field errors for every string of a request part, keys included, that PostgreSQL cannot
 * store (see isStorableText). Every route runs it over its path parameters, query and body
 * before their schemas, so no route can hand such text to the database, whatever its schema
 * says. Fields are named as the schemas name them (`firstName`, `owner.lastName`, `ids.2`); a
 * refused key is reported under its object, or under `part` at the top.
 */
export function unstorableTextErrors(value: unknown, part: string): FieldError[] {
  const errors: FieldError[] = [];
  const reported = new Set<string>();
  const report = (field: string) => {
    if (reported.has(field)) return;
    reported.add(field);
    errors.push({ field, rule: 'invalid_characters', message: messages.characters });
  };
  // Iterative: a 100 kB JSON body may nest tens of thousands of levels deep.
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: v, path } = next;
    const child = (key: string | number) => (path ? `${path}.${key}` : String(key));
    if (typeof v === 'string') {
      if (!isStorableText(v)) report(path || part);
    } else if (Array.isArray(v)) {
      v.forEach((item: unknown, i) => pending.push({ value: item, path: child(i) }));
    } else if (typeof v === 'object' && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        if (!isStorableText(key)) report(path || part);
        else pending.push({ value: item, path: child(key) });
      }
    }
  }
  return errors;
}

/** Required text: trimmed, empty fails 'Value is required', then length bounds; storable. */
export const requiredText = (max: number, min = 1) =>
  fromContract(contracts.requiredText(max, min));

/** Optional text: trimmed; empty passes and becomes undefined; storable. */
export const optionalText = (max: number) => fromContract(contracts.optionalText(max));

/** An integer from min to max: 'Enter an integer', 'The value must be between {min} and {max}'. */
export const intBetween = (min: number, max: number) =>
  fromContract(contracts.intBetween(min, max));

/** Integers from query strings and paths. */
export function queryInt(min: number, max: number) {
  return z.coerce
    .number({ error: messages.integer })
    .int(messages.integer)
    .min(min, messages.between(min, max))
    .max(max, messages.between(min, max));
}

/** A calendar date `YYYY-MM-DD` from 0001-01-01 to 9999-12-31. */
export const isoDate = fromContract(contracts.isoDate());

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

/**
 * Turns zod issues into the field list of a validation problem (first issue per field). The
 * message is the one of the rule the field failed (docs/product.md#validation, the contracts' `messageOf`);
 * a failure no rule names keeps its schema's own message. A refinement of the contracts is named
 * by its rule (`unique`, `between`, `characters`); zod's own checks by their code.
 */
export function toFieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const field = prefix + (issue.path.length ? issue.path.join('.') : '');
    if (seen.has(field)) continue;
    seen.add(field);
    const rule = fieldErrorOf(issue);
    const message = rule.key === 'invalid' ? issue.message : messageOf(rule);
    // A refinement's zod code is `custom` whatever it checks: the field names the rule it failed.
    const named = issue.code === 'custom' && rule.key !== 'invalid';
    out.push({ field, rule: named ? rule.key : issue.code, message });
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

/**
 * An owner id: 128 random bits in hex, the key of a booking in the links of its mails. Routes
 * taking one answer a malformed id as an unknown one (`malformedPathNotFound`): a damaged link
 * names no booking.
 */
export const ownerIdParam = z.string().regex(/^[0-9a-f]{32}$/, 'Not a valid id');
/** A "my bookings" link's token: `<request id>.<MAC>` (platform/src/check-in-code.ts). */
export const myBookingsTokenParam = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[\w-]{22}$/,
    'Not a valid link',
  );

export { z };
