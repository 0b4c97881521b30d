import { insightLeadProjection, insightSeatsProjection, insightsProjection } from '@rr/insights';
import { type Projection } from '@rr/events';
import { defaultTimeZone } from '@rr/platform';
import { roomsProjection } from './rooms.ts';
import { timeSlotsProjection } from './timeslots.ts';
import { holidaysProjection } from './holidays.ts';
import { blacklistProjection } from './blacklist.ts';
import { ticketsProjection } from './tickets.ts';
import { waitlistProjection } from './waitlist.ts';

export * from './projection.ts';
export * from './checkpoints.ts';
export * from './runner.ts';
export * from './rebuild.ts';

/**
 * Projections that build read models the query side serves (read-your-writes waits for these),
 * with the library's time zone (TIME_ZONE), which the insights' lead time is measured in. The
 * insights' projections are @rr/insights' own; the runner runs them with the others.
 */
export function readModelProjectionsIn(timeZone: string): Projection[] {
  return [
    roomsProjection,
    timeSlotsProjection,
    holidaysProjection,
    blacklistProjection,
    ticketsProjection,
    waitlistProjection,
    insightsProjection,
    insightLeadProjection(timeZone),
    insightSeatsProjection,
  ];
}

/** The same in the default time zone: for tests and benchmarks, whose apps run in it. */
export const readModelProjections: Projection[] = readModelProjectionsIn(defaultTimeZone);

export { mailOutboxReactor } from './mail/outbox-reactor.ts';
export { MAIL_LEASE_MS, MailSender, type MailSenderOptions } from './mail/sender.ts';
export { composeMail, calendarFile, type MailInput } from './mail/compose.ts';
export {
  enqueueDueReminders,
  reminderOutboxId,
  startReminderJob,
  type ReminderJobOptions,
} from './mail/reminders.ts';
export { composeReminderPush, reminderPushMessage } from './mail/reminder-push.ts';
