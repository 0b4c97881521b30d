import { membersRuleOf, type MembersRule, type OpenBound } from '@rr/contracts';
import { handlersFor, ignore, sitesStream, type NewEvent, type SiteEvent } from '@rr/events';
import { inlineProjection, type InlineFold, type InlineTransaction } from './define.ts';

/** What the seat decision's loaders give a site's rooms: its members rule and booking window. */
interface SiteForRooms {
  members: MembersRule;
  openStart: OpenBound | undefined;
  openEnd: OpenBound | undefined;
}

interface SiteFold extends InlineFold {
  /** Each site the command changed, by id (null: deleted). */
  sites: Map<string, SiteForRooms | null>;
}

type DetailsEvent = Extract<SiteEvent, { type: 'SiteCreated' | 'SiteUpdated' | 'SiteDeleted' }>;

const details = (e: DetailsEvent, f: SiteFold) => {
  if (e.type === 'SiteDeleted') f.sites.set(e.data.siteId, null);
  else
    f.sites.set(e.data.siteId, {
      members: membersRuleOf({}, e.data),
      openStart: e.data.openStart,
      openEnd: e.data.openEnd,
    });
};

/**
 * `site_state`: each site's rule for members of the university and its booking window
 * (docs/product.md#sites), which the seat decision's loaders (write-state.ts) give the site's
 * rooms with their own.
 */
export const siteStateProjection = inlineProjection({
  table: 'site_state',
  handlers: handlersFor(sitesStream).with<SiteFold, void, NewEvent>({
    SiteCreated: details,
    SiteUpdated: details,
    SiteDeleted: details,
    // The hours and the logo decide on no seat.
    SiteHoursSet: ignore,
    SiteLogoSet: ignore,
    SiteLogoRemoved: ignore,
  }),
  start: (): SiteFold => ({ streamId: '', sites: new Map() }),
  write: (tx, f) => recordSites(tx, f.sites),
});

async function recordSites(
  tx: InlineTransaction,
  sites: ReadonlyMap<string, SiteForRooms | null>,
): Promise<void> {
  for (const [siteId, site] of sites) {
    const rule = site?.members;
    const members = rule && (rule.signInRequired || rule.allowedAffiliations?.length) ? rule : null;
    if (site === null || (!members && !site.openStart && !site.openEnd))
      await tx.send('DELETE FROM site_state WHERE site_id = $1', [siteId]);
    else
      await tx.send(
        `INSERT INTO site_state (site_id, members, open_start, open_end) VALUES ($1, $2, $3, $4)
         ON CONFLICT (site_id) DO UPDATE SET members = excluded.members,
           open_start = excluded.open_start, open_end = excluded.open_end`,
        [siteId, members, site.openStart ?? null, site.openEnd ?? null],
      );
  }
}
