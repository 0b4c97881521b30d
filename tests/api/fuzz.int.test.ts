// Over 300 lines: the generators of invalid input for every route and the one app they all run
// against; the property is one.
import http from 'node:http';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ManualClock } from '@rr/platform';
import type { TestDatabase } from '../support/db.ts';
import { Client, openAdminSuite, type AdminSuite, type TestApp } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';

/*
 * Property-based fuzzing of every route of the OpenAPI document (no 5xx on any input).
 *
 * Two kinds of requests:
 * - bad ones: a plausible request (known ids, valid dates, values of the documented shapes) with
 *   exactly one part made certainly invalid: a path segment that is not percent-encoded UTF-8 or
 *   decodes to NUL, a query key or value with NUL, a body string or key with NUL or a lone
 *   surrogate, a date PostgreSQL has not got (year 0000, 99999) or an integer out of its range.
 *   Every one must be answered 400 validation__error (problem+json), and nothing may be stored.
 * - odd reads: GET requests with plausible, edge and arbitrary values (any code point, encoded
 *   lone surrogates and malformed escapes in the query, edge dates). Never a 5xx; errors are
 *   problem+json.
 * And, last, plausible writes as they are (known ids of the kind each names, edge dates): they
 * may store what they like, but never answer 5xx.
 *
 * Requests go out through node:http with the path exactly as generated: on the wire `%`,
 * `%E0%A4%A`, `%C0%AE` and `%ED%A0%80` arrive as sent (fetch's URL parsing would also resolve `..`
 * segments and re-encode some characters). No request may log at error level.
 */

// Monday 23 Nov 2026, 10:00 in Vienna: rooms open from today + 2 days.
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
const today = '2026-11-23';

let errorLogLines: string[] = [];
const logSink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { level: number; msg?: string };
      if (entry.level >= 50) errorLogLines.push(line);
    }
    done();
  },
});

// --- The OpenAPI document, read as much as the generators need --------------------------------

interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  $ref?: string;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: unknown[];
        parameters?: {
          in: 'path' | 'query';
          name: string;
          required?: boolean;
          schema: JsonSchema;
        }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        'x-malformed-path-not-found'?: string;
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
}

interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

interface Route {
  method: string;
  /** The path with `{name}` placeholders, `/api` included. */
  template: string;
  isPublic: boolean;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON request body's schema, resolved; undefined when the route takes none. */
  jsonBody: JsonSchema | undefined;
  /** Malformed path params answer 404 (ids from mail links), not 400. */
  malformedPathNotFound: boolean;
}

function routesOf(doc: OpenApiDocument): Route[] {
  const resolve = (schema: JsonSchema): JsonSchema => resolveSchema(doc, schema);
  return Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, op]) => {
      const params = (op.parameters ?? []).map((p) => ({
        in: p.in,
        name: p.name,
        required: p.required ?? false,
        schema: resolve(p.schema),
      }));
      const json = op.requestBody?.content['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        template,
        isPublic: op.security === undefined,
        pathParams: params.filter((p) => p.in === 'path'),
        // A calendar feed's `?token=` is a credential, checked before the request is read (one of
        // no token's shape 400, a well-formed unknown one 401, whatever else is wrong; its own
        // tests are in calendar-feeds.int.test.ts): the admin's cookie stands in for it here.
        queryParams: params.filter((p) => p.in === 'query' && p.name !== 'token'),
        jsonBody: json ? resolve(json) : undefined,
        malformedPathNotFound: op['x-malformed-path-not-found'] !== undefined,
      };
    }),
  );
}

/** Follows $ref and merges allOf, all the way down. */
function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`unknown schema ${schema.$ref}`);
    return resolveSchema(doc, target);
  }
  if (schema.allOf) {
    const parts = schema.allOf.map((s) => resolveSchema(doc, s));
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Record<
        string,
        JsonSchema
      >,
      required: parts.flatMap((p) => p.required ?? []),
    };
  }
  return {
    ...schema,
    ...(schema.items ? { items: resolveSchema(doc, schema.items) } : {}),
    ...(schema.anyOf ? { anyOf: schema.anyOf.map((s) => resolveSchema(doc, s)) } : {}),
    ...(schema.properties
      ? {
          properties: Object.fromEntries(
            Object.entries(schema.properties).map(([k, v]) => [k, resolveSchema(doc, v)]),
          ),
        }
      : {}),
  };
}

