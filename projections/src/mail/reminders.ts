import type { RoomServices } from '@rr/contracts';
import { asStreamEvents, timeSlotStreamId, type CartTicket, type EventStore } from '@rr/events';
import {
  evolveSlotWith,
  initialSlotState,
  isCancelable,
  localDateTime,
  type SlotEvent,
} from '@rr/domain';
import {
  enqueueSelectedMails,
  startIntervalJob,
  type Clock,
  type IntervalJob,
  type Logger,
  type Pool,
} from '@rr/platform';
import { enqueueReminderPushes } from '@rr/integrations';

/**
 * Reminders. A room with `reminderHoursBefore` reminds its readers that many hours
 * before their slot: one mail per booking (owner) and slot day, naming all the booking's booked
 * tickets of that day (in rooms with reminders), enqueued into the outbox by the reminder job
 * once the day's first such ticket is that close, and sent by the mail sender.
 *
 * - Once: the outbox row's id is `reminder:<ownerId>:<date>` (its primary key), inserted with
 *   ON CONFLICT DO NOTHING. Concurrent job rounds, several processes and restarts insert it at
 *   most once; outbox rows are never deleted, so a sent reminder is never enqueued again.
 * - Late bookings: a ticket booked after its reminder time (less than `reminderHoursBefore`
 *   before its start) brings no reminder of its own; its confirmation mail, sent at once, says
 *   the same. A room that turns reminders on reminds its earlier bookings at once.
 * - Never for cancelled or released tickets: the job takes only BOOKED tickets of the read model,
 *   and the sender decides again on the slot streams (the write side) before it sends: tickets
 *   cancelled, released (INVALID) or started meanwhile, or whose room no longer reminds, are left
 *   out, and a reminder left without tickets is skipped.
 * - Personal data: only owners with an e-mail address in personal_data are reminded; the row
 *   holds no personal data itself, and the sender skips it once the erasure deleted the owner's.
 * - Push: besides the mail, one notification per browser the owner allowed (their push
 *   subscriptions), each once (its id names the reminder and the browser), sent by the push job.
 */

/** The outbox id of an owner's reminder for a slot day: what makes it unique. */
export function reminderOutboxId(ownerId: string, date: string): string {
  return `reminder:${ownerId}:${date}`;
}

/**
 * The reminders due now: per owner and slot day (YYYY-MM-DD) the booked tickets to name.
 * All times compare in the database against the clock's instant ($1): a slot starts at its local
 * date and time in the library's zone ($3). The date bounds let the (room_id, date) index find
 * the candidates; the exact window follows. The mails and the push notifications both take it.
 */
const DUE = `
  WITH booked AS (
    SELECT t.id, t.owner_id, t.date, t.start_time, t.booked_at,
           (t.date + t.start_time::time) AT TIME ZONE $3 AS starts_at,
           make_interval(hours => (r.services->>'reminderHoursBefore')::int) AS ahead
      FROM rm_rooms r
      JOIN rm_tickets t ON t.room_id = r.id
     WHERE r.services->>'reminderHoursBefore' IS NOT NULL
       AND t.status = 'BOOKED' AND t.owner_id IS NOT NULL
       AND t.date >= $2::date
       AND t.date <= (($1::timestamptz + make_interval(hours => (r.services->>'reminderHoursBefore')::int))
                      AT TIME ZONE $3)::date
  )
  SELECT b.owner_id, to_char(b.date, 'YYYY-MM-DD') AS date,
         array_agg(b.id ORDER BY b.start_time, b.id) AS ticket_ids
    FROM booked b
   WHERE b.starts_at > $1
   GROUP BY b.owner_id, b.date
  HAVING bool_or(b.starts_at - b.ahead <= $1 AND b.booked_at <= b.starts_at - b.ahead)`;

/** The reminder mails due now, as the outbox enqueues them (enqueueSelectedMails). */
const DUE_MAILS = `
  SELECT 'reminder:' || d.owner_id || ':' || d.date, 'reminder', d.owner_id, d.ticket_ids,
         NULL::text, $1::timestamptz, NULL::text
    FROM (${DUE}) d
   WHERE EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = d.owner_id AND p.email IS NOT NULL)
     AND NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.id = 'reminder:' || d.owner_id || ':' || d.date)`;

export interface ReminderJobOptions {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  timeZone: string;
}

/**
 * One round of the reminder job: enqueues the reminder mails now due, and a push notification
 * per browser of their owners that allowed them (integrations/src/push); answers how many mails.
 */
export async function enqueueDueReminders(o: ReminderJobOptions): Promise<number> {
  const now = o.clock.now();
  const params = [now, localDateTime(now, o.timeZone).date, o.timeZone];
  const n = await enqueueSelectedMails(o.pool, DUE_MAILS, params);
  const pushes = await enqueueReminderPushes(o.pool, DUE, params, now);
  if (n || pushes) o.logger.info({ reminders: n, pushes }, 'reminders enqueued');
  return n;
}

/** Runs the reminder job every intervalMs until stopped. */
export function startReminderJob(o: ReminderJobOptions, intervalMs: number): IntervalJob {
  return startIntervalJob('reminder', () => enqueueDueReminders(o), intervalMs, o.logger);
}

/** A ticket a reminder still names, and whether its room uses check-in (then its QR code goes along). */
export interface RemindedTicket {
  ticket: CartTicket;
  checkIn: boolean;
}

/**
 * At send time, from the write side: the tickets of a reminder that are still booked and not
 * started (the slot streams decide, as a cancellation does) in rooms that still send reminders.
 */
export async function ticketsStillToRemind(
  o: { pool: Pool; store: EventStore; clock: Clock; timeZone: string },
  tickets: CartTicket[],
): Promise<RemindedTicket[]> {
  const rooms = await o.pool.query<{ room_id: string; services: RoomServices }>(
    'SELECT room_id, services FROM room_state WHERE room_id = ANY($1::uuid[])',
    [[...new Set(tickets.map((t) => t.roomId))]],
  );
  const services = new Map(rooms.rows.map((r) => [r.room_id, r.services]));
  const localNow = localDateTime(o.clock.now(), o.timeZone);
  const still: RemindedTicket[] = [];
  for (const ticket of tickets) {
    const room = services.get(ticket.roomId);
    if (room?.reminderHoursBefore == null) continue;
    const { events } = await o.store.readStream(timeSlotStreamId(ticket.timeSlotId));
    const slot = evolveSlotWith(initialSlotState, asStreamEvents<SlotEvent>(events));
    const status = slot.tickets.get(ticket.ticketId)?.status ?? 'INVALID';
    if (!isCancelable(status, slot, localNow)) continue;
    still.push({ ticket, checkIn: room.checkInMinutesBefore != null });
  }
  return still;
}
