import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FIRST_SITE_ID, NO_HOURS } from '@rr/contracts/sites';
import type { SiteEvent } from '@rr/events/catalogue';
import { Refused } from '../refusal.ts';
import {
  decideSites,
  evolveSites,
  initialSites,
  type SiteCommand,
  type SitesState,
} from './site.ts';

const start = initialSites({ name: '', slug: 'bibliothek', contactEmail: '' });
const id = (n: number) => `00000000-0000-4000-8000-${String(n + 100).padStart(12, '0')}`;
const site = (n: number, slug: string) => ({
  siteId: id(n),
  name: `Site ${n}`,
  slug,
  contactEmail: `s${n}@library.example`,
});

function run(state: SitesState, command: SiteCommand, roomsOfSite = 0): SitesState {
  return decideSites(command, { sites: state, roomsOfSite }, null).reduce(evolveSites, state);
}

function refusal(state: SitesState, command: SiteCommand, roomsOfSite = 0): string {
  try {
    decideSites(command, { sites: state, roomsOfSite }, null);
  } catch (e) {
    if (e instanceof Refused) return e.code;
    throw e;
  }
  return 'decided';
}

describe('the sites', () => {
  it('start with the first site at version 0, which can be renamed but not deleted', () => {
    expect(start.sites.get(FIRST_SITE_ID)?.version).toBe(0);
    const renamed = run(start, {
      type: 'UpdateSite',
      data: { ...site(0, 'haupt'), siteId: FIRST_SITE_ID, expectedVersion: 0 },
    });
    expect(renamed.sites.get(FIRST_SITE_ID)).toMatchObject({ slug: 'haupt', version: 1 });
    expect(refusal(renamed, { type: 'DeleteSite', data: { siteId: FIRST_SITE_ID } })).toBe(
      'site__first_site',
    );
  });

  it('refuse a taken slug, a stale version, an unknown site, and a deletion while rooms belong to it', () => {
    const two = run(start, { type: 'CreateSite', data: site(1, 'jura') });
    expect(refusal(two, { type: 'CreateSite', data: site(2, 'jura') })).toBe('site__slug_taken');
    expect(refusal(two, { type: 'CreateSite', data: site(2, 'bibliothek') })).toBe(
      'site__slug_taken',
    );
    expect(refusal(two, { type: 'CreateSite', data: site(1, 'other') })).toBe(
      'site__already_exists',
    );
    expect(
      refusal(two, { type: 'UpdateSite', data: { ...site(1, 'jura'), expectedVersion: 2 } }),
    ).toBe('concurrency__version_conflict');
    expect(
      refusal(two, { type: 'UpdateSite', data: { ...site(9, 'x9'), expectedVersion: 0 } }),
    ).toBe('not_found');
    expect(refusal(two, { type: 'DeleteSite', data: { siteId: id(1) } }, 3)).toBe(
      'site__has_rooms',
    );
    const none = run(two, { type: 'DeleteSite', data: { siteId: id(1) } });
    expect(none.sites.has(id(1))).toBe(false);
    // The slug is free again.
    expect(run(none, { type: 'CreateSite', data: site(2, 'jura') }).sites.get(id(2))?.slug).toBe(
      'jura',
    );
  });

  it('never let two sites hold one slug, whatever staff do', () => {
    const command = fc.oneof(
      fc
        .record({
          n: fc.integer({ min: 0, max: 5 }),
          slug: fc.constantFrom('a1', 'b2', 'c3', 'bibliothek'),
        })
        .map(({ n, slug }): SiteCommand => ({ type: 'CreateSite', data: site(n, slug) })),
      fc
        .record({
          n: fc.integer({ min: -1, max: 5 }),
          slug: fc.constantFrom('a1', 'b2', 'c3', 'bibliothek'),
          version: fc.integer({ min: 0, max: 3 }),
        })
        .map(({ n, slug, version }): SiteCommand => ({
          type: 'UpdateSite',
          data: {
            ...site(n, slug),
            ...(n < 0 ? { siteId: FIRST_SITE_ID } : {}),
            expectedVersion: version,
          },
        })),
      fc.integer({ min: -1, max: 5 }).map((n): SiteCommand => ({
        type: 'DeleteSite',
        data: { siteId: n < 0 ? FIRST_SITE_ID : id(n) },
      })),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30 }), (commands) => {
        let state = start;
        for (const c of commands) {
          try {
            const events: SiteEvent[] = decideSites(c, { sites: state, roomsOfSite: 0 }, null);
            state = events.reduce(evolveSites, state);
          } catch (e) {
            if (!(e instanceof Refused)) throw e;
          }
          const slugs = [...state.sites.values()].map((s) => s.slug);
          expect(new Set(slugs).size).toBe(slugs.length);
          expect(state.sites.has(FIRST_SITE_ID)).toBe(true);
        }
      }),
    );
  });
});

describe('a site’s hours and logo', () => {
  const hours = {
    ...NO_HOURS,
    weekly: { ...NO_HOURS.weekly, mon: [{ start: '08:00', end: '18:00' }] },
  };
  const logo = (n: number) => ({
    siteId: id(1),
    logoId: id(50 + n),
    contentType: 'image/png' as const,
    size: 100,
    sha256: 'a'.repeat(64),
  });

  it('are set on a site that exists, without changing the version its details’ update names', () => {
    const one = run(start, { type: 'CreateSite', data: site(1, 'jura') });
    const set = run(one, { type: 'SetSiteHours', data: { siteId: id(1), ...hours } });
    expect(set.sites.get(id(1))?.version).toBe(1);
    const withLogo = run(set, { type: 'SetSiteLogo', data: logo(1) });
    expect(withLogo.sites.get(id(1))).toMatchObject({ version: 1, logoId: id(51) });
    // An update of the details keeps the logo.
    const updated = run(withLogo, {
      type: 'UpdateSite',
      data: { ...site(1, 'jura-neu'), expectedVersion: 1 },
    });
    expect(updated.sites.get(id(1))).toMatchObject({ version: 2, logoId: id(51) });
    const removed = run(updated, { type: 'RemoveSiteLogo', data: { siteId: id(1) } });
    expect(removed.sites.get(id(1))?.logoId).toBeUndefined();
    // Removing no logo decides nothing.
    expect(
      decideSites(
        { type: 'RemoveSiteLogo', data: { siteId: id(1) } },
        { sites: removed, roomsOfSite: 0 },
        null,
      ),
    ).toEqual([]);
    // The first site has them before its details ever changed.
    const first = run(start, { type: 'SetSiteHours', data: { siteId: FIRST_SITE_ID, ...hours } });
    expect(first.sites.get(FIRST_SITE_ID)?.version).toBe(0);
  });

  it('of a site that does not exist are refused', () => {
    expect(refusal(start, { type: 'SetSiteHours', data: { siteId: id(9), ...hours } })).toBe(
      'not_found',
    );
    expect(refusal(start, { type: 'SetSiteLogo', data: { ...logo(1), siteId: id(9) } })).toBe(
      'not_found',
    );
    expect(refusal(start, { type: 'RemoveSiteLogo', data: { siteId: id(9) } })).toBe('not_found');
  });
});
