export * from './position.ts';
export * from './types.ts';
export * from './store.ts';
export * from './cursor.ts';
export * from './subscription.ts';
export * from './upcasting.ts';
export * from './catalogue/index.ts';
export * from './stream-append.ts';
