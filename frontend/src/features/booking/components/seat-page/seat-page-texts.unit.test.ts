import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../../lib/label-override';
import { SEAT_PAGE_TEXTS } from './seat-page-texts';

function texts(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : texts(value, `${prefix}${key}.`),
  );
}
const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

describe("the seat page's texts", () => {
  it('have the same keys and variables in German and English, none empty', () => {
    const german = new Map(texts(SEAT_PAGE_TEXTS.de));
    const english = new Map(texts(SEAT_PAGE_TEXTS.en));
    expect([...english.keys()].sort()).toEqual([...german.keys()].sort());
    for (const [key, text] of german) {
      expect(text.trim(), key).not.toBe('');
      expect(english.get(key)?.trim(), key).not.toBe('');
      expect(variables(english.get(key) ?? ''), key).toEqual(variables(text));
    }
  });

  it('give a count before a counted noun its plural forms', () => {
    for (const catalogue of [SEAT_PAGE_TEXTS.de, SEAT_PAGE_TEXTS.en])
      for (const [key, text] of texts(catalogue))
        if (/{{count}} (Minute|minute)/.test(text)) expect(key).toMatch(/_(one|other)$/);
  });
});
