import * as z from 'zod/mini';
import { isOutboundUrl } from './outbound-url.ts';
import { rule } from './rules.ts';

/**
 * Reminders as web push notifications (docs/product.md#reminders): the subscription a visitor's
 * browser makes (the W3C PushSubscription as JSON) and its limits. Which endpoints the server
 * then sends to (https, no internal address) is its configuration's, checked by the server alone.
 */

/** The most devices (subscriptions) one booking's owner may have at once. */
export const PUSH_SUBSCRIPTIONS_PER_OWNER = 5;
/** The longest endpoint URL accepted (push services' are a few hundred characters). */
export const PUSH_ENDPOINT_MAX = 1000;
/** The decoded sizes of the keys (RFC 8291): an uncompressed P-256 point and the auth secret. */
export const PUSH_P256DH_BYTES = 65;
export const PUSH_AUTH_BYTES = 16;

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/** The bytes a base64url text (padding allowed) decodes to; null when it is no such text. */
export function base64UrlBytes(value: string): number | null {
  if (!BASE64URL.test(value)) return null;
  const bare = value.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  return Math.floor((bare.length * 3) / 4);
}

const endpoint = () =>
  z
    .string()
    .check(z.minLength(1), z.maxLength(PUSH_ENDPOINT_MAX), rule<string>('invalid', isOutboundUrl));

const key = (bytes: number) =>
  z.string().check(
    z.minLength(1),
    z.maxLength(200),
    rule<string>('invalid', (v) => base64UrlBytes(v) === bytes),
  );

/**
 * A browser's push subscription (PushSubscription.toJSON()): its endpoint and its keys, p256dh
 * (65 bytes) and auth (16 bytes), base64url. expirationTime, when the browser sends it, is taken
 * and not kept.
 */
export const pushSubscriptionInput = z.object({
  endpoint: endpoint(),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({ p256dh: key(PUSH_P256DH_BYTES), auth: key(PUSH_AUTH_BYTES) }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

/** Which subscription to end: its endpoint. */
export const pushUnsubscribeInput = z.object({ endpoint: endpoint() });
