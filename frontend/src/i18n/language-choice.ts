import { LANGUAGES, parseLanguage, type Language } from '../lib/config';

/**
 * The page's language and how it is chosen (docs/product.md#configuration): the address's
 * `?lang=`, else the choice the browser remembers, else the page's `lang` attribute. A chosen
 * language (in the address or remembered) stays in the address while the visitor moves on, so a
 * copied link opens in it too.
 */

/** The address parameter naming the language (`?lang=en`). */
export const LANGUAGE_PARAM = 'lang';
/** Where the browser remembers the choice (localStorage: it outlives the browser session). */
export const LANGUAGE_STORAGE_KEY = 'language';

/** The autonyms of the languages: each name in its own language, whatever the page's. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { de: 'Deutsch', en: 'English' };

const isLanguage = (value: string | null | undefined): value is Language =>
  (LANGUAGES as readonly (string | null | undefined)[]).includes(value);

export interface LanguageChoice {
  language: Language;
  /** Named by the address or remembered: then the address keeps naming it. */
  chosen: boolean;
}

/** The language of a page with this address query, remembered choice and page `lang`. */
export function languageOf(
  search: string,
  remembered: string | null,
  pageLang: string | null | undefined,
): LanguageChoice {
  const named = new URLSearchParams(search).get(LANGUAGE_PARAM);
  if (isLanguage(named)) return { language: named, chosen: true };
  if (isLanguage(remembered)) return { language: remembered, chosen: true };
  return { language: parseLanguage(pageLang), chosen: false };
}

/** The address with its `lang` parameter naming the language (the rest unchanged). */
export function withLanguage(href: string, language: Language): string {
  const url = new URL(href);
  url.searchParams.set(LANGUAGE_PARAM, language);
  return url.href;
}

/**
 * The text of a language among a text and its translation: the language's own, else the other
 * (a translation staff left empty falls back to the German text, and the other way round).
 */
export function textIn(
  language: Language,
  german: string | null | undefined,
  english: string | null | undefined,
): string {
  const [own, other] = language === 'en' ? [english, german] : [german, english];
  return own || other || '';
}

/** The remembered choice; null when none (or storage is disabled). */
export function rememberedLanguage(): string | null {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Remembers the choice; without storage it lasts as long as the address names it. */
export function rememberLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage disabled or full: the address still names the language
  }
}

/** Names the language in the address (without a new history entry) if it does not yet. */
export function keepLanguageInAddress(language: Language): void {
  const params = new URLSearchParams(window.location.search);
  if (params.get(LANGUAGE_PARAM) === language) return;
  // The router's own state entry is kept: back and forward still work as before.
  window.history.replaceState(
    window.history.state,
    '',
    withLanguage(window.location.href, language),
  );
}
