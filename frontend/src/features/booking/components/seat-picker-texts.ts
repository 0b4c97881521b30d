import { useMemo } from 'react';
import { useTranslation } from '../../../i18n/i18n-context';
import { createTranslator, type TFunction } from '../../../i18n/translator';
import de from './seat-picker.de.json';
import en from './seat-picker.en.json';

/** The seat picker's texts by language, the same keys in both (seat-picker-texts.unit.test.ts). */
export const SEAT_PICKER_TEXTS = { de, en } as const;

/**
 * The texts of the booking namespace with the seat picker's own (`seats.…`: its views, zoom,
 * filters and buttons) beside them. Those are in the picker's chunk rather than the visitor
 * catalogue every visitor downloads: only a room with a seat plan shows the picker. The page's
 * catalogue (`catalogue`, the booking namespace's translate function) is asked first, so a
 * library's `labelOverride` of such a key, which lands in the catalogue, still replaces it, as
 * for every other text.
 */
export function seatPickerTranslator(catalogue: TFunction, language: 'de' | 'en'): TFunction {
  const own = createTranslator(
    language,
    { booking: { seats: SEAT_PICKER_TEXTS[language] } },
    'booking',
  ).t;
  return (key, options) => {
    const text = catalogue(key, options);
    // The translator answers a key it has nowhere with the (last) key itself.
    const missing = typeof key === 'string' ? key : key[key.length - 1];
    return text === missing ? own(key, options) : text;
  };
}

/** The seat picker's translate function (see seatPickerTranslator) in the page's language. */
export function useSeatPickerTranslation(): { t: TFunction } {
  const { t: catalogue, i18n } = useTranslation('booking');
  const language = i18n.language === 'en' ? 'en' : 'de';
  return useMemo(() => ({ t: seatPickerTranslator(catalogue, language) }), [catalogue, language]);
}
