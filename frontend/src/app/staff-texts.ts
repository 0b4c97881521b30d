import type { i18n } from 'i18next';
import type { AppConfig, Language } from '../lib/config';
import { applyLabelOverride, type Catalogue } from '../lib/label-override';
import staffDe from '../i18n/staff.de.json';
import staffEn from '../i18n/staff.en.json';

/**
 * The texts of the staff screens (reservations, history, overbooked slots, reports). They are
 * bundled with the admin chunk and added to the i18next instance when the admin interface starts,
 * so visitors never download them. Texts already there (the main catalogue with its label
 * overrides) win; the label overrides apply to these texts as well.
 */
const STAFF_CATALOGUES: Readonly<Record<Language, Catalogue>> = { de: staffDe, en: staffEn };

const DEFAULT_NAMESPACE = 'common';

/** The staff catalogue of a language with the label overrides applied, by namespace. */
export function staffResources(
  language: Language,
  labelOverride: AppConfig['labelOverride'],
): Record<string, Catalogue> {
  const catalogue = STAFF_CATALOGUES[language];
  const withOverrides = applyLabelOverride(catalogue, labelOverride, DEFAULT_NAMESPACE);
  const resources: Record<string, Catalogue> = {};
  // Only the staff namespaces: overrides of other screens stay with the main catalogue.
  for (const namespace of Object.keys(catalogue)) {
    const bundle = withOverrides[namespace];
    if (bundle !== undefined && typeof bundle !== 'string') resources[namespace] = bundle;
  }
  return resources;
}

/** Adds the staff texts once (deep merge, existing texts kept); later calls do nothing. */
export function addStaffTexts(
  instance: i18n,
  config: Pick<AppConfig, 'language' | 'labelOverride'>,
): void {
  const { language } = config;
  if (instance.hasResourceBundle(language, 'admin-reservations')) return;
  for (const [namespace, bundle] of Object.entries(
    staffResources(language, config.labelOverride),
  )) {
    instance.addResourceBundle(language, namespace, bundle, true, false);
  }
}
