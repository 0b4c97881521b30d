import type { RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { roomQueryRoutes } from './rooms.ts';
import { siteQueryRoutes } from './sites.ts';
import { seatPlanQueryRoutes } from './seat-plans.ts';
import { timeSlotQueryRoutes } from './timeslots.ts';
import { holidayQueryRoutes } from './holidays.ts';
import { blacklistQueryRoutes } from './blacklist.ts';
import { bookingQueryRoutes } from './booking.ts';
import { staffQueryRoutes } from './staff.ts';
import { settingsQueryRoutes } from './settings.ts';
import { sessionQueryRoutes } from './session.ts';
import { waitlistQueryRoutes } from './waitlist.ts';
import { displayQueryRoutes } from './display.ts';
import { checkInQueryRoutes } from './check-in.ts';
import { deskQueryRoutes } from './desk.ts';
import { closureQueryRoutes } from './closures.ts';
import { roomCalendarQueryRoutes } from './room-calendar.ts';
import { myBookingsQueryRoutes } from './my-bookings.ts';
import { availabilityStreamRoutes } from './availability-stream.ts';
import { slotSeatQueryRoutes } from './slot-seats.ts';
import { staffSlotSeatQueryRoutes } from './staff-slot-seats.ts';
import { seatQrSheetRoutes } from './seat-qr-sheet.ts';
import { seatPageQueryRoutes } from './seat-page.ts';

export { minPositionGate, projectionsReached } from './consistency.ts';
export type { QueryDeps } from './deps.ts';
export { LiveAvailability, type LiveAvailabilitySettings } from './live-availability.ts';
export { AVAILABILITY_STREAM_PATH } from './availability-stream.ts';

/** Every read route of the product but the insights' (@rr/insights). Slot routes come first: /admin/rooms/timeslots before /admin/rooms/{id}. */
export function queryRoutes(deps: QueryDeps): RouteDef[] {
  return [
    ...waitlistQueryRoutes(deps),
    ...timeSlotQueryRoutes(deps),
    ...seatQrSheetRoutes(deps),
    ...seatPageQueryRoutes(deps),
    ...roomQueryRoutes(deps),
    ...siteQueryRoutes(deps),
    ...seatPlanQueryRoutes(deps),
    ...roomCalendarQueryRoutes(deps),
    ...availabilityStreamRoutes(deps),
    ...slotSeatQueryRoutes(deps),
    ...staffSlotSeatQueryRoutes(deps),
    ...holidayQueryRoutes(deps),
    ...blacklistQueryRoutes(deps),
    ...bookingQueryRoutes(deps),
    ...myBookingsQueryRoutes(deps),
    ...staffQueryRoutes(deps),
    ...checkInQueryRoutes(deps),
    ...deskQueryRoutes(deps),
    ...closureQueryRoutes(deps),
    ...settingsQueryRoutes(deps),
    ...sessionQueryRoutes(),
    ...displayQueryRoutes(deps),
  ];
}
