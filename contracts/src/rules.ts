import * as z from 'zod/mini';
import type { RuleKey } from './issues.ts';

/**
 * The text rules of docs/product.md#validation. A required value is trimmed and fails 'required' when
 * empty; an empty optional value passes every other check. Lengths are zod's own checks (the
 * OpenAPI document shows them); every other rule is a refinement whose issue names its rule
 * (`params.rule`, plus the rule's parameters): see `fieldErrorOf`. The schemas carry no texts:
 * the browser shows its catalogue's, the API `messageOf`'s, both by the rule.
 */

/**
 * A refinement failing with `rule` (`code: 'custom'`, `params: { rule, ...params }`). It does not
 * abort (an aborting issue would keep the object's cross-field rules from running): a field's
 * later checks still run, and its first issue is the one reported.
 */
export function rule<T>(
  key: RuleKey,
  test: (value: T) => boolean,
  params: Readonly<Record<string, number>> = {},
) {
  return z.refine<T>(test, { params: { rule: key, ...params } });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether PostgreSQL can store the text: it refuses NUL (in text and in jsonb, so in events too),
 * and a lone surrogate is no character (jsonb refuses it; text would silently get U+FFFD).
 */
export function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

/**
 * Control characters (Unicode `Cc`: C0, DEL, C1) and the line and paragraph separators. A text of
 * one line (a name, a title, a reason) holds none: such texts go into mails, calendar feeds and
 * headings, where a line break or a control character would start a line of its own.
 */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** The same, but the line feed: a text of several lines (a description) keeps its lines. */
const CONTROL_BUT_LINE_FEED = /[^\P{Cc}\n]|[\u2028\u2029]/u;

/** Whether a text fits on one line: no control character, no line or paragraph separator. */
export const isSingleLineText = (s: string): boolean => !CONTROL.test(s);

/** Whether a text of several lines holds no control character but its line feeds. */
export const isMultiLineText = (s: string): boolean => !CONTROL_BUT_LINE_FEED.test(s);

/**
 * A text from elsewhere (an imported calendar's) made one line: each run of control characters
 * and separators becomes one space.
 */
export const asSingleLine = (s: string): string =>
  s.replace(new RegExp(`${CONTROL.source}+`, 'gu'), ' ').trim();

/**
 * A text from elsewhere made one of several lines: CR LF and CR become a line feed, every other
 * control character goes.
 */
export const asMultiLine = (s: string): string =>
  s.replace(/\r\n?/g, '\n').replace(new RegExp(CONTROL_BUT_LINE_FEED.source, 'gu'), '').trim();

/**
 * How many lines a text may have: `single` (names, titles, reasons: no control character) or
 * `multi` (descriptions: line feeds, but no other control character).
 */
export type TextLines = 'single' | 'multi';

/** CR LF and a lone CR are the line feed of a text of several lines (as the browser sends it). */
const lineFeeds = () => z.overwrite((v: string) => v.replace(/\r\n?/g, '\n'));

/** The characters rule of a text: storable, and no control character its lines do not allow. */
function characters(lines: TextLines) {
  const fits = lines === 'single' ? isSingleLineText : isMultiLineText;
  return rule<string>('characters', (v) => isStorableText(v) && fits(v));
}

/**
 * Required text: trimmed, empty fails 'required', then length bounds; storable, and of one line
 * unless `lines` is `multi`.
 */
export function requiredText(max: number, min = 1, lines: TextLines = 'single') {
  return z
    .string()
    .check(
      ...(lines === 'multi' ? [lineFeeds()] : []),
      z.trim(),
      z.minLength(1),
      ...(min > 1 ? [z.minLength(min)] : []),
      z.maxLength(max),
      characters(lines),
    );
}

/**
 * Optional text: trimmed; empty (or null) passes and becomes undefined; storable, and of one line
 * unless `lines` is `multi`; a given text has at least `min` characters (a translation keeps the
 * least length of the text it translates).
 */
export function optionalText(max: number, lines: TextLines = 'single', min = 1) {
  const text = z.pipe(
    z.nullish(boundedText(max, lines)),
    z.transform((v: string | null | undefined) => (v ? v : undefined)),
  );
  return min > 1 ? z.pipe(text, z.optional(z.string().check(z.minLength(min)))) : text;
}

/** An optional text that stays a string (empty too): trimmed, at most `max`, of `lines`. */
export function optionalString(max: number, lines: TextLines = 'single') {
  return z.optional(boundedText(max, lines));
}

/** A text that may be empty: trimmed, at most `max`, storable, of `lines`. */
function boundedText(max: number, lines: TextLines) {
  return z
    .string()
    .check(
      ...(lines === 'multi' ? [lineFeeds()] : []),
      z.trim(),
      z.maxLength(max),
      characters(lines),
    );
}

const isEmail = (v: string | undefined) => v === undefined || z.regexes.email.test(v);

/** A required e-mail address: trimmed, at most 320 characters, valid. */
export function requiredEmail() {
  return requiredText(320).check(rule('email', isEmail));
}

/** An optional e-mail address: empty passes (undefined), else at most 320 characters, valid. */
export function optionalEmail() {
  return optionalText(320).check(rule('email', isEmail));
}

/** A telephone number: digits with an optional leading plus (spec: "numbers or plus only"). */
export const PHONE_PATTERN = /^\+?[0-9]+$/;
export function phoneRule() {
  return rule<string | undefined>('phone', (v) => v === undefined || PHONE_PATTERN.test(v));
}

/** What people type between the digits of a phone number: spaces, hyphens, slashes, dots, brackets. */
const PHONE_SEPARATORS = /[\s\-/.()]/g;

/** "+43 664 123-45 67" is "+436641234567": the separators go, then only digits and a plus may stay. */
export const normalizePhone = (v: string) => v.replace(PHONE_SEPARATORS, '');

/** An optional phone number, at most `max` as typed, stored without separators. */
export function optionalPhone(max: number) {
  return z
    .pipe(
      optionalText(max),
      z.transform((v: string | undefined) => (v === undefined ? v : normalizePhone(v))),
    )
    .check(phoneRule());
}

/** A required phone number, at most `max` as typed, stored without separators. */
export function requiredPhone(max: number) {
  return z.pipe(requiredText(max), z.transform(normalizePhone)).check(phoneRule());
}
