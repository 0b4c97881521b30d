import { describe, expect, it } from 'vitest';
import {
  isoDate,
  isStorableText,
  optionalText,
  requiredText,
  unstorableTextErrors,
} from './validation.ts';

describe('text PostgreSQL can store', () => {
  it('refuses NUL and lone surrogates, keeps every character', () => {
    expect(isStorableText('Grüße, 名前 😀 \u00A0\uFFFD')).toBe(true);
    expect(isStorableText('A\u0000B')).toBe(false);
    expect(isStorableText('\uD800')).toBe(false);
    expect(isStorableText('a\uDC00')).toBe(false);
    expect(isStorableText('\uDE00\uD83D')).toBe(false);
    expect(isStorableText('\uD83D\uDE00')).toBe(true);
  });

  it('names every field of a request part with such text, keys included', () => {
    expect(unstorableTextErrors({ name: 'ok', n: 3, list: ['x'] }, 'query')).toEqual([]);
    expect(
      unstorableTextErrors(
        { firstName: 'A\u0000B', owner: { lastName: '\uD800' }, ids: ['a', 'b\u0000'] },
        'body',
      ).map((e) => e.field),
    ).toEqual(expect.arrayContaining(['firstName', 'owner.lastName', 'ids.1']));
    expect(unstorableTextErrors({ '\u0000': 'x' }, 'query')).toEqual([
      {
        field: 'query',
        rule: 'invalid_characters',
        message: 'The value contains characters that are not allowed',
      },
    ]);
    expect(unstorableTextErrors({ a: { 'k\uDFFF': 1 } }, 'body').map((e) => e.field)).toEqual([
      'a',
    ]);
    expect(unstorableTextErrors('\u0000', 'body').map((e) => e.field)).toEqual(['body']);
    expect(unstorableTextErrors(undefined, 'body')).toEqual([]);
  });

  it('walks a body nested far deeper than a recursion could', () => {
    const deep = JSON.parse(`${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}`) as unknown;
    expect(unstorableTextErrors(deep, 'body')).toHaveLength(1);
  });

  it('is part of the text helpers', () => {
    expect(requiredText(40).safeParse('A\u0000B').success).toBe(false);
    expect(requiredText(40).safeParse('Anna').success).toBe(true);
    expect(optionalText(40).safeParse('\uD800').success).toBe(false);
    expect(optionalText(40).safeParse('').data).toBeUndefined();
  });
});

describe('dates', () => {
  it('accepts the dates PostgreSQL has, from 0001-01-01 to 9999-12-31', () => {
    for (const d of ['0001-01-01', '2026-02-28', '2028-02-29', '9999-12-31'])
      expect(isoDate.safeParse(d).success, d).toBe(true);
    for (const d of [
      '0000-01-01',
      '0000-12-31',
      '99999-01-01',
      '+10000-01-01',
      '2026-02-29',
      '2026-13-01',
    ])
      expect(isoDate.safeParse(d).success, d).toBe(false);
  });
});
