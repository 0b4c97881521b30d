import type { Actor, SiteEvent, StoreSession } from '@rr/events';
import { decideSites, evolveSites, type SiteCommand, type SiteCommandState } from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { appendToSites, lockAndLoadSites } from '../streams/sites.ts';

/**
 * The sites stream's commands: every site is read under the stream's lock (a slug names one
 * site), and a deletion counts the site's rooms in the write side's room_state, which room
 * commands move under the same lock when a room changes its site.
 */
async function loadSiteCommand(s: StoreSession, command: SiteCommand): Promise<SiteCommandState> {
  const sites = await lockAndLoadSites(s);
  if (command.type !== 'DeleteSite') return { sites, roomsOfSite: 0 };
  const r = await s.client.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM room_state WHERE site_id = $1',
    [command.data.siteId],
  );
  return { sites, roomsOfSite: r.rows[0]?.n ?? 0 };
}

/**
 * Runs a site command; answers the site's id, its version after it and the position. A logo's
 * bytes come with its command and are kept beside the log (`site_logos`) as its events say.
 */
export async function runSiteCommand(
  deps: CommandDeps,
  actor: Actor,
  command: SiteCommand,
  logo?: Buffer,
) {
  const siteId = command.data.siteId;
  const { answer, position } = await handleCommand(deps.store, {
    actor,
    load: (s) => loadSiteCommand(s, command),
    decide: (state) => decideSites(command, state, null),
    appends: (events, state) => appendToSites(state.sites, events),
    record: (s, events) => recordLogos(s, events, logo),
    answer: (events, state) =>
      events.reduce(evolveSites, state.sites).sites.get(siteId)?.version ?? 0,
  });
  return { id: siteId, version: answer, position };
}

/**
 * The logos' bytes beside the log, one per site: a set logo replaces the site's bytes, a removed
 * one (or a deleted site) deletes them.
 */
async function recordLogos(
  s: StoreSession,
  events: readonly SiteEvent[],
  logo: Buffer | undefined,
): Promise<void> {
  for (const e of events) {
    if (e.type !== 'SiteLogoSet' && e.type !== 'SiteLogoRemoved' && e.type !== 'SiteDeleted')
      continue;
    await s.client.query('DELETE FROM site_logos WHERE site_id = $1', [e.data.siteId]);
    if (e.type === 'SiteLogoSet' && logo)
      await s.client.query(
        `INSERT INTO site_logos (logo_id, site_id, content_type, sha256, bytes)
         VALUES ($1, $2, $3, $4, $5)`,
        [e.data.logoId, e.data.siteId, e.data.contentType, e.data.sha256, logo],
      );
  }
}
