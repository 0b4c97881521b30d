import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useLanguage, useTranslation } from '../i18n/i18n-context';
import { keepLanguageInAddress, LANGUAGE_NAMES } from '../i18n/language-choice';
import { LANGUAGES } from '../lib/config';

/**
 * The header's language switch (docs/product.md#configuration): one button per language, named
 * in its own language, the page's pressed. The choice is remembered and named in the address.
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const { language, switchTo } = useLanguage();
  return (
    <div className="language-switch" role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((option) => (
        <button
          key={option}
          type="button"
          lang={option}
          className="language-switch__option"
          aria-pressed={option === language}
          onClick={() => {
            if (option !== language) switchTo(option);
          }}
        >
          {LANGUAGE_NAMES[option]}
        </button>
      ))}
    </div>
  );
}

/**
 * Keeps a chosen language named in the address as the visitor moves on (the routes' links do
 * not carry it): a copied link or a reload opens in it.
 */
export function useLanguageInAddress(): void {
  const location = useLocation();
  const { language, chosen } = useLanguage();
  useEffect(() => {
    if (chosen) keepLanguageInAddress(language);
  }, [location, language, chosen]);
}
