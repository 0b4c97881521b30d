import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../lib/label-override';
import { createI18n } from '../../../i18n/i18n';
import visitorDe from '../../../i18n/visitor.de.json';
import visitorEn from '../../../i18n/visitor.en.json';
import { SEAT_PICKER_TEXTS, seatPickerTranslator } from './seat-picker-texts';

function texts(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : texts(value, `${prefix}${key}.`),
  );
}
const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

describe("the seat picker's texts", () => {
  it('have the same keys and variables in German and English, none empty', () => {
    const german = new Map(texts(SEAT_PICKER_TEXTS.de));
    const english = new Map(texts(SEAT_PICKER_TEXTS.en));
    expect([...english.keys()].sort()).toEqual([...german.keys()].sort());
    for (const [key, text] of german) {
      expect(text.trim(), key).not.toBe('');
      expect(english.get(key)?.trim(), key).not.toBe('');
      expect(variables(english.get(key) ?? ''), key).toEqual(variables(text));
    }
  });

  it.each([
    ['de', visitorDe],
    ['en', visitorEn],
  ] as const)('%s: no key is in the visitor catalogue as well', (language, visitor) => {
    const seats = (visitor.booking as Catalogue).seats as Catalogue;
    const catalogueKeys = new Set(texts(seats).map(([key]) => key));
    for (const [key] of texts(SEAT_PICKER_TEXTS[language])) {
      expect(catalogueKeys.has(key), key).toBe(false);
    }
  });

  it.each(['de', 'en'] as const)(
    "%s: the picker finds its own texts and the catalogue's, and a labelOverride wins",
    async (language) => {
      const override = language === 'de' ? 'Irgendeinen Platz' : 'Any seat at all';
      const i18n = await createI18n({
        language,
        labelOverride: { 'booking:seats.book-any': override },
        interface: 'user',
      });
      const t = seatPickerTranslator(i18n.getFixedT(language, 'booking'), language);
      expect(t('seats.book-any')).toBe(override);
      expect(t('seats.book-seat')).toBe(SEAT_PICKER_TEXTS[language]['book-seat']);
      expect(t('seats.chosen', { seat: 'A1' })).toContain('A1');
      expect(t('seats.filter.window')).toBe(SEAT_PICKER_TEXTS[language].filter.window);
      // Texts the visitor catalogue keeps (the ticket lists name seats too) come from it.
      expect(t('seats.state.free')).toBe(
        ((language === 'de' ? visitorDe : visitorEn).booking.seats.state as Catalogue).free,
      );
      expect(t('loading', { ns: 'common' })).not.toBe('loading');
      expect(t('seats.no-such-text')).toBe('seats.no-such-text');
    },
  );
});
