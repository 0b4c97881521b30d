import * as z from 'zod/mini';
import { rule, optionalPhone, optionalText, requiredEmail, requiredText } from './rules.ts';
import { endAfterStart, isoDate, time } from './fields.ts';
import {
  HOURS_DAYS,
  rangesApart,
  type HoursDay,
  type HoursRange,
  type SiteHours,
} from './site-hours.ts';

export * from './site-hours.ts';
import { Affiliation, MAX_AFFILIATIONS, openBoundFields, openBoundRules } from './rooms.ts';

/**
 * docs/product.md#sites: a site of the library (the main library, a branch, a faculty reading
 * room) with the rooms that belong to it.
 */

/**
 * The site every installation has from its start: the rooms of an installation made before
 * sites belong to it, and a room created without a site joins it. It exists without being
 * created (its name is the library's, LIBRARY_NAME, until staff change it) and is never deleted.
 */
export const FIRST_SITE_ID = '00000000-0000-4000-8000-000000000001';
/** The first site's short name in addresses (`/s/bibliothek/`) until staff change it. */
export const FIRST_SITE_SLUG = 'bibliothek';

/** A short name for addresses: 2-40 lower-case letters and digits, single hyphens between them. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SiteSlug = z.pipe(
  z.string().check(z.trim(), z.toLowerCase()),
  z.string().check(
    z.minLength(2),
    z.maxLength(40),
    rule('slug', (v: string) => SLUG_PATTERN.test(v)),
  ),
);

/**
 * A site's details: name 3-100 (with an optional English one), slug, the contact address
 * visitors write to, and optionally its postal address (multi-line, at most 300), phone and the
 * signature its mails close with (multi-line, at most 500). A site for members of the university
 * requires sign-in with the campus identity (`signInRequired`) and may admit some affiliations
 * only (`allowedAffiliations`, at most 50; implies sign-in), as a room does (RoomServicesInput):
 * its rooms require what it requires, and a room's own list narrows it (membersRuleOf). A site
 * may set the booking window of its rooms that set none (`openStart…`, `openEnd…`, each bound
 * optional, as a room's: roomOpenBounds).
 */
export const SiteInput = z
  .object({
    name: requiredText(100, 3),
    nameEn: optionalText(100, 'single', 3),
    slug: SiteSlug,
    contactEmail: requiredEmail(),
    address: optionalText(300, 'multi'),
    phone: optionalPhone(40),
    mailSignature: optionalText(500, 'multi'),
    signInRequired: z.optional(z.nullable(z.boolean())),
    allowedAffiliations: z.optional(
      z.nullable(z.array(Affiliation).check(z.maxLength(MAX_AFFILIATIONS))),
    ),
    ...openBoundFields,
  })
  .check(...openBoundRules);

/* ---- Opening hours (docs/product.md#sites): per weekday, with exceptions by date ---- */

/** At most this many opening ranges a day (a morning and an afternoon, with room to spare). */
export const MAX_HOURS_RANGES = 4;
/** At most this many dates with other hours (a year's worth, one a day). */
export const MAX_HOURS_EXCEPTIONS = 366;
/** An exception's note (and its English text): one line. */
export const MAX_HOURS_NOTE = 200;

/** One opening range of a day, `HH:mm` to `HH:mm`, its end after its start ('time-after'). */
export const HoursRangeInput = z
  .object({ start: time(), end: time() })
  .check(endAfterStart('start', 'end'));

/** A day's opening ranges: none (closed), at most MAX_HOURS_RANGES, apart from each other. */
export const DayHours = z.array(HoursRangeInput).check(
  rule<HoursRange[]>('hours-ranges', (r) => r.length <= MAX_HOURS_RANGES, {
    max: MAX_HOURS_RANGES,
  }),
  rule<HoursRange[]>('hours-overlap', rangesApart),
);

/** A date with other hours than its weekday's: none (closed) or its own ranges, and a note. */
export const HoursException = z.object({
  date: isoDate(),
  ranges: DayHours,
  note: optionalText(MAX_HOURS_NOTE),
  noteEn: optionalText(MAX_HOURS_NOTE),
});

/**
 * A site's opening hours: each weekday's ranges (a day left out is closed) and the dates with
 * other hours, each date once, at most MAX_HOURS_EXCEPTIONS.
 */
export const SiteHoursInput = z.object({
  weekly: z.object(
    Object.fromEntries(HOURS_DAYS.map((day) => [day, z.optional(DayHours)])) as Record<
      HoursDay,
      z.ZodMiniOptional<typeof DayHours>
    >,
  ),
  exceptions: z.array(HoursException).check(
    rule<{ date: string }[]>('hours-exceptions', (e) => e.length <= MAX_HOURS_EXCEPTIONS, {
      max: MAX_HOURS_EXCEPTIONS,
    }),
    rule<{ date: string }[]>('unique', (e) => new Set(e.map((x) => x.date)).size === e.length),
  ),
});

const byStart = (a: HoursRange, b: HoursRange) => (a.start < b.start ? -1 : 1);

/**
 * The hours of a checked request as they are kept: every weekday (a day left out has none), the
 * ranges in time order, the exceptions by date, an empty note left out.
 */
export function siteHoursOf(input: z.output<typeof SiteHoursInput>): SiteHours {
  const ranges = (list: readonly HoursRange[]) =>
    list.map(({ start, end }) => ({ start, end })).sort(byStart);
  const weekly = Object.fromEntries(
    HOURS_DAYS.map((day) => [day, ranges(input.weekly[day] ?? [])]),
  ) as Record<HoursDay, HoursRange[]>;
  const exceptions = [...input.exceptions]
    .sort((a, b) => (a.date < b.date ? -1 : 1))
    .map((e) => ({
      date: e.date,
      ranges: ranges(e.ranges),
      ...(e.note ? { note: e.note } : {}),
      ...(e.noteEn ? { noteEn: e.noteEn } : {}),
    }));
  return { weekly, exceptions };
}

/* ---- Logo (docs/product.md#sites): PNG, JPEG or WebP by its content, at most 512 KiB ---- */

export const MAX_LOGO_BYTES = 512 * 1024;
/** The logo's types, checked by the content's magic bytes (no SVG: its scripts are a risk). */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
/** Value of the file input's accept attribute. */
export const LOGO_ACCEPT = LOGO_TYPES.join(',');
