import { urlScheme } from './sanitize-url';

/**
 * Resolves an address relative to the API base (e.g. a room's `imageUrl`
 * "rooms/{id}/image?v=3"). Absolute addresses and root-relative paths are kept.
 */
export function resolveApiUrl(baseApiUrl: string, path: string): string {
  if (urlScheme(path) !== null || path.startsWith('/')) return path;
  const base = baseApiUrl.endsWith('/') ? baseApiUrl : `${baseApiUrl}/`;
  return `${base}${path}`;
}

/** Router basename from the configured base URL: its path, without the trailing slash. */
export function routerBasename(baseUrl: string): string {
  let path = baseUrl;
  if (urlScheme(baseUrl) !== null) {
    try {
      path = new URL(baseUrl).pathname;
    } catch {
      path = '/';
    }
  }
  if (!path.startsWith('/')) path = `/${path}`;
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Readonly<Record<string, QueryValue | readonly QueryValue[]>>;

/**
 * Query string as docs/product.md#api wants it: arrays repeat the name without indices
 * (`day=MONDAY&day=TUESDAY`) and null or undefined values are skipped.
 */
export function serializeParams(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) {
      if (item !== null && item !== undefined) search.append(name, String(item));
    }
  }
  return search.toString();
}
