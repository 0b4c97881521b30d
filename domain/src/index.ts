export * from './booking-window.ts';
export * from './cart-rules.ts';
export * from './slot-dates.ts';
export * from './email.ts';
export * from './reports.ts';
