import {
  SITES_STREAM,
  foldStream,
  sitesStream,
  streamAppendOf,
  type AppendRequest,
  type SiteEvent,
  type StoreSession,
} from '@rr/events';
import { evolveSites, initialSites, type SitesState } from '@rr/domain';
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

export function appendToSites(
  sites: { version: number },
  events: readonly SiteEvent[],
): AppendRequest[] {
  return streamAppendOf(sitesStream, SITES_STREAM, sites.version, events);
}
