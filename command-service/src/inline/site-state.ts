import { membersRuleOf, type MembersRule } from '@rr/contracts';
import { handlersFor, ignore, sitesStream, type NewEvent, type SiteEvent } from '@rr/events';
import { inlineProjection, type InlineFold, type InlineTransaction } from './define.ts';

interface SiteFold extends InlineFold {
  /** The rule of each site the command changed, by id (null: deleted). */
  sites: Map<string, MembersRule | null>;
}

type DetailsEvent = Extract<SiteEvent, { type: 'SiteCreated' | 'SiteUpdated' | 'SiteDeleted' }>;

const details = (e: DetailsEvent, f: SiteFold) => {
  if (e.type === 'SiteDeleted') f.sites.set(e.data.siteId, null);
  else f.sites.set(e.data.siteId, membersRuleOf({}, e.data));
};

/**
 * `site_state`: each site's rule for members of the university (docs/product.md#sites), which the
 * seat decision's loaders (write-state.ts) give the site's rooms with their own rule.
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
  sites: ReadonlyMap<string, MembersRule | null>,
): Promise<void> {
  for (const [siteId, rule] of sites) {
    if (rule === null || (!rule.signInRequired && !rule.allowedAffiliations?.length))
      await tx.send('DELETE FROM site_state WHERE site_id = $1', [siteId]);
    else
      await tx.send(
        `INSERT INTO site_state (site_id, members) VALUES ($1, $2)
         ON CONFLICT (site_id) DO UPDATE SET members = excluded.members`,
        [siteId, rule],
      );
  }
}
