import { SHELL_CACHE_PREFIX } from '../lib/offline-caches.ts';

/** An entry of the precache list vite-plugin-pwa writes into the built worker. */
interface PrecacheEntry {
  url: string;
  revision: string | null;
}

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: PrecacheEntry[] };

// Replaced at build time by the list of the visitor app's files (frontend/pwa/vite-pwa.ts).
const entries: PrecacheEntry[] = self.__WB_MANIFEST;

/** A short hash of the list: a release whose files changed gets a cache of its own. */
function hashOf(text: string): string {
  let hash = 5381;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 33) ^ text.charCodeAt(i)) >>> 0;
  return hash.toString(36);
}

const SHELL = `${SHELL_CACHE_PREFIX}${hashOf(JSON.stringify(entries))}`;
const scope = self.registration.scope;
const shellUrls = new Set(entries.map((entry) => new URL(entry.url, scope).href));
/** The visitor page every visitor route is (the server answers each with it). */
const APP_SHELL = new URL('index.html', scope).href;

/**
 * Paths that are never the visitor app: the API, the staff and display interfaces (a site's
 * display at /s/{slug}/display too) and files. Their navigations go to the network only, so no
 * cached visitor page stands in for them.
 */
const NOT_VISITOR_PAGE = /^\/(api|admin|display|s\/[^/]+\/display)(\/|$)|\/[^/]*\.[^/]*$/;

/** Stores this release's visitor app (revalidated with the server, not the HTTP cache). */
export async function cacheShell(): Promise<void> {
  const cache = await caches.open(SHELL);
  await cache.addAll([...shellUrls].map((url) => new Request(url, { cache: 'no-cache' })));
}

/** Drops the shells of earlier releases once this worker is the active one. */
export async function dropOldShells(): Promise<void> {
  for (const name of await caches.keys()) {
    if (name.startsWith(SHELL_CACHE_PREFIX) && name !== SHELL) await caches.delete(name);
  }
}

/** A visitor route opened: the server's page, or the saved one when the network fails. */
async function pageOrShell(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const saved = await caches.match(APP_SHELL, { cacheName: SHELL });
    if (saved) return saved;
    throw error;
  }
}

async function savedOrNetwork(request: Request, url: string): Promise<Response> {
  return (await caches.match(url, { cacheName: SHELL })) ?? fetch(request);
}

/**
 * The answer from the shell, or null when the request is not the shell's: a navigation to a
 * visitor route (network first), a file of the visitor app (the saved copy: its name changes
 * with its content).
 */
export function answerFromShell(request: Request): Promise<Response> | null {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return null;
  if (request.mode === 'navigate') {
    return NOT_VISITOR_PAGE.test(url.pathname) ? null : pageOrShell(request);
  }
  url.search = '';
  url.hash = '';
  return shellUrls.has(url.href) ? savedOrNetwork(request, url.href) : null;
}
