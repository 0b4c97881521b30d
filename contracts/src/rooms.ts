import * as z from 'zod/mini';
import { crossRule, intBetween } from './fields.ts';
import { imageFile } from './files.ts';
import { optionalText, requiredText, rule } from './rules.ts';

/** docs/product.md#validation, room. */

export const DAY_TYPES = ['WORKING_DAY', 'DAY'] as const;
export type DayType = (typeof DAY_TYPES)[number];

/** One bound of a booking window: a number of days or working days after today. */
export interface OpenBound {
  type: DayType;
  value: number;
}

/**
 * docs/product.md#booking-window: the window of a room that sets no bound of its own and whose
 * site sets none either: from 2 days until 30 working days after today.
 */
export const DEFAULT_OPEN_START: OpenBound = { type: 'DAY', value: 2 };
export const DEFAULT_OPEN_END: OpenBound = { type: 'WORKING_DAY', value: 30 };

/** The bounds a room or a site sets (each absent or null: set none). */
export interface OwnOpenBounds {
  openStart?: OpenBound | null | undefined;
  openEnd?: OpenBound | null | undefined;
}

/**
 * The booking window's bounds of a room: each the room's own, else its site's, else the
 * product's default (docs/product.md#booking-window). The one place the rule lives: the command
 * side's seat decision, the query side's lists and the answers resolve through it.
 */
export function roomOpenBounds(
  room: OwnOpenBounds,
  site?: OwnOpenBounds | null,
): { openStart: OpenBound; openEnd: OpenBound } {
  return {
    openStart: room.openStart ?? site?.openStart ?? DEFAULT_OPEN_START,
    openEnd: room.openEnd ?? site?.openEnd ?? DEFAULT_OPEN_END,
  };
}

/**
 * The four fields of a booking window as a room or a site sends them, each bound optional: its
 * value (0-365) and its type together, or neither (the bound then comes from the site, or the
 * product's default).
 */
export const openBoundFields = {
  openStartValue: z.optional(z.nullable(intBetween(0, 365))),
  openStartType: z.optional(z.nullable(z.enum(DAY_TYPES))),
  openEndValue: z.optional(z.nullable(intBetween(0, 365))),
  openEndType: z.optional(z.nullable(z.enum(DAY_TYPES))),
};

const given = (v: unknown) => v !== undefined && v !== null && v !== '';
/** A bound's value without its type, or its type without its value: the missing one is required. */
const bothOrNeither = (value: string, type: string) => [
  crossRule('required', type, (v) => !given(v[value]) || given(v[type])),
  crossRule('required', value, (v) => !given(v[type]) || given(v[value])),
];
export const openBoundRules = [
  ...bothOrNeither('openStartValue', 'openStartType'),
  ...bothOrNeither('openEndValue', 'openEndType'),
];

/** The bounds of the four fields as events hold them: a bound set, or left out. */
export function openBoundsOf(b: {
  openStartValue?: number | null | undefined;
  openStartType?: DayType | null | undefined;
  openEndValue?: number | null | undefined;
  openEndType?: DayType | null | undefined;
}): { openStart?: OpenBound; openEnd?: OpenBound } {
  return {
    ...(b.openStartType != null && b.openStartValue != null
      ? { openStart: { type: b.openStartType, value: b.openStartValue } }
      : {}),
    ...(b.openEndType != null && b.openEndValue != null
      ? { openEnd: { type: b.openEndType, value: b.openEndValue } }
      : {}),
  };
}

/**
 * Name 3-50, description 3-100, capacity 0-99999, open start and end values 0-365 (each bound
 * optional: left out, the site's or the product's default applies). `name` and `description`
 * are the German texts; `nameEn` and `descriptionEn` their optional English ones, with the same
 * bounds when given (docs/product.md#translations).
 */
export const RoomInput = z
  .object({
    name: requiredText(50, 3),
    nameEn: optionalText(50, 'single', 3),
    description: requiredText(100, 3, 'multi'),
    descriptionEn: optionalText(100, 'multi', 3),
    capacity: intBetween(0, 99999),
    ...openBoundFields,
    /** The site the room belongs to (docs/product.md#sites); absent: the first site, or where it is. */
    siteId: z.optional(z.uuid()),
  })
  .check(...openBoundRules);

/** The image's alt text: required, 5-150 characters. */
export const RoomImageAlt = requiredText(150, 5);
/** The alt text's optional English translation: 5-150 characters when given. */
export const RoomImageAltEn = optionalText(150, 'single', 5);

/**
 * The image form: the chosen file (required unless the room has an image), its alt text and the
 * alt text's English translation.
 */
export function roomImageInput(imageRequired: boolean) {
  return z.object({ image: imageFile(imageRequired), alt: RoomImageAlt, altEn: RoomImageAltEn });
}

/** The most affiliations a room for members of the university lists. */
export const MAX_AFFILIATIONS = 50;

/**
 * One admitted affiliation: an eduPersonScopedAffiliation (`student@uni-x.de`), an
 * eduPersonAffiliation (`student`), a schacHomeOrganization (`uni-partner.de`) or a group, as the
 * campus identity sends it; trimmed, compared without case.
 */
export const Affiliation = z.pipe(
  z.string().check(z.trim(), z.toLowerCase()),
  z.string().check(z.minLength(1), z.maxLength(200)),
);

