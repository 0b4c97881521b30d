/**
 * Merges the `labelOverride` configuration (docs/product.md#configuration) over a message catalogue of one
 * language. The catalogue's top level are the namespaces. Accepted override shapes:
 *
 * - `{"rooms": {"chooser": {"title": "Raum wählen"}}}`: namespace objects, merged deeply;
 * - `{"rooms:chooser.title": "Raum wählen"}`: "namespace:dotted.key" to a text;
 * - `{"app-title": "Lesesäle"}` or `{"nav.rooms": "..."}`: keys of the default namespace.
 *
 * Only strings replace texts; other values are ignored. The input is not modified.
 */

export type Catalogue = { [key: string]: string | Catalogue };

type Language = 'de' | 'en';
const OVERRIDE_LANGUAGES: readonly string[] = ['de', 'en'];

/**
 * The override of one language (docs/product.md#configuration). An override of the languages
 * (`{"de": {…}, "en": {…}}`, its only keys languages) gives each its own texts; a plain one is
 * written in the page's own language and applies to it only: a page switched to the other
 * language keeps that language's catalogue texts instead of showing the override's.
 */
export function overrideOf(
  override: Readonly<Record<string, unknown>>,
  language: Language,
  pageLanguage: Language,
): Readonly<Record<string, unknown>> {
  const keys = Object.keys(override);
  const perLanguage = keys.length > 0 && keys.every((key) => OVERRIDE_LANGUAGES.includes(key));
  if (perLanguage) {
    const own = override[language];
    return isObject(own) ? own : {};
  }
  return language === pageLanguage ? override : {};
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function clone(catalogue: Catalogue): Catalogue {
  const copy: Catalogue = {};
  for (const [key, value] of Object.entries(catalogue)) {
    copy[key] = typeof value === 'string' ? value : clone(value);
  }
  return copy;
}

function mergeInto(target: Catalogue, override: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(override)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    if (typeof value === 'string') {
      target[key] = value;
    } else if (isObject(value)) {
      const existing = target[key];
      const child: Catalogue = isObject(existing) ? existing : {};
      mergeInto(child, value);
      target[key] = child;
    }
  }
}

function setPath(target: Catalogue, path: readonly string[], text: string): void {
  if (path.some((part) => part === '' || FORBIDDEN_KEYS.has(part))) return;
  mergeInto(
    target,
    path.reduceRight<Record<string, unknown> | string>(
      (inner, part) => ({ [part]: inner }),
      text,
    ) as Record<string, unknown>,
  );
}

export function applyLabelOverride(
  catalogue: Catalogue,
  override: Readonly<Record<string, unknown>>,
  defaultNamespace: string,
): Catalogue {
  const result = clone(catalogue);
  for (const [key, value] of Object.entries(override)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const namespace = catalogue[key];
    if (isObject(namespace) && isObject(value)) {
      mergeInto(result, { [key]: value });
      continue;
    }
    const separator = key.indexOf(':');
    const [ns, path] =
      separator > 0 ? [key.slice(0, separator), key.slice(separator + 1)] : [defaultNamespace, key];
    if (typeof value === 'string') {
      setPath(result, [ns, ...path.split('.')], value);
    } else if (isObject(value) && separator < 0) {
      mergeInto(result, { [defaultNamespace]: { [key]: value } });
    }
  }
  return result;
}