const typesOf = (s: JsonSchema): string[] => (s.type === undefined ? [] : [s.type].flat());
const isDateSchema = (s: JsonSchema) => s.pattern === '^\\d{4}-\\d{2}-\\d{2}$';
const isIntegerSchema = (s: JsonSchema) => typesOf(s).includes('integer');

// --- Encoding as a client may send it ------------------------------------------------------------

/** UTF-8 bytes of a code point; a surrogate gets the 3-byte form UTF-8 forbids (ED A0 80). */
function codePointBytes(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

/** The bytes of a string, lone surrogates encoded one by one as a careless client does (WTF-8). */
function looseUtf8(s: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (cp >= 0xd800 && cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    bytes.push(...codePointBytes(cp));
  }
  return bytes;
}

const percent = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
const isUnreserved = (byte: number) => /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte));

/** Percent-encodes everything but unreserved ASCII; lone surrogates as in looseUtf8. */
const percentEncode = (s: string) =>
  looseUtf8(s)
    .map((b) => (isUnreserved(b) ? String.fromCharCode(b) : percent(b)))
    .join('');

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8Decoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A raw path segment the server must refuse: not percent-encoded UTF-8, or decoding to NUL. */
function isRefusedSegment(raw: string): boolean {
  try {
    return decodeURIComponent(raw).includes('\u0000');
  } catch {
    return true;
  }
}

const hasLoneSurrogate = (s: string) =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

// --- Generators ----------------------------------------------------------------------------------

const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF');
/** Code points of every length of UTF-8, NUL and surrogates (which alone are not characters). */
const codePoint = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0x7ff }),
  fc.integer({ min: 0x800, max: 0xffff }),
  fc.integer({ min: 0xd800, max: 0xdfff }),
  fc.integer({ min: 0x10000, max: 0x10ffff }),
  fc.constant(0),
);
const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

/** Malformed percent-encodings, raw: `%`, `%A`, `%zz`, `%C0%AE`, `%FF`, `%E0%A4%A`. */
const malformedPercent = fc.oneof(
  fc
    .tuple(fc.option(hexDigit, { nil: '' }), fc.constantFrom('', 'g', 'Z', '%', '-', '~', '.'))
    .map(([hex, after]) => `%${hex}${after}`),
  fc
    .uint8Array({ minLength: 1, maxLength: 4 })
    .filter((bytes) => !isUtf8(bytes))
    .map((bytes) => [...bytes].map(percent).join('')),
  fc
    .integer({ min: 0x80, max: 0x10ffff })
    .filter((cp) => !isSurrogate(cp))
    .chain((cp) => {
      const encoded = codePointBytes(cp).map(percent).join('');
      return fc.integer({ min: 1, max: encoded.length - 1 }).map((n) => encoded.slice(0, n));
    }),
);

/** One piece of a raw path segment: a plain character, an encoded code point, or a broken escape. */
const segmentPiece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(..."abcXYZ0189-._~!$&'()*+,;=:@") },
  { weight: 3, arbitrary: codePoint.map((cp) => codePointBytes(cp).map(percent).join('')) },
  { weight: 2, arbitrary: malformedPercent },
);
/** A raw path segment that must be refused (400). */
const refusedSegment = fc
  .array(segmentPiece, { minLength: 1, maxLength: 6 })
  .map((pieces) => pieces.join(''))
  .filter(isRefusedSegment);

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((unit) => String.fromCharCode(unit));
const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
/** Any text: every code point, NUL and lone surrogates included. */
const anyText = fc.string({
  unit: fc.oneof(
    { weight: 8, arbitrary: anyCodePoint },
    { weight: 1, arbitrary: loneSurrogate },
    { weight: 1, arbitrary: fc.constant('\u0000') },
  ),
  maxLength: 24,
});
/**
 * Text of a query string a server must take: any code point and lone surrogates, which a query
 * string can only carry as bytes that are no UTF-8 (the server reads U+FFFD), but no NUL.
 */