/** The most e-mail domains a members-only room lists. */
export const MAX_EMAIL_DOMAINS = 20;
const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** One admitted e-mail domain: trimmed, lower-cased, without a leading `@`; a domain name. */
export const EmailDomain = z.pipe(
  z.pipe(
    z.string().check(z.trim(), z.toLowerCase()),
    z.transform((v: string) => v.replace(/^@/, '')),
  ),
  z.string().check(
    z.minLength(1),
    rule('domain', (v: string) => DOMAIN_NAME.test(v)),
  ),
);

/**
 * The reading-room services of a room, each off while empty (null or absent):
 * - `checkInMinutesBefore`: check-in is used; a booked ticket can be checked in from this many
 *   minutes before its slot's start (0-1440) until its release time (or the slot's end);
 * - `noShowReleaseMinutes`: that many minutes after a slot's start (1-1440), its booked tickets not
 *   checked in are released; needs check-in;
 * - `waitlistOfferMinutes`: a full slot can be waited for; a freed seat is offered to the first in
 *   line and held for them this many minutes (5-1440, never past the slot's start);
 * - `reminderHoursBefore`: a reminder mail this many hours before the slot (1-168);
 * - `allowedEmailDomains`: members only; visitors book and join the waitlist with an address at
 *   one of these domains only (at most 20, each a domain name, compared exactly: a subdomain only
 *   when listed; trimmed, lower-cased, a leading `@` dropped); empty or absent: everyone;
 * - `signInRequired`: members of the university; visitors book and join the waitlist signed in
 *   with the campus identity only (VISITOR_OIDC_*, VISITOR_SAML_*);
 * - `allowedAffiliations`: and with one of these affiliations only (at most 50; implies sign-in);
 * - `confirmBookingMinutes`: confirmed addresses; a visitor's booking takes its seats but awaits
 *   the link of its confirmation mail this many minutes (5-10080, never past the slot's start),
 *   else its tickets are released.
 */
export const RoomServicesInput = z
  .object({
    checkInMinutesBefore: z.optional(z.nullable(intBetween(0, 1440))),
    noShowReleaseMinutes: z.optional(z.nullable(intBetween(1, 1440))),
    waitlistOfferMinutes: z.optional(z.nullable(intBetween(5, 1440))),
    reminderHoursBefore: z.optional(z.nullable(intBetween(1, 168))),
    allowedEmailDomains: z.optional(
      z.nullable(z.array(EmailDomain).check(z.maxLength(MAX_EMAIL_DOMAINS))),
    ),
    confirmBookingMinutes: z.optional(z.nullable(intBetween(5, 10080))),
    signInRequired: z.optional(z.nullable(z.boolean())),
    allowedAffiliations: z.optional(
      z.nullable(z.array(Affiliation).check(z.maxLength(MAX_AFFILIATIONS))),
    ),
  })
  .check(
    crossRule(
      'required',
      'checkInMinutesBefore',
      (v) => v.noShowReleaseMinutes == null || v.checkInMinutesBefore != null,
    ),
  );

/** The services of a room, each null while off (see RoomServicesInput). */
export interface RoomServices {
  checkInMinutesBefore: number | null;
  noShowReleaseMinutes: number | null;
  waitlistOfferMinutes: number | null;
  reminderHoursBefore: number | null;
  /** Members only: the admitted e-mail domains; absent or empty: everyone. */
  allowedEmailDomains?: string[] | undefined;
  /** Confirmed addresses: minutes a booking awaits its confirmation; absent: off. */
  confirmBookingMinutes?: number | undefined;
  /** Members of the university: signed-in visitors only; absent: everyone. */
  signInRequired?: boolean | undefined;
  /** Members of the university: the admitted affiliations; absent or empty: any. */
  allowedAffiliations?: string[] | undefined;
}

/**
 * The rule of a room for members of the university with its site's (docs/product.md#sites): what
 * the seat decision and the visitor calendar apply. The room requires sign-in when it or its site
 * does (a named affiliation implies sign-in); the affiliations are the room's own list when it
 * names any, else the site's (the room narrows its site's rule; empty: any signed-in visitor).
 */
export interface MembersRule {
  signInRequired?: boolean | undefined;
  allowedAffiliations?: string[] | undefined;
}

export function membersRuleOf(
  room: MembersRule,
  site: MembersRule | null | undefined,
): MembersRule {
  const affiliations = room.allowedAffiliations?.length
    ? room.allowedAffiliations
    : (site?.allowedAffiliations ?? []);
  const signIn =
    room.signInRequired === true || site?.signInRequired === true || affiliations.length > 0;
  return {
    ...(signIn ? { signInRequired: true } : {}),
    ...(affiliations.length ? { allowedAffiliations: [...affiliations] } : {}),
  };
}

/** A room's services with its site's rule for members of the university (membersRuleOf). */
export function withSiteMembersRule<S extends MembersRule>(
  services: S,
  site: MembersRule | null | undefined,
): Omit<S, keyof MembersRule> & MembersRule {
  const { signInRequired: _signIn, allowedAffiliations: _affiliations, ...rest } = services;
  return { ...rest, ...membersRuleOf(services, site) };
}

export const NO_ROOM_SERVICES: RoomServices = {
  checkInMinutesBefore: null,
  noShowReleaseMinutes: null,
  waitlistOfferMinutes: null,
  reminderHoursBefore: null,
};

/** The default offer time of a waitlist, in minutes (30). */
export const DEFAULT_WAITLIST_OFFER_MINUTES = 30;
/** The default time of a reminder before its slot, in hours (24). */
export const DEFAULT_REMINDER_HOURS = 24;
