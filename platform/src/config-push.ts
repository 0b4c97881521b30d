import { z } from 'zod';
import { base64UrlBytes } from '@rr/contracts';
import { bool, hostList } from './config-values.ts';

/** A base64url text of exactly `bytes` bytes (a VAPID key as `web-push generate-vapid-keys` prints it). */
const vapidKey = (bytes: number) =>
  z
    .string()
    .trim()
    .refine((v) => base64UrlBytes(v) === bytes, `must be ${bytes} bytes, base64url`);

/**
 * Reminders as web push notifications (integrations/src/push, docs/product.md#reminders): the
 * VAPID key pair and the contact the push services see (a mailto: or https: URL); push is off
 * unless all three are set. Keys: `npx web-push generate-vapid-keys`. Like the webhooks,
 * endpoints must be https and outside internal networks; WEB_PUSH_ALLOW_HTTP and
 * WEB_PUSH_ALLOWED_HOSTS loosen that for a test's receiver on loopback.
 */
export const webPushConfig = z.object({
  WEB_PUSH_VAPID_PUBLIC_KEY: vapidKey(65).optional(),
  WEB_PUSH_VAPID_PRIVATE_KEY: vapidKey(32).optional(),
  WEB_PUSH_SUBJECT: z.url({ protocol: /^(mailto|https)$/ }).optional(),
  WEB_PUSH_ALLOW_HTTP: bool.default(false),
  WEB_PUSH_ALLOWED_HOSTS: hostList,
  // How often the push job looks for due notifications (integrations/src/push/sender.ts).
  WEB_PUSH_INTERVAL_MS: z.coerce.number().int().min(50).max(600000).default(2000),
});
type WebPushConfig = z.infer<typeof webPushConfig>;

/** The VAPID details web push is sent with, when configured. */
export interface WebPushSettings {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** Push is on with all three values, off with none; anything between is a mistake. */
export function webPushConfigProblems(config: WebPushConfig): string[] {
  const set = [
    config.WEB_PUSH_VAPID_PUBLIC_KEY,
    config.WEB_PUSH_VAPID_PRIVATE_KEY,
    config.WEB_PUSH_SUBJECT,
  ].filter((v) => v !== undefined).length;
  return set === 0 || set === 3
    ? []
    : [
        'WEB_PUSH_VAPID_PUBLIC_KEY, WEB_PUSH_VAPID_PRIVATE_KEY, WEB_PUSH_SUBJECT: all three or none (npx web-push generate-vapid-keys)',
      ];
}

export function webPushSettingsOf(config: WebPushConfig): WebPushSettings | null {
  const publicKey = config.WEB_PUSH_VAPID_PUBLIC_KEY;
  const privateKey = config.WEB_PUSH_VAPID_PRIVATE_KEY;
  const subject = config.WEB_PUSH_SUBJECT;
  return publicKey && privateKey && subject ? { publicKey, privateKey, subject } : null;
}
