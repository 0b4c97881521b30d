export * from './webhooks/outbound-address.ts';
export * from './webhooks/endpoints.ts';
export * from './webhooks/routes.ts';
export { webhookReactor } from './webhooks/reactor.ts';
export * from './webhooks/sender.ts';
export * from './calendar-feeds.ts';
export * from './migrations-dir.ts';
export { walletRoutes, APPLE_PASS_CONTENT_TYPE } from './wallet/routes.ts';
export { GOOGLE_SAVE_URL } from './wallet/google.ts';
