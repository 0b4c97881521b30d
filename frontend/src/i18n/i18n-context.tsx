import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { Language } from '../lib/config';
import { textIn } from './language-choice';
import type { TFunction, Translator } from './translator';

/**
 * The React binding of the app's translator: a context and `useTranslation`. The translator is complete
 * before the first render (`createI18n` awaits every catalogue of the page's language); a switch
 * of the language loads the other language's catalogues first and then replaces the translator,
 * so a component needs no subscription to namespace loading: it takes `t` of its namespace from
 * the instance, and the context's change renders it again.
 */
const I18nContext = createContext<Translator | null>(null);

/** The page's language and the switch to the other one (the header's language switch). */
export interface LanguageSwitching {
  language: Language;
  /** The language was chosen (address or remembered): the address keeps naming it. */
  chosen: boolean;
  switchTo: (language: Language) => void;
}

export const LanguageContext = createContext<LanguageSwitching | null>(null);

export function useLanguage(): LanguageSwitching {
  const language = useContext(LanguageContext);
  if (!language) throw new Error('useLanguage must be used inside LanguageContext');
  return language;
}

/**
 * The text of the page's language among a text staff wrote and its English translation, the
 * other as the fallback (docs/product.md#translations).
 */
export function useTextIn(): (
  german: string | null | undefined,
  english: string | null | undefined,
) => string {
  const { language } = useLanguage();
  return useCallback((german, english) => textIn(language, german, english), [language]);
}

export function I18nProvider({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  return <I18nContext value={i18n}>{children}</I18nContext>;
}

export interface Translation {
  /** Translates the keys of the hook's namespace (default `common`), falling back to `common`. */
  t: TFunction;
  i18n: Translator;
}

/** The translate function of a namespace, and the translator. */
export function useTranslation(ns?: string): Translation {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useTranslation must be used inside I18nProvider');
  const t = useMemo(() => i18n.getFixedT(i18n.language, ns ?? null), [i18n, ns]);
  return { t, i18n };
}
