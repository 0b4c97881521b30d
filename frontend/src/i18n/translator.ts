import type { Catalogue } from '../lib/label-override';

/**
 * The app's translate function: the part of i18next the screens use, in place of i18next itself
 * (about 13 KB gzip of the visitor's download). Namespaces are the catalogue's top level, keys
 * are dot paths below them; a key missing in its namespace falls back to the default one.
 * `count` picks the plural form (`_one`, `_other`, ... by `Intl.PluralRules`), `context` a
 * variant (`key_context`, also with a plural form), `{{name}}` takes the option `name` (a text or number; otherwise it stays), and a
 * list of keys takes the first one that exists. A key that exists nowhere is answered as is.
 * React escapes what is shown, so values are inserted unescaped.
 */
export interface TOptions {
  /** The namespace to look in (default: the translate function's). */
  ns?: string;
  /** Picks the plural form and is available as `{{count}}`. */
  count?: number;
  /** Picks the variant `key_context`. */
  context?: string;
  [name: string]: unknown;
}

export type TFunction = (key: string | readonly string[], options?: TOptions) => string;

export interface Translator {
  /** The page's language (`de` or `en`). */
  readonly language: string;
  /** Translates in the default namespace (`ns` in the options chooses another). */
  readonly t: TFunction;
  /** The translate function of a namespace (null: the default namespace). */
  getFixedT(language: string, ns: string | null): TFunction;
  /** Whether the catalogue has a namespace. */
  hasResourceBundle(language: string, ns: string): boolean;
}

/**
 * The text at a dot path. A catalogue key may itself contain dots (`events.booking.created` names
 * the key `booking.created` under `events`): as i18next does, the parts left are tried joined
 * when the nested path does not go on.
 */
function lookup(node: Catalogue | string | undefined, path: string): string | undefined {
  const parts = path.split('.');
  for (let i = 0; i < parts.length; i++) {
    if (node === undefined || typeof node === 'string') return undefined;
    const rest = parts.slice(i).join('.');
    if (i < parts.length - 1 && !(parts[i]! in node) && rest in node) {
      const leaf = node[rest];
      return typeof leaf === 'string' ? leaf : undefined;
    }
    node = node[parts[i]!];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The keys to try for one key, most specific first (i18next's order). */
function candidates(key: string, options: TOptions, plural: Intl.PluralRules): string[] {
  const bases = options.context ? [`${key}_${options.context}`, key] : [key];
  if (typeof options.count !== 'number') return bases;
  const suffix = `_${plural.select(options.count)}`;
  const zero = options.count === 0 ? ['_zero'] : [];
  return bases.flatMap((base) => [...zero.map((z) => base + z), base + suffix, base]);
}

/**
 * A number in a text is written the page language's way ("0,5 Tage", "0.5 days"), without
 * thousands separators, which would read oddly in "Platz 1234" or a year.
 */
function interpolate(text: string, options: TOptions, numbers: Intl.NumberFormat): string {
  return text.replace(/{{\s*-?\s*(\w+)\s*}}/g, (whole, name: string) => {
    const value = options[name];
    if (typeof value === 'number') return numbers.format(value);
    return typeof value === 'string' ? value : whole;
  });
}

/**
 * A translator over `resources` (namespaces at the top level), for one language, with
 * `defaultNs` as the default and fallback namespace.
 */
export function createTranslator(
  language: string,
  resources: Catalogue,
  defaultNs: string,
): Translator {
  const plural = new Intl.PluralRules(language);
  const numbers = new Intl.NumberFormat(language, { useGrouping: false, maximumFractionDigits: 3 });
  const getFixedT =
    (_language: string, fixedNs: string | null): TFunction =>
    (key, options = {}) => {
      const keys = typeof key === 'string' ? [key] : key;
      const namespaces = [options.ns ?? fixedNs ?? defaultNs, defaultNs];
      for (const one of keys) {
        for (const ns of namespaces) {
          for (const candidate of candidates(one, options, plural)) {
            const text = lookup(resources[ns], candidate);
            if (text !== undefined) return interpolate(text, options, numbers);
          }
        }
      }
      return keys[keys.length - 1] ?? '';
    };
  return {
    language,
    t: getFixedT(language, null),
    getFixedT,
    hasResourceBundle: (_language, ns) => typeof resources[ns] === 'object',
  };
}
