import type { RouteDef } from '@rr/platform';
import type { CommandDeps } from './deps.ts';
import { roomCommandRoutes } from './rooms/api.ts';
import { siteCommandRoutes } from './sites/api.ts';
import { timeSlotCommandRoutes } from './timeslots/api.ts';
import { slotSeatsCommandRoutes } from './timeslots/seats-api.ts';
import { holidayCommandRoutes } from './holidays/api.ts';
import { blacklistCommandRoutes } from './blacklist/api.ts';
import { bookingCommandRoutes } from './booking/api.ts';
import { staffCommandRoutes } from './staff/api.ts';
import { waitlistCommandRoutes } from './waitlist/api.ts';
import { checkInCommandRoutes } from './check-in/api.ts';
import { closureCommandRoutes } from './closures/api.ts';
import { noShowCommandRoutes } from './no-show/api.ts';
import { myBookingsCommandRoutes } from './my-bookings/api.ts';
import { seatPageCommandRoutes } from './seat-page/api.ts';

export type { CommandDeps } from './deps.ts';
export { defaultBookingLimits as defaultLimits, type BookingLimits } from '@rr/platform';
export { calendarImportSettings, type CalendarImportSettings } from './holidays/import-window.ts';
export { humanCheck } from './booking/human-check.ts';
export { existingSiteIds } from './streams/sites.ts';
export { commitGroupCounts } from './command.ts';
export { expireDueTransactions, startExpiryJob } from './booking/expiry.ts';
export { erasePersonalData, startErasureJob } from './erasure/job.ts';
export { rekeyStoredAddresses } from './erasure/rekey.ts';
export { matchWaitlists, startWaitlistJob, waitlistCommands } from './waitlist/commands.ts';
export { releaseDueTickets, releaseNoShows, startNoShowJob } from './check-in/no-show.ts';
export { confirmBooking, releaseUnconfirmed } from './booking/confirm.ts';

/** Every state-changing route of the product (authentication routes come from the platform). */
export function commandRoutes(deps: CommandDeps): RouteDef[] {
  return [
    ...timeSlotCommandRoutes(deps),
    ...slotSeatsCommandRoutes(deps),
    ...roomCommandRoutes(deps),
    ...siteCommandRoutes(deps),
    ...holidayCommandRoutes(deps),
    ...blacklistCommandRoutes(deps),
    ...bookingCommandRoutes(deps),
    ...staffCommandRoutes(deps),
    ...waitlistCommandRoutes(deps),
    ...checkInCommandRoutes(deps),
    ...closureCommandRoutes(deps),
    ...noShowCommandRoutes(deps),
    ...myBookingsCommandRoutes(deps),
    ...seatPageCommandRoutes(deps),
  ];
}
