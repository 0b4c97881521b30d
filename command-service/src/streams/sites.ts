import {
  SITES_STREAM,
  foldStream,
  sitesStream,
  streamAppendOf,
  type AppendRequest,
  type EventStore,
  type SiteEvent,
  type StoreSession,
} from '@rr/events';
import { evolveSites, initialSites, siteExists, type SitesState } from '@rr/domain';
import { FIRST_SITE_SLUG } from '@rr/contracts/sites';

/** The sites stream (one for all sites): its one loader and its one append. */

/** The command-side files whose decisions append to the sites stream. */
export const writers = ['sites/stream.ts'] as const;

/**
 * The first site as the decisions know it before staff change it: only its slug is decided on
 * (no other site may take it); its name and address are the library's, which the read side shows.
 */
const FIRST_SITE = { name: '', slug: FIRST_SITE_SLUG, contactEmail: '' };

/**
 * Locks the sites stream and folds it: a site's decisions and a room's choice of a site queue
 * on the lock, so no room joins a site while it is deleted.
 */
export async function lockAndLoadSites(s: StoreSession): Promise<SitesState> {
  await s.lockStream(SITES_STREAM);
  const { events } = await s.readStream(SITES_STREAM);
  return foldStream(events, evolveSites, initialSites(FIRST_SITE));
}

/**
 * Which of the ids name a site now, by the same fold without the lock (a check no decision rests
 * on, e.g. a webhook's sites): the first site always, another from its creation until its
 * deletion; a site just created is found at once.
 */
export async function existingSiteIds(
  store: EventStore,
  ids: readonly string[],
): Promise<ReadonlySet<string>> {
  const { events } = await store.readStream(SITES_STREAM);
  const sites = foldStream(events, evolveSites, initialSites(FIRST_SITE));
  return new Set(ids.map((id) => id.toLowerCase()).filter((id) => siteExists(sites, id)));
}

export function appendToSites(
  sites: { version: number },
  events: readonly SiteEvent[],
): AppendRequest[] {
  return streamAppendOf(sitesStream, SITES_STREAM, sites.version, events);
}
