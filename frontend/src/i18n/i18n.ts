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

/** An i18next instance for the configured language with the label overrides applied. */
export async function createI18n(
  config: Pick<AppConfig, 'language' | 'labelOverride'>,
): Promise<i18n> {
  const { default: catalogue } = await CATALOGUES[config.language]();
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
