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

/** Required text: trimmed, empty fails 'required', then length bounds; storable. */
export function requiredText(max: number, min = 1) {
  return z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      ...(min > 1 ? [z.minLength(min)] : []),
      z.maxLength(max),
      rule('characters', isStorableText),
    );
}

/** Optional text: trimmed; empty (or null) passes and becomes undefined; storable. */
export function optionalText(max: number) {
  return z.pipe(
    z.nullish(z.string().check(z.trim(), z.maxLength(max), rule('characters', isStorableText))),
    z.transform((v: string | null | undefined) => (v ? v : undefined)),
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
