import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { TFunction, Translator } from './translator';

/**
 * The React binding of the app's translator: a context and `useTranslation`. The translator is complete
 * before the first render (`createI18n` awaits every catalogue of the page's language) and the
 * language of a page never changes, so a component needs no subscription to language changes or
 * namespace loading: it takes `t` of its namespace from the instance.
 */
const I18nContext = createContext<Translator | null>(null);

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
