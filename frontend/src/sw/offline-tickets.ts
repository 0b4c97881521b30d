import { SAVED_ANSWER_HEADER, SETTINGS_CACHE, TICKETS_CACHE } from '../lib/offline-caches.ts';

declare const self: ServiceWorkerGlobalScope;

/**
 * The reads of "my tickets": a booking's tickets (`GET …/owners/{ownerId}/tickets`) and a
 * ticket's check-in QR code (`GET …/owners/{ownerId}/tickets/{ticketId}/check-in.svg`).
 */
const TICKET_READ = /\/owners\/([^/]+)\/tickets(?:\/([^/]+)\/check-in\.svg)?$/;
/** The library's settings (its time zone). */
const SETTINGS_READ = /\/api\/settings$/;

/** The owner id of a cached ticket read. */
const ownerOf = (url: string): string | undefined => TICKET_READ.exec(new URL(url).pathname)?.[1];

/**
 * A booking the server no longer knows (its tickets answer 404: erased, or never there): its
 * tickets and QR codes leave the device too.
 */
async function forgetOwner(cache: Cache, ownerId: string): Promise<void> {
  for (const key of await cache.keys()) {
    if (ownerOf(key.url) === ownerId) await cache.delete(key);
  }
}

/** The ticket fields the worker reads. */
interface SavedTicket {
  id: string;
  status: string;
  checkIn: boolean;
}

/** The tickets of a booking that show a QR code: booked, in a room with check-in. */
const withCode = (tickets: SavedTicket[]) =>
  tickets.filter((ticket) => ticket.status === 'BOOKED' && ticket.checkIn);

/** Drops the saved QR codes of the booking's tickets that no longer show one (cancelled, moved). */
async function dropStaleCodes(cache: Cache, ownerId: string, tickets: SavedTicket[]) {
  const shown = new Set(withCode(tickets).map((ticket) => ticket.id));
  for (const key of await cache.keys()) {
    const [, owner, ticketId] = TICKET_READ.exec(new URL(key.url).pathname) ?? [];
    if (owner === ownerId && ticketId && !shown.has(ticketId)) await cache.delete(key);
  }
}

interface Upkeep {
  /** After a success was saved. */
  saved?: (cache: Cache, response: Response) => Promise<unknown>;
  /** When the server answers 404. */
  gone: (cache: Cache) => Promise<unknown>;
}

/** A saved answer, marked as one (SAVED_ANSWER_HEADER) for the page that reads it. */
function markedSaved(saved: Response): Response {
  const headers = new Headers(saved.headers);
  headers.set(SAVED_ANSWER_HEADER, '1');
  return new Response(saved.body, { status: saved.status, statusText: saved.statusText, headers });
}

/**
 * Network first: the server's answer, saved when it is a success; offline (the network fails)
 * the saved answer. Keyed by the address only, so the page's read and an image's read meet.
 */
async function networkFirst(request: Request, cacheName: string, upkeep: Upkeep) {
  const cache = await caches.open(cacheName);
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    const saved = await cache.match(request.url, { ignoreVary: true });
    if (saved) return markedSaved(saved);
    throw error;
  }
  if (response.status === 200) {
    await cache.put(request.url, response.clone());
    await upkeep.saved?.(cache, response.clone());
  } else if (response.status === 404) await upkeep.gone(cache);
  return response;
}

const drop = (url: string) => (cache: Cache) => cache.delete(url);

/** The answer to a read of "my tickets" or of the settings, or null for any other request. */
export function answerOfflineReads(request: Request): Promise<Response> | null {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return null;
  const ticketRead = TICKET_READ.exec(url.pathname);
  if (ticketRead) {
    const [, ownerId = '', ticketId] = ticketRead;
    // A booking gone takes all it saved; a QR code gone (the ticket no longer booked) only itself.
    if (ticketId) return networkFirst(request, TICKETS_CACHE, { gone: drop(request.url) });
    return networkFirst(request, TICKETS_CACHE, {
      saved: async (cache, response) =>
        dropStaleCodes(cache, ownerId, (await response.json()) as SavedTicket[]),
      gone: (cache) => forgetOwner(cache, ownerId),
    });
  }
  if (SETTINGS_READ.test(url.pathname)) {
    return networkFirst(request, SETTINGS_CACHE, { gone: drop(request.url) });
  }
  return null;
}

/** A visitor page showing a booking's tickets: `/reservation-confirmation/{ownerId}`. */
const TICKETS_PAGE = /\/reservation-confirmation\/([^/?#]+)/;

/** Saves a successful read of `url` (a read the page made before the worker controlled it). */
async function save(cache: Cache, url: string): Promise<Response | null> {
  const response = await fetch(url);
  if (response.status !== 200) return null;
  await cache.put(url, response.clone());
  return response;
}

/**
 * The pages open when the worker starts were read before it controlled them: it reads their
 * tickets and QR codes once more and saves them, so a booking opened once, even on the very
 * first visit, shows offline. The API is the default one beside the page (`/api/`).
 */
export async function saveOpenBookings(): Promise<void> {
  const cache = await caches.open(TICKETS_CACHE);
  const api = new URL('api/', self.registration.scope).href;
  for (const client of await self.clients.matchAll({ type: 'window' })) {
    const ownerId = TICKETS_PAGE.exec(new URL(client.url).pathname)?.[1];
    if (!ownerId) continue;
    const list = await save(cache, `${api}owners/${ownerId}/tickets`).catch(() => null);
    const tickets = list ? ((await list.json()) as SavedTicket[]) : [];
    for (const ticket of withCode(tickets)) {
      await save(cache, `${api}owners/${ownerId}/tickets/${ticket.id}/check-in.svg`).catch(
        () => null,
      );
    }
  }
}
