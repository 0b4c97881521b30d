import * as z from 'zod/mini';
import { isOutboundUrl } from './outbound-url.ts';
import { optionalString, rule } from './rules.ts';

/**
 * The event types a webhook endpoint can subscribe to (docs/product.md#integrations). Their payloads
 * carry ids, the room, the date, times and seat counts, never a visitor's personal data.
 */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.cancelled',
  'booking.moved',
  'ticket.checked_in',
  'ticket.no_show',
  'ticket.seat_changed',
  'waitlist.offered',
  'timeslot.created',
  'timeslot.changed',
  'timeslot.deleted',
  'room.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What the secret of every webhook endpoint starts with (the Standard Webhooks convention). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The longest endpoint URL accepted. */
export const WEBHOOK_URL_MAX = 2000;

const eventTypes = () =>
  z.array(z.enum(WEBHOOK_EVENT_TYPES)).check(
    rule<WebhookEventType[]>('required', (v) => v.length > 0),
    rule<WebhookEventType[]>('invalid', (v) => new Set(v).size === v.length),
  );

const url = () =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(WEBHOOK_URL_MAX),
      rule<string>('invalid', isOutboundUrl),
    );

/** The most sites one endpoint names. */
export const WEBHOOK_SITES_MAX = 100;

/**
 * The sites whose rooms' events an endpoint gets (docs/product.md#integrations), each once;
 * absent or empty: every site. A site no site has is refused where it is stored.
 */
const siteIds = () =>
  z.optional(
    z.array(z.uuid()).check(
      z.maxLength(WEBHOOK_SITES_MAX),
      rule<string[]>('unique', (v) => new Set(v).size === v.length),
    ),
  );

/**
 * A new webhook endpoint: its URL, the event types it gets (at least one, each once), a note, and
 * the sites it is limited to (none: all).
 */
export const webhookInput = z.object({
  url: url(),
  eventTypes: eventTypes(),
  description: optionalString(200, 'multi'),
  siteIds: siteIds(),
});

/**
 * A change of an endpoint: URL, event types, note and sites as when made (sites absent: all); `enabled: true` switches a
 * disabled endpoint on again (its failures start afresh), `false` pauses it.
 */
export const webhookUpdateInput = z.object({
  url: url(),
  eventTypes: eventTypes(),
  description: optionalString(200, 'multi'),
  siteIds: siteIds(),
  enabled: z.boolean(),
});