const queryText = fc.string({
  unit: fc.oneof({ weight: 8, arbitrary: anyCodePoint }, { weight: 1, arbitrary: loneSurrogate }),
  maxLength: 24,
});
/** Text PostgreSQL cannot store: with NUL or a lone surrogate. */
const unstorableText = fc
  .tuple(anyText, fc.oneof(fc.constant('\u0000'), loneSurrogate), anyText)
  .map((parts) => parts.join(''))
  .filter((s) => s.includes('\u0000') || hasLoneSurrogate(s));
/** Text with NUL: a query string carries lone surrogates only as U+FFFD, but NUL as it is. */
const textWithNul = fc.tuple(anyText, anyText).map(([before, after]) => `${before}\u0000${after}`);

/** Dates PostgreSQL or the calendar has not got. */
const impossibleDate = fc.constantFrom(
  '0000-01-01',
  '0000-12-31',
  '99999-01-01',
  '+10000-01-01',
  '-0001-01-01',
  '2026-02-29',
  '2026-13-01',
  '2026-00-10',
  '2026-04-31',
);
const edgeDate = fc.constantFrom('0001-01-01', '1970-01-01', '2038-01-19', '9999-12-31');
const nearDate = fc.integer({ min: -60, max: 120 }).map((n) => addDays(today, n));
const validTime = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

/** Integers a schema refuses, at its bounds and far beyond PostgreSQL's int4 and int8. */
function outOfRange(schema: JsonSchema): number[] {
  const out: number[] = [];
  if (schema.maximum !== undefined) out.push(schema.maximum + 1, 2 ** 31, 2 ** 63, 1e300);
  if (schema.minimum !== undefined) out.push(schema.minimum - 1, -(2 ** 31) - 1, -(2 ** 63));
  return out;
}

/** What the fixtures made: ids that exist, so plausible requests get past the "not found". */
interface Known {
  uuids: string[];
  ownerIds: string[];
  emails: string[];
  /**
   * Ids by what they name (roomId, timeSlotId, ticketIds, …): a request then mostly names things
   * of the kind it asks for, and reaches the decisions behind the "not found".
   */
  byName?: Record<string, string[]>;
}

/**
 * A string matching `pattern`, one arbitrary per pattern: a request's body is built anew for each
 * generated request (inside a chain), and fast-check builds a pattern's arbitrary at a cost of
 * milliseconds (4 ms for 32 hex digits): built for each request, they took a third of this
 * file's CPU.
 */
const matchingByPattern = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: string): fc.Arbitrary<string> {
  let arbitrary = matchingByPattern.get(pattern);
  if (!arbitrary) {
    arbitrary = fc.stringMatching(new RegExp(pattern));
    matchingByPattern.set(pattern, arbitrary);
  }
  return arbitrary;
}

function plausibleString(name: string, s: JsonSchema, known: Known): fc.Arbitrary<string> {
  const named = known.byName?.[name];
  if (s.format === 'uuid' && named)
    return fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...named) },
      fc.constantFrom(...known.uuids),
      fc.uuid(),
    );
  if (s.format === 'uuid')
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known.uuids) }, fc.uuid());
  if (s.pattern === '^[0-9a-f]{32}$')
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...known.ownerIds) },
      matching('^[0-9a-f]{32}$'),
    );
  if (isDateSchema(s)) return fc.oneof({ weight: 4, arbitrary: nearDate }, edgeDate);
  if (/Time$/.test(name)) return validTime;
  if (name === 'email') return fc.constantFrom(...known.emails, 'fuzz@example.org');
  if (name === 'phone') return matching('^\\+?[0-9]{3,12}$');
  if (name === 'salutation') return fc.constantFrom('MR', 'MS', 'NONE', 'ms');
  if (name === 'sort') return fc.constantFrom('date', 'date:DESC', 'name:ASC', 'startTime:asc');
  if (name === 'ids') return fc.subarray(known.uuids, { minLength: 1 }).map((ids) => ids.join(','));
  // Any other pattern (a link's token): a value of its shape, so only the flaw a bad request
  // names is wrong; a pattern fast-check cannot generate from falls back to any text.
  if (s.pattern) {
    try {
      return matching(s.pattern);
    } catch {
      // below
    }
  }
  const min = s.minLength ?? 0;
  // Up to two UTF-16 units a character, so the length stays within maxLength.
  const max = Math.max(min, Math.min(20, Math.floor((s.maxLength ?? 40) / 2)));
  return fc
    .string({ unit: 'grapheme-composite', minLength: min, maxLength: max })
    .filter((v) => v.trim().length >= min);
}

