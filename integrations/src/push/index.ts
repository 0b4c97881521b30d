export * from './subscriptions.ts';
export * from './sender.ts';
export * from './routes.ts';
