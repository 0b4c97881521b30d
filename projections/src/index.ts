import type { Projection } from './projection.ts';
import { roomsProjection } from './rooms.ts';
import { timeSlotsProjection } from './timeslots.ts';
import { holidaysProjection } from './holidays.ts';
import { blacklistProjection } from './blacklist.ts';
import { ticketsProjection } from './tickets.ts';
import { waitlistProjection } from './waitlist.ts';
import { insightsProjection } from './insights.ts';

export * from './projection.ts';
export * from './checkpoints.ts';
export * from './runner.ts';
export * from './rebuild.ts';

/** Projections that build read models the query side serves (read-your-writes waits for these). */
export const readModelProjections: Projection[] = [
  roomsProjection,
  timeSlotsProjection,
  holidaysProjection,
  blacklistProjection,
  ticketsProjection,
  waitlistProjection,
  insightsProjection,
];

export { mailOutboxReactor } from './mail/outbox-reactor.ts';
export { MAIL_LEASE_MS, MailSender, type MailSenderOptions } from './mail/sender.ts';
export { composeMail, calendarFile, type MailInput } from './mail/compose.ts';
export {
  enqueueDueReminders,
  reminderOutboxId,
  startReminderJob,
  type ReminderJobOptions,
} from './mail/reminders.ts';
export { webhookReactor } from './webhooks/reactor.ts';
export {
  retryDelayMs,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_MS,
  WEBHOOK_TIMEOUT_MS,
  WebhookSender,
  type WebhookSenderOptions,
} from './webhooks/sender.ts';