/** A value of the schema's shape, mostly valid, with known ids. */
function plausible(name: string, s: JsonSchema, known: Known): fc.Arbitrary<unknown> {
  if (s.anyOf) return fc.oneof(...s.anyOf.map((a) => plausible(name, a, known)));
  if (s.enum) return fc.constantFrom(...s.enum);
  const types = typesOf(s);
  let value: fc.Arbitrary<unknown>;
  if (types.includes('integer') || types.includes('number'))
    value = fc.integer({ min: s.minimum ?? 0, max: s.maximum ?? 1000 });
  else if (types.includes('boolean')) value = fc.boolean();
  else if (types.includes('array'))
    value = fc.array(plausible(name, s.items ?? {}, known), {
      maxLength: Math.min(s.maxItems ?? 3, 3),
    });
  else if (types.includes('object') || s.properties) value = plausibleObject(s, known);
  else value = plausibleString(name, s, known);
  return types.includes('null') ? fc.option(value, { nil: null }) : value;
}

function plausibleObject(s: JsonSchema, known: Known): fc.Arbitrary<Record<string, unknown>> {
  const properties = s.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schema] of Object.entries(properties))
    model[name] = plausible(name, schema, known);
  const required = (s.required ?? []).filter((k) => k in properties);
  if (!known.byName) return fc.record(model, { requiredKeys: required });
  // The writes' round: each optional property in one body of four, so that most bodies get past
  // what an optional value asks for (a seat that must exist, an overbooking to confirm).
  const rare: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, value] of Object.entries(model))
    rare[name] = required.includes(name)
      ? value
      : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, value);
  return fc
    .record(rare)
    .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
}

/** Junk of any shape, keyed by the names the API uses. */
const junk = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom('name', 'description', 'capacity', 'email', 'date', 'firstName', 'version'),
    fc.jsonValue(),
  ),
);

type QueryPair = [key: string, value: string];

interface FuzzRequest {
  method: string;
  /** Raw path and query, sent as they are. */
  path: string;
  body: unknown;
  signedIn: boolean;
  /** A flawed path param of a route that answers it as an unknown id. */
  unknownId?: boolean;
}

interface Skeleton {
  params: Record<string, string>;
  query: QueryPair[];
  body: unknown;
  signedIn: boolean;
}

function rawPath(route: Route, params: Record<string, string>, query: QueryPair[]): string {
  const path = route.template.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? '');
  const qs = query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

const hasJsonBody = (route: Route) => route.method === 'POST' || route.method === 'PUT';

/** What a path param names: `{id}` after `rooms/` is a room's (roomId), and so on. */
function paramName(route: Route, name: string): string {
  if (name !== 'id') return name;
  const before = route.template.split(`/{${name}}`)[0]!.split('/').pop() ?? '';
  const kinds: Record<string, string> = {
    rooms: 'roomId',
    timeslots: 'timeSlotId',
    tickets: 'ticketId',
    transactions: 'transactionId',
    holidays: 'holidayId',
  };
  return kinds[before] ?? name;
}

function skeleton(route: Route, known: Known): fc.Arbitrary<Skeleton> {
  const params: Record<string, fc.Arbitrary<string>> = {};
  for (const p of route.pathParams)
    params[p.name] = plausible(paramName(route, p.name), p.schema, known).map((v) =>
      percentEncode(String(v)),
    );
  const query = fc
    .tuple(
      ...route.queryParams.map((p) =>
        fc.option(
          plausible(p.name, p.schema, known).map((v): QueryPair => [p.name, String(v)]),
          { nil: undefined, freq: p.required ? 20 : 2 },
        ),
      ),
    )
    .map((pairs) => pairs.filter((pair): pair is QueryPair => pair !== undefined));
  const body = !hasJsonBody(route)
    ? fc.constant(undefined)
    : route.jsonBody
      ? fc.oneof({ weight: 4, arbitrary: plausible('body', route.jsonBody, known) }, junk)
      : fc.option(junk, { nil: undefined });
  return fc.record({
    params: fc.record(params),
    query,
    body,
    signedIn: route.isPublic ? fc.boolean() : fc.constant(true),
  });
}

