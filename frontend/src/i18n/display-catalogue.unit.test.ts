import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../lib/label-override';
import de from './de.json';
import displayDe from './display.de.json';
import displayEn from './display.en.json';
import { createI18n } from './i18n';

function texts(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : texts(value, `${prefix}${key}.`),
  );
}
const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

describe('display message catalogues', () => {
  it('have the same keys, no empty texts and the same variables in German and English', () => {
    const english = new Map(texts(displayEn));
    const all = texts(displayDe);
    expect([...english.keys()].sort()).toEqual(all.map(([key]) => key).sort());
    for (const [key, text] of all) {
      expect(text.trim().length, key).toBeGreaterThan(0);
      expect(english.get(key)?.trim().length, key).toBeGreaterThan(0);
      expect(variables(english.get(key) ?? ''), key).toEqual(variables(text));
    }
  });

  it('are loaded with the display only, over the main texts and without the booking texts', async () => {
    for (const language of ['de', 'en'] as const) {
      const display = await createI18n({ language, labelOverride: {}, interface: 'display' });
      const catalogue = language === 'de' ? displayDe : displayEn;
      expect(display.t('title', { ns: 'display' })).toBe(catalogue.display.title);
      expect(display.t('seats', { ns: 'display', count: 1 })).toBe(catalogue.display.seats_one);
      expect(display.t('seats', { ns: 'display', count: 7 })).toBe(catalogue.display.seats_other);
      expect(display.hasResourceBundle(language, 'booking')).toBe(false);
      const visitor = await createI18n({ language, labelOverride: {}, interface: 'user' });
      expect(visitor.hasResourceBundle(language, 'display')).toBe(false);
    }
    const german = await createI18n({ language: 'de', labelOverride: {}, interface: 'display' });
    expect(german.t('loading')).toBe(de.common.loading);
  });
});
