/**
 * The request shapes and field rules of docs/product.md#validation (zod/mini, browser-safe): the server's
 * routes validate with them and document them in the OpenAPI document, the browser's forms
 * check with them before sending. The frontend imports the modules one by one
 * (`@rr/contracts/owner`), so each page takes only what it uses.
 */
export * from './issues.ts';
export * from './messages.ts';
export * from './rules.ts';
export * from './dates.ts';
export * from './fields.ts';
export * from './files.ts';
export * from './rooms.ts';
export * from './sites.ts';
export * from './staff-roles.ts';
export * from './holidays.ts';
export * from './blacklist.ts';
export * from './no-show.ts';
export * from './timeslots.ts';
export * from './owner.ts';
export * from './reports.ts';
export * from './auth.ts';
export * from './waitlist.ts';
export * from './my-bookings.ts';
export * from './api-tokens.ts';
export * from './booking-number.ts';
export * from './webhooks.ts';
export * from './push.ts';
export * from './closures.ts';
export * from './insights.ts';
export * from './check-in.ts';
export * from './history.ts';
