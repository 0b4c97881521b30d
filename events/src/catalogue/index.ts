import { catalogueValidator } from './define.ts';
import { roomEvents } from './rooms.ts';
import { timeSlotEvents } from './timeslots.ts';
import { holidayEvents } from './holidays.ts';
import { blacklistEvents } from './blacklist.ts';
import { bookingEvents } from './booking.ts';
import { waitlistEvents } from './waitlist.ts';
import { noShowEvents } from './no-shows.ts';
import { rekeyingEvents } from './rekeying.ts';

export * from './define.ts';
export * from './rooms.ts';
export * from './timeslots.ts';
export * from './holidays.ts';
export * from './blacklist.ts';
export * from './booking.ts';
export * from './waitlist.ts';
export * from './no-shows.ts';
export * from './rekeying.ts';
export * from './stream-event.ts';

/** Every event type the product writes. */
export const catalogue = [
  ...roomEvents,
  ...timeSlotEvents,
  ...holidayEvents,
  ...blacklistEvents,
  ...bookingEvents,
  ...waitlistEvents,
  ...noShowEvents,
  ...rekeyingEvents,
];
export const validateEvent = catalogueValidator(catalogue);
export type { NewEvent } from '../types.ts';
