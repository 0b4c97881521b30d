import { createInstance, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { AppConfig, Language } from '../lib/config';
import { applyLabelOverride, type Catalogue } from '../lib/label-override';

export const DEFAULT_NAMESPACE = 'common';

/**
 * Message catalogues; the top level are namespaces (`common`, `common-error`, features).
 * Only the page's language is downloaded (each catalogue is its own chunk). Both catalogues
 * have the same keys (checked by catalogue.unit.test.ts), so no fallback language is needed.
 */
const CATALOGUES: Readonly<Record<Language, () => Promise<{ default: Catalogue }>>> = {
  de: () => import('./de.json'),
  en: () => import('./en.json'),
};

/** The texts of the visitor booking screens, merged into the main catalogue (same key rules). */
const VISITOR_CATALOGUES: Readonly<Record<Language, () => Promise<{ default: Catalogue }>>> = {
  de: () => import('./visitor.de.json'),
  en: () => import('./visitor.en.json'),
};

/** A deep merge of `extra` over `base`, both catalogues; the inputs are not modified. */
export function mergeCatalogues(base: Catalogue, extra: Catalogue): Catalogue {
  const result: Catalogue = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = result[key];
    result[key] =
      typeof value === 'string' || typeof current !== 'object'
        ? value
        : mergeCatalogues(current, value);
  }
  return result;
}

/** An i18next instance for the configured language with the label overrides applied. */
export async function createI18n(
  config: Pick<AppConfig, 'language' | 'labelOverride'>,
): Promise<i18n> {
  const [{ default: main }, { default: visitor }] = await Promise.all([
    CATALOGUES[config.language](),
    VISITOR_CATALOGUES[config.language](),
  ]);
  const catalogue = mergeCatalogues(main, visitor);
  const resources = applyLabelOverride(catalogue, config.labelOverride, DEFAULT_NAMESPACE);
  const instance = createInstance();
  await instance.use(initReactI18next).init({
    lng: config.language,
    fallbackLng: false,
    resources: { [config.language]: resources },
    ns: Object.keys(resources),
    defaultNS: DEFAULT_NAMESPACE,
    fallbackNS: DEFAULT_NAMESPACE,
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  return instance;
}
