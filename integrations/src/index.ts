export * from './outbound-address.ts';
export * from './webhooks/endpoints.ts';
export * from './webhooks/routes.ts';
export { webhookReactor } from './webhooks/reactor.ts';
export * from './webhooks/sender.ts';
export * from './calendar-feeds.ts';
export * from './migrations-dir.ts';
export * from './push/index.ts';
