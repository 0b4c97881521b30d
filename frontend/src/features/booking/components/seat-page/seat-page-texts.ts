import { useMemo } from 'react';
import { useTranslation } from '../../../../i18n/i18n-context';
import { createTranslator, type TFunction } from '../../../../i18n/translator';
import de from './seat-page.de.json';
import en from './seat-page.en.json';

/** The seat page's texts by language, the same keys in both (seat-page-texts.unit.test.ts). */
export const SEAT_PAGE_TEXTS = { de, en } as const;

/**
 * The seat page's own texts: in its chunk rather than the visitor catalogue, which every visitor
 * downloads, while few come to a seat's page (its QR code).
 */
export function useSeatPageTranslation(): { t: TFunction } {
  const { i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'de';
  return useMemo(
    () => ({
      t: createTranslator(language, { 'seat-page': SEAT_PAGE_TEXTS[language] }, 'seat-page').t,
    }),
    [language],
  );
}
