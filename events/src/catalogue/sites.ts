import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { id } from './fields.ts';
import { OpenBound } from './room.ts';

/**
 * The library's sites (its main library and its branches) in one stream for all of them: a
 * site's slug is unique among them, so each decision on a site reads them all. The first site
 * (FIRST_SITE_ID) exists without an event; its first event is an update.
 */

const optional = z.string().min(1).optional();

const SiteDetails = z.object({
  siteId: id,
  name: z.string().min(1),
  /** The English name; absent while staff leave it empty: the name serves both languages. */
  nameEn: optional,
  slug: z.string().min(1),
  contactEmail: z.string().min(1),
  address: optional,
  phone: optional,
  mailSignature: optional,
  /** Members of the university: its rooms admit signed-in visitors only (absent: everyone). */
  signInRequired: z.boolean().optional(),
  /** And with one of these affiliations only, unless a room names its own (absent: any). */
  allowedAffiliations: z.array(z.string()).optional(),
  /** The booking window of its rooms that set none of their own (absent: the product's default). */
  openStart: OpenBound.optional(),
  openEnd: OpenBound.optional(),
});
export type SiteDetails = z.infer<typeof SiteDetails>;

export const SiteCreated = defineEvent('SiteCreated', SiteDetails);
export const SiteUpdated = defineEvent('SiteUpdated', SiteDetails);
export const SiteDeleted = defineEvent('SiteDeleted', z.object({ siteId: id }));

const time = z.string().regex(/^\d{2}:\d{2}$/);
const ranges = z.array(z.object({ start: time, end: time }));

/**
 * A site's opening hours, all of them at once: each weekday's ranges (none: closed) and the dates
 * with other hours (none: closed that day), with an optional note. They are no part of the site's
 * details: its version (what an update of the details names) stays.
 */
export const SiteHoursSet = defineEvent(
  'SiteHoursSet',
  z.object({
    siteId: id,
    weekly: z.object({
      mon: ranges,
      tue: ranges,
      wed: ranges,
      thu: ranges,
      fri: ranges,
      sat: ranges,
      sun: ranges,
    }),
    exceptions: z.array(
      z.object({
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        ranges,
        note: optional,
        noteEn: optional,
      }),
    ),
  }),
);
export type SiteHoursSet = z.infer<typeof SiteHoursSet.schema>;

/**
 * A site's logo set (or replaced): its bytes live beside the log (`site_logos`, by `logoId`), as
 * a room image's do; the event names them and their SHA-256, which the answers send as its ETag.
 */
export const SiteLogoSet = defineEvent(
  'SiteLogoSet',
  z.object({
    siteId: id,
    logoId: id,
    contentType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
    size: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
);
export const SiteLogoRemoved = defineEvent('SiteLogoRemoved', z.object({ siteId: id }));

export const sitesStream = defineStream('sites', [
  SiteCreated,
  SiteUpdated,
  SiteDeleted,
  SiteHoursSet,
  SiteLogoSet,
  SiteLogoRemoved,
]);

export type SiteEvent = EventOf<typeof sitesStream>;

export const SITES_STREAM = sitesStream.kind;