type JsonPath = (string | number)[];
/** A place in a body where one change makes it certainly invalid. */
type BodyFlaw =
  | { kind: 'text'; at: JsonPath }
  | { kind: 'key'; at: JsonPath }
  | { kind: 'date'; at: JsonPath }
  | { kind: 'integer'; at: JsonPath; values: number[] };

function bodyFlaws(value: unknown, schema: JsonSchema | undefined, at: JsonPath = []): BodyFlaw[] {
  if (typeof value === 'string')
    return [
      { kind: 'text', at },
      ...(schema && isDateSchema(schema) ? [{ kind: 'date' as const, at }] : []),
    ];
  if (typeof value === 'number' && schema && isIntegerSchema(schema)) {
    const values = outOfRange(schema);
    return values.length ? [{ kind: 'integer', at, values }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => bodyFlaws(v, schema?.items, [...at, i]));
  if (typeof value === 'object' && value !== null)
    return [
      { kind: 'key', at },
      ...Object.entries(value).flatMap(([k, v]) =>
        bodyFlaws(v, schema?.properties?.[k], [...at, k]),
      ),
    ];
  return [];
}

function setAt(root: unknown, at: JsonPath, value: unknown): unknown {
  if (at.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[at[at.length - 1]!] = value;
  return copy;
}

function getAt(root: unknown, at: JsonPath): unknown {
  return at.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

function flawedBody(body: unknown, schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const flaws = bodyFlaws(body, schema);
  // A body without a place for a flaw (none, a number, null) goes inside an object with a bad key.
  if (flaws.length === 0) return unstorableText.map((key) => ({ [key]: body ?? null }));
  return fc.constantFrom(...flaws).chain((flaw): fc.Arbitrary<unknown> => {
    switch (flaw.kind) {
      case 'text':
        return unstorableText.map((text) => setAt(body, flaw.at, text));
      case 'date':
        return impossibleDate.map((date) => setAt(body, flaw.at, date));
      case 'integer':
        return fc.constantFrom(...flaw.values).map((n) => setAt(body, flaw.at, n));
      case 'key':
        return fc.tuple(unstorableText, fc.jsonValue()).map(([key, v]) => {
          const node = { ...(getAt(body, flaw.at) as Record<string, unknown>), [key]: v };
          return setAt(body, flaw.at, node);
        });
    }
  });
}

function withPair(query: QueryPair[], pair: QueryPair): QueryPair[] {
  return [...query.filter(([k]) => k !== pair[0]), pair];
}

function flawedQuery(route: Route, query: QueryPair[]): fc.Arbitrary<QueryPair[]> {
  const names = route.queryParams.map((p) => p.name);
  const dates = route.queryParams.filter((p) => isDateSchema(p.schema)).map((p) => p.name);
  const integers = route.queryParams.filter(
    (p) => isIntegerSchema(p.schema) && outOfRange(p.schema).length > 0,
  );
  const key = names.length ? fc.oneof(fc.constantFrom(...names), anyText) : anyText;
  const flaws: fc.Arbitrary<QueryPair>[] = [
    fc.tuple(key, textWithNul),
    fc.tuple(textWithNul, anyText),
  ];
  if (dates.length) flaws.push(fc.tuple(fc.constantFrom(...dates), impossibleDate));
  if (integers.length)
    flaws.push(
      fc
        .constantFrom(...integers)
        .chain((p) =>
          fc
            .constantFrom(...outOfRange(p.schema).map(String), '1e400', '9'.repeat(30))
            .map((n): QueryPair => [p.name, n]),
        ),
    );
  return fc.oneof(...flaws).map((pair) => withPair(query, pair));
}

/** A plausible request with exactly one part certainly invalid. */
function badRequest(route: Route, known: Known): fc.Arbitrary<FuzzRequest> {
  return skeleton(route, known).chain((s) => {
    const flawed: fc.Arbitrary<Skeleton>[] = [
      flawedQuery(route, s.query).map((query) => ({ ...s, query })),
    ];
    if (route.pathParams.length)
      flawed.push(
        fc
          .tuple(
            fc.constantFrom(...route.pathParams),
            refusedSegment,
            // The skeleton's body may be junk: with the path flawed, the body is of its shape,
            // so the path is the one flaw (a junk body would be refused before the route).
            route.jsonBody ? plausible('body', route.jsonBody, known) : fc.constant(s.body),
          )
          .map(([p, segment, body]) => ({
            ...s,
            body,
            params: { ...s.params, [p.name]: segment },
          })),
      );
    if (hasJsonBody(route))
      flawed.push(flawedBody(s.body, route.jsonBody).map((body) => ({ ...s, body })));
    return fc.oneof(...flawed).map((f) => ({
      method: route.method,
      path: rawPath(route, f.params, f.query),
      body: f.body,
      signedIn: f.signedIn,
      // Only the flawed path param replaces the skeleton's params.
      unknownId: route.malformedPathNotFound && f.params !== s.params,
    }));
  });
}

/** A read with plausible, edge or arbitrary values, percent-encoded or not quite. */
function oddRead(route: Route, known: Known): fc.Arbitrary<FuzzRequest> {
  return skeleton(route, known).chain((s) => {
    const params: Record<string, fc.Arbitrary<string>> = {};
    for (const p of route.pathParams)
      params[p.name] = fc.oneof(
        { weight: 3, arbitrary: fc.constant(s.params[p.name] ?? '') },
        fc.string({ unit: 'binary', maxLength: 20 }).map(percentEncode),
        fc.constantFrom('..', '-1', '9'.repeat(30), 'a'.repeat(5000)),
      );
    const extra = fc.array(fc.tuple(queryText, queryText), { maxLength: 2 });
    // A broken escape in a query value: the query parser keeps it as text.
    const brokenEscape = fc.option(malformedPercent, { nil: '', freq: 4 });
    return fc.tuple(fc.record(params), extra, brokenEscape).map(([p, more, broken]) => {
      const path = rawPath(route, p, [...s.query, ...more]);
      const separator = path.includes('?') ? '&' : '?';
      return {
        method: route.method,
        path: broken ? `${path}${separator}q=${broken}` : path,
        body: undefined,
        signedIn: s.signedIn,
      };
    });
  });
}

/** A plausible request as it is, writes included. */
const plausibleRequest = (route: Route, known: Known): fc.Arbitrary<FuzzRequest> =>
  skeleton(route, known).map((s) => ({
    method: route.method,
    path: rawPath(route, s.params, s.query),
    body: s.body,
    signedIn: s.signedIn,
  }));

// --- The client ----------------------------------------------------------------------------------

interface Answer {
  status: number;
  contentType: string;
  setCookie: string[];
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(
  baseUrl: string,
  r: { method: string; path: string; body?: unknown; cookie?: string },
): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
  if (r.cookie) headers.Cookie = r.cookie;
  if (payload !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, method: r.method, path: r.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'] ?? '',
            setCookie: res.headers['set-cookie'] ?? [],
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

// --- The test ------------------------------------------------------------------------------------

let suite: AdminSuite;
let db: TestDatabase;
let app: TestApp;
let admin: Client;
let routes: Route[] = [];
let known: Known;
let knownToWrite: Known;
let adminCookie = '';

/** Rows of everything a request could store. */
async function storedRows(): Promise<Record<string, number>> {
  const tables = [
    'events',
    'streams',
    'bookings',
    'personal_data',
    'blacklist_emails',
    'room_images',
    'timeslot_guard',
    'room_state',
    'holiday_state',
    'ticket_state',
    'open_carts',
  ];
  const out: Record<string, number> = {};
  for (const t of tables)
    out[t] = Number(
      (await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n,
    );
  return out;
}

beforeAll(async () => {
  suite = await openAdminSuite(clock, { logTo: logSink });
  ({ db, app, admin } = suite);
  const doc = (await (await admin.get('/api/openapi.json')).json()) as OpenApiDocument;
  // A live availability stream that opens (a room's month, the display's) never ends: their
  // inputs are tests/api/live-availability.int.test.ts's to check.
  routes = routesOf(doc).filter((r) => !r.template.endsWith('/stream'));

  // Things that exist, so plausible requests reach the handlers and the database.
  const roomId = await createRoom(admin, 'Fuzz room');
  const heldSlot = await createSlot(admin, roomId, addDays(today, 3), '10:00', '11:00', 10);
  const bookedSlot = await createSlot(admin, roomId, addDays(today, 4), '10:00', '11:00', 10);
  const visitor = new Client(app.baseUrl);
  const held = (await (
    await visitor.request('POST', '/api/transactions', { json: { timeSlotId: heldSlot } })
  ).json()) as { transactionId: string; tickets: { id: string }[] };
  const bookedCart = (await (
    await visitor.request('POST', '/api/transactions', { json: { timeSlotId: bookedSlot } })
  ).json()) as { transactionId: string; tickets: { id: string }[] };
  const booked = await visitor.request(
    'PUT',
    `/api/transactions/${bookedCart.transactionId}/booking`,
    {
      json: {
        salutation: 'MS',
        firstName: 'Anna',
        lastName: 'Muster',
        email: 'anna@example.org',
        phone: '+43123456',
      },
    },
  );
  expect(booked.status).toBe(200);
  const ownerId = (
    await db.pool.query<{ owner_id: string }>(
      'SELECT owner_id FROM bookings WHERE transaction_id = $1',
      [bookedCart.transactionId],
    )
  ).rows[0]!.owner_id;
  const holiday = (await (
    await admin.request('POST', '/api/admin/holidays', {
      json: { name: 'Fuzz-Feiertag', date: addDays(today, 15) },
    })
  ).json()) as { id: string };
  const blocked = 'blocked@example.org';
  const entry = await admin.request('POST', '/api/admin/blacklist', {
    json: { email: blocked, expiredAt: addDays(today, 200) },
  });
  expect(entry.status).toBe(201);
  known = {
    uuids: [
      roomId,
      heldSlot,
      bookedSlot,
      held.transactionId,
      held.tickets[0]!.id,
      bookedCart.transactionId,
      bookedCart.tickets[0]!.id,
      holiday.id,
    ],
    ownerIds: [ownerId],
    emails: [blocked, 'anna@example.org'],
  };
  // The writes' round also knows a slot on the last date there is (whose day after has no
  // YYYY-MM-DD), and names ids by their kind.
  const lastSlot = await createSlot(admin, roomId, '9999-12-31', '10:00', '11:00', 10);
  const slots = [heldSlot, bookedSlot, lastSlot];
  const tickets = [held.tickets[0]!.id, bookedCart.tickets[0]!.id];
  const carts = [held.transactionId, bookedCart.transactionId];
  knownToWrite = {
    ...known,
    uuids: [...known.uuids, lastSlot],
    byName: {
      roomId: [roomId],
      roomIds: [roomId],
      timeSlotId: slots,
      timeSlotIds: slots,
      ticketId: tickets,
      ticketIds: tickets,
      transactionId: carts,
      holidayId: [holiday.id],
    },
  };

  const login = await send(app.baseUrl, {
    method: 'POST',
    path: '/api/auth/login',
    body: { username: 'boss', password: 'correct horse' },
  });
  expect(login.status).toBe(200);
  adminCookie = login.setCookie.map((c) => c.split(';')[0]).join('; ');
});
afterAll(async () => {
  agent.destroy();
  await suite.close();
});

/** Fuzzed requests, in rounds of this many (each its own test: a few seconds, named by its seed). */
const ROUND = 1000;
const SEEDS = [20261123, 20261124, 20261125, 20261126, 20261127];

describe('property-based fuzzing of every endpoint', () => {
  let before: Awaited<ReturnType<typeof storedRows>>;
  let requests = 0;
  let serverErrors = 0;
  beforeAll(async () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.some((r) => r.isPublic)).toBe(true);
    before = await storedRows();
    errorLogLines = [];
  });
  afterAll(() => console.log(`fuzz: ${requests} requests, ${serverErrors} 5xx`));

  /** Nothing a fuzzed request sent was stored, and the server logged no error. */
  const expectNothingStored = async () => {
    expect(serverErrors).toBe(0);
    expect(await storedRows()).toEqual(before);
    expect(errorLogLines).toEqual([]);
  };

  for (const seed of SEEDS)
    it(`answers bad input 400 problem+json and odd reads never 5xx; nothing is stored, nothing logged as an error (seed ${seed})`, async () => {
      const fuzzRequest = fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .constantFrom(...routes)
            .chain((r) => badRequest(r, known))
            .map((request) => ({ request, bad: true })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(...routes.filter((r) => r.method === 'GET'))
            .chain((r) => oddRead(r, known))
            .map((request) => ({ request, bad: false })),
        },
      );
      await fc.assert(
        fc.asyncProperty(fuzzRequest, async ({ request, bad }) => {
          const answer = await send(app.baseUrl, {
            ...request,
            cookie: request.signedIn ? adminCookie : undefined,
          });
          requests++;
          if (answer.status >= 500) serverErrors++;
          const what = `${request.method} ${request.path} ${JSON.stringify(request.body) ?? ''} → ${answer.status} ${answer.text.slice(0, 300)}`;
          expect(answer.status, what).toBeLessThan(500);
          if (answer.status >= 400) expect(answer.contentType, what).toMatch(/problem\+json/);
          if (bad) {
            expect(answer.status, what).toBe(request.unknownId ? 404 : 400);
            expect((JSON.parse(answer.text) as { error: string }).error, what).toBe(
              request.unknownId ? 'not_found' : 'validation__error',
            );
          }
        }),
        { numRuns: ROUND, seed },
      );
      await expectNothingStored();
    });

  it('answers oversized payloads and malformed JSON on every route with a body 4xx problem+json', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(300_000) });
    for (const route of routes.filter(hasJsonBody)) {
      const path = route.template.replace(/\{(\w+)\}/g, '00000000-0000-4000-8000-000000000000');
      for (const body of [big, '{"a":']) {
        const res = await fetch(app.baseUrl + path, {
          method: route.method,
          headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
          body,
        });
        requests++;
        if (res.status >= 500) serverErrors++;
        expect(res.status, `${route.method} ${path} ${body.slice(0, 10)}`).toBeLessThan(500);
        expect(res.headers.get('content-type')).toMatch(/problem\+json/);
        await res.arrayBuffer();
      }
    }
    await expectNothingStored();
  });
});

