import type { AppConfig, Language } from '../lib/config';
import { applyLabelOverride, overrideOf, type Catalogue } from '../lib/label-override';
import { cataloguesOf, type CatalogueName } from './catalogues';
import { createTranslator, type Translator } from './translator';

export const DEFAULT_NAMESPACE = 'common';

type CatalogueLoader = () => Promise<{ default: Catalogue }>;

/**
 * The catalogues (see catalogues.ts) by language; only the page's language is downloaded (each
 * file is its own chunk). Both languages of a catalogue have the same keys (checked by the
 * catalogue unit tests), so no fallback language is needed.
 */
const LOADERS: Readonly<Record<CatalogueName, Readonly<Record<Language, CatalogueLoader>>>> = {
  main: { de: () => import('./de.json'), en: () => import('./en.json') },
  visitor: { de: () => import('./visitor.de.json'), en: () => import('./visitor.en.json') },
  staff: { de: () => import('./staff.de.json'), en: () => import('./staff.en.json') },
  display: { de: () => import('./display.de.json'), en: () => import('./display.en.json') },
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

/**
 * The translator for the configured language and interface, with the label overrides of that
 * language applied (to the staff texts as well).
 */
export async function createI18n(
  config: Pick<AppConfig, 'language' | 'labelOverride' | 'interface' | 'pageLanguage'>,
): Promise<Translator> {
  const catalogues = await Promise.all(
    cataloguesOf(config.interface).map((name) => LOADERS[name][config.language]()),
  );
  const catalogue = catalogues
    .map((module) => module.default)
    .reduce((merged, extra) => mergeCatalogues(merged, extra), {});
  const override = overrideOf(
    config.labelOverride,
    config.language,
    config.pageLanguage ?? config.language,
  );
  const resources = applyLabelOverride(catalogue, override, DEFAULT_NAMESPACE);
  return createTranslator(config.language, resources, DEFAULT_NAMESPACE);
}
