export * from './outbound-address.ts';
export * from './webhooks/endpoints.ts';
export * from './webhooks/routes.ts';
export { webhookReactor } from './webhooks/reactor.ts';
export * from './webhooks/sender.ts';
export * from './calendar-feeds.ts';
export * from './migrations-dir.ts';
export * from './push/index.ts';
export { walletRoutes, APPLE_PASS_CONTENT_TYPE } from './wallet/routes.ts';
export { GOOGLE_SAVE_URL } from './wallet/google.ts';
export {
  appleWebServiceRoutes,
  applePassToken,
  eraseWalletRegistrationsOf,
  APPLE_WEB_SERVICE_PATH,
} from './wallet/web-service.ts';
export { walletReactor, WalletUpdater, WALLET_UPDATE_RETRY_DELAYS_MS } from './wallet/updates.ts';
export { bookedOwnerBefore } from './booked-owner.ts';
