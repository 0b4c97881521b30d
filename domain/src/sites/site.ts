import {
  SiteCreated,
  SiteDeleted,
  SiteHoursSet,
  SiteLogoRemoved,
  SiteLogoSet,
  SiteUpdated,
  type SiteDetails,
  type SiteEvent,
} from '@rr/events/catalogue';
import type { SiteHours } from '@rr/contracts/sites';
import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { type Decide, unhandled } from '../decider.ts';
import { refuse, Refused } from '../refusal.ts';

/**
 * The library's sites (docs/product.md#sites), decided on all at once: a slug names one site
 * only. The first site exists from the start (with the library's name until staff change it)
 * and stays: the rooms of an installation made before sites belong to it.
 */

export interface SiteState extends SiteDetails {
  /** The site's details' events so far (0: the first site, never changed). */
  version: number;
  /** The site's logo (its bytes' id), when it has one. */
  logoId?: string;
}

export interface SitesState {
  /** The stream's version. */
  version: number;
  sites: ReadonlyMap<string, SiteState>;
}

/** The sites before any event: the first site, with the details the installation gives it. */
export function initialSites(firstSite: Omit<SiteDetails, 'siteId'>): SitesState {
  const first = { ...firstSite, siteId: FIRST_SITE_ID, version: 0 };
  return { version: 0, sites: new Map([[FIRST_SITE_ID, first]]) };
}

export function evolveSites(state: SitesState, event: SiteEvent): SitesState {
  const sites = new Map(state.sites);
  const id = event.data.siteId;
  const site = state.sites.get(id);
  switch (event.type) {
    case 'SiteCreated':
    case 'SiteUpdated': {
      // The details are the event's; the logo is no part of them and stays.
      const logo = site?.logoId ? { logoId: site.logoId } : {};
      sites.set(id, { ...event.data, ...logo, version: (site?.version ?? 0) + 1 });
      break;
    }
    case 'SiteDeleted':
      sites.delete(id);
      break;
    // The hours and the logo leave the details' version as it is: a form's update of the
    // details is not refused because someone changed the hours meanwhile.
    case 'SiteHoursSet':
      break;
    case 'SiteLogoSet':
      if (site) sites.set(id, { ...site, logoId: event.data.logoId });
      break;
    case 'SiteLogoRemoved':
      if (site) {
        const { logoId: _removed, ...rest } = site;
        sites.set(id, rest);
      }
      break;
  }
  return { version: state.version + 1, sites };
}

export type SiteCommand =
  | { type: 'CreateSite'; data: SiteDetails }
  | { type: 'UpdateSite'; data: SiteDetails & { expectedVersion: number } }
  | { type: 'DeleteSite'; data: { siteId: string } }
  /** The hours as siteHoursOf keeps them (checked with SiteHoursInput at the edge). */
  | { type: 'SetSiteHours'; data: SiteHours & { siteId: string } }
  | {
      type: 'SetSiteLogo';
      data: {
        siteId: string;
        logoId: string;
        contentType: 'image/png' | 'image/jpeg' | 'image/webp';
        size: number;
        sha256: string;
      };
    }
  | { type: 'RemoveSiteLogo'; data: { siteId: string } };

/** What a site command decides on: every site, and for a deletion the site's rooms. */
export interface SiteCommandState {
  sites: SitesState;
  /** The rooms of the site a deletion names (0 for other commands). */
  roomsOfSite: number;
}

function slugTaken(sites: SitesState, slug: string, except: string | null): boolean {
  return [...sites.sites.values()].some((s) => s.slug === slug && s.siteId !== except);
}

const slugRefusal = () => new Refused('site__slug_taken', 'Another site has this slug');

export const decideSites: Decide<SiteCommand, SiteCommandState, unknown, SiteEvent[]> = (
  command,
  { sites, roomsOfSite },
) => {
  switch (command.type) {
    case 'CreateSite':
      if (sites.sites.has(command.data.siteId))
        throw new Refused('site__already_exists', 'The site exists already');
      if (slugTaken(sites, command.data.slug, null)) throw slugRefusal();
      return [SiteCreated.create(command.data)];
    case 'UpdateSite': {
      const { expectedVersion, ...details } = command.data;
      const site = sites.sites.get(details.siteId);
      if (!site) throw refuse.notFound('Site');
      if (expectedVersion !== site.version) throw refuse.versionConflict();
      if (slugTaken(sites, details.slug, details.siteId)) throw slugRefusal();
      return [SiteUpdated.create(details)];
    }
    case 'DeleteSite': {
      if (!sites.sites.has(command.data.siteId)) throw refuse.notFound('Site');
      if (command.data.siteId === FIRST_SITE_ID)
        throw new Refused('site__first_site', 'The first site stays: rename it instead');
      if (roomsOfSite > 0)
        throw new Refused('site__has_rooms', 'The site still has rooms: move or delete them first');
      return [SiteDeleted.create(command.data)];
    }
    case 'SetSiteHours':
      if (!sites.sites.has(command.data.siteId)) throw refuse.notFound('Site');
      return [SiteHoursSet.create(command.data)];
    case 'SetSiteLogo':
      if (!sites.sites.has(command.data.siteId)) throw refuse.notFound('Site');
      return [SiteLogoSet.create(command.data)];
    case 'RemoveSiteLogo': {
      const site = sites.sites.get(command.data.siteId);
      if (!site) throw refuse.notFound('Site');
      // Nothing to remove: nothing happens (a second click, another staff member first).
      return site.logoId ? [SiteLogoRemoved.create(command.data)] : [];
    }
    default:
      return unhandled(command);
  }
};

/** Whether a room may belong to this site: it exists. */
export function siteExists(sites: SitesState, siteId: string): boolean {
  return sites.sites.has(siteId);
}
