import * as z from 'zod/mini';
import { rule, optionalPhone, optionalText, requiredEmail, requiredText } from './rules.ts';
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
