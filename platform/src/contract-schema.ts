import { z } from 'zod';
import type * as core from 'zod/v4/core';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { DATE_PATTERN } from '@rr/contracts';

extendZodWithOpenApi(z);

/**
 * The request shapes and field rules live in `@rr/contracts`, written with zod/mini so the
 * browser can load them. The server declares its routes with classic zod, whose schemas carry
 * methods (`.openapi()`, `.optional()`, `.extend()`) and which zod-to-openapi reads. Both are
 * the same zod core: a mini schema's definition (its checks and refinements included) makes the
 * same classic schema, so the twin validates exactly as the contract does. It documents it too:
 * lengths are zod's own checks; the rules the contracts state as refinements (to keep the
 * browser's download small) add what the OpenAPI document shows of them (RULE_DOCS).
 */
export type FromContract<S extends core.$ZodType> =
  S extends core.$ZodObject<infer Shape, infer Config>
    ? z.ZodObject<Shape, Config>
    : z.ZodType<core.output<S>, core.input<S>>;

const twins = new WeakMap<core.$ZodType, z.ZodType>();

/** The OpenAPI keywords of a contract rule (a refinement with `params.rule`, see `rule`). */
const RULE_DOCS: Readonly<Record<string, (p: Record<string, unknown>) => object>> = {
  integer: () => ({ type: 'integer' }),
  between: (p) => ({ minimum: p.min, maximum: p.max }),
  date: () => ({ pattern: DATE_PATTERN.source }),
};

function ruleDocs(schema: core.$ZodType): object | undefined {
  let docs: object | undefined;
  for (const check of schema._zod.def.checks ?? []) {
    const params = (check._zod.def as { params?: Record<string, unknown> }).params;
    const docsOf = typeof params?.rule === 'string' ? RULE_DOCS[params.rule] : undefined;
    if (docsOf) docs = { ...docs, ...docsOf(params!) };
  }
  return docs;
}

/**
 * A nullable rule's documented type names null too: the inner schema's rule sets `type`
 * (`integer`), which the generator would otherwise keep alone.
 */
function nullableDocs(schema: core.$ZodType): object | undefined {
  if (!schema._zod.traits.has('$ZodNullable')) return undefined;
  const inner = (schema._zod.def as core.$ZodNullableDef).innerType;
  const docs = ruleDocs(inner) as { type?: unknown } | undefined;
  return typeof docs?.type === 'string' ? { ...docs, type: [docs.type, 'null'] } : undefined;
}

const isSchema = (value: unknown): value is core.$ZodType =>
  typeof value === 'object' &&
  value !== null &&
  '_zod' in value &&
  (value as core.$ZodType)._zod.traits.has('$ZodType');

/** A classic zod schema class (zod's exports are classes and functions alike: both are functions). */
const isSchemaClass = (value: unknown): value is new (def: unknown) => z.ZodType =>
  typeof value === 'function';

/** The classic zod schema of a contract's (zod/mini) schema; classic schemas are returned as they are. */
export function fromContract<S extends core.$ZodType>(schema: S): FromContract<S> {
  // A classic schema is its own twin, but TypeScript cannot see that FromContract<S> maps a classic
  // S to S (the conditional type stays unresolved for a generic S).
  if (schema instanceof z.ZodType) return schema as unknown as FromContract<S>;
  const known = twins.get(schema);
  if (known) return known as FromContract<S>;
  // ZodMiniString -> ZodString, ZodMiniEmail -> ZodEmail, ZodMiniObject -> ZodObject, ...
  const name = schema._zod.constr.name.replace(/^ZodMini/, 'Zod');
  const Classic: unknown = Reflect.get(z, name);
  if (!isSchemaClass(Classic)) throw new TypeError(`No classic zod schema for ${name}`);
  const plain = new Classic(twinDef(schema._zod.def));
  const docs = ruleDocs(schema) ?? nullableDocs(schema);
  const twin = docs ? plain.openapi(docs) : plain;
  twins.set(schema, twin);
  return twin as FromContract<S>;
}

/**
 * A definition with every schema in it replaced by its twin. Checks stay as they are (zod
 * core's, shared by both); getters stay getters (a default value is computed on every parse).
 */
function twinDef(def: core.$ZodTypeDef): object {
  const twin = Object.defineProperties({}, Object.getOwnPropertyDescriptors(def)) as Record<
    string,
    unknown
  >;
  for (const key of Object.keys(def)) {
    if (key === 'checks') continue;
    const value: unknown = Reflect.get(def, key);
    let converted: unknown;
    if (key === 'shape' && typeof value === 'object' && value !== null)
      converted = Object.fromEntries(
        Object.entries(value).map(([field, schema]) => [field, fromContract(schema)]),
      );
    else if (isSchema(value)) converted = fromContract(value);
    else if (Array.isArray(value) && value.some(isSchema))
      converted = value.map((item: unknown) => (isSchema(item) ? fromContract(item) : item));
    else continue;
    Object.defineProperty(twin, key, { value: converted, enumerable: true, writable: true });
  }
  return twin;
}
