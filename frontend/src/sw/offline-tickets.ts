import { SETTINGS_CACHE, TICKETS_CACHE } from '../lib/offline-caches.ts';

declare const self: ServiceWorkerGlobalScope;

/**
 * The reads of "my tickets": a booking's tickets (`GET …/owners/{ownerId}/tickets`) and a
 * ticket's check-in QR code (`GET …/owners/{ownerId}/tickets/{ticketId}/check-in.svg`).
 */
const TICKET_READ = /\/owners\/([^/]+)\/tickets(?:\/[^/]+\/check-in\.svg)?$/;
/** The library's settings (its time zone). */
const SETTINGS_READ = /\/api\/settings$/;

/** The owner id of a cached ticket read. */
const ownerOf = (url: string): string | undefined => TICKET_READ.exec(new URL(url).pathname)?.[1];

/**
 * A booking the server no longer knows (404: erased, or never there): its tickets and QR codes
 * leave the device too.
 */
async function forgetOwner(cache: Cache, ownerId: string): Promise<void> {
  for (const key of await cache.keys()) {
    if (ownerOf(key.url) === ownerId) await cache.delete(key);
  }
}

/**
 * Network first: the server's answer, saved when it is a success; offline (the network fails)
 * the saved answer. Keyed by the address only, so the page's read and an image's read meet.
 */
async function networkFirst(request: Request, cacheName: string): Promise<Response> {
  const cache = await caches.open(cacheName);
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    const saved = await cache.match(request.url, { ignoreVary: true });
    if (saved) return saved;
    throw error;
  }
  const ownerId = cacheName === TICKETS_CACHE ? ownerOf(request.url) : undefined;
  if (response.status === 200) await cache.put(request.url, response.clone());
  else if (response.status === 404 && ownerId) await forgetOwner(cache, ownerId);
  return response;
}

/** The answer to a read of "my tickets" or of the settings, or null for any other request. */
export function answerOfflineReads(request: Request): Promise<Response> | null {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return null;
  if (TICKET_READ.test(url.pathname)) return networkFirst(request, TICKETS_CACHE);
  if (SETTINGS_READ.test(url.pathname)) return networkFirst(request, SETTINGS_CACHE);
  return null;
}