/**
 * Plausible requests of every route that writes, as they are (after the rounds above, which store
 * nothing): known ids of the kind each names, valid and edge values (9999-12-31 among them).
 * Whatever they change, none may answer 5xx or log an error. Left out: signing in and out, staff's
 * and visitors' (it would end the round's one session), and what sends to an address a request
 * names (webhooks, push subscriptions): tests send only to loopback.
 */
const WRITE_ROUND = 500;
const WRITE_SEEDS = [20261207, 20261208];

describe('property-based fuzzing of every route with plausible requests, writes included', () => {
  const leftOut = (r: Route) =>
    r.template.startsWith('/api/auth/') ||
    r.template.startsWith('/api/visitor-auth/') ||
    r.template.includes('/webhooks') ||
    r.template.includes('/push-subscriptions');

  for (const seed of WRITE_SEEDS)
    it(`never answers 5xx, nor logs an error (seed ${seed})`, async () => {
      errorLogLines = [];
      // The reads had their rounds above.
      const writes = routes.filter((r) => r.method !== 'GET' && !leftOut(r));
      expect(writes.length).toBeGreaterThan(40);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...writes).chain((r) => plausibleRequest(r, knownToWrite)),
          async (request) => {
            const answer = await send(app.baseUrl, {
              ...request,
              cookie: request.signedIn ? adminCookie : undefined,
            });
            const what = `${request.method} ${request.path} ${JSON.stringify(request.body) ?? ''} → ${answer.status} ${answer.text.slice(0, 300)}`;
            expect(answer.status, what).toBeLessThan(500);
            if (answer.status >= 400) expect(answer.contentType, what).toMatch(/problem\+json/);
          },
        ),
        { numRuns: WRITE_ROUND, seed },
      );
      expect(errorLogLines).toEqual([]);
    });
});
