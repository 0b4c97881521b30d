import type { Language } from '@rr/contracts';
import type { CartTicket, EventStore } from '@rr/events';
import type { ComposePush, PushMessage } from '@rr/integrations';
import type { Clock, Pool } from '@rr/platform';
import { visitorBaseOf } from './site-of-mail.ts';
import { cartTicketsOf } from './booking-mail.ts';
import { slotLine, texts } from './compose.ts';
import { ticketsStillToRemind } from './reminders.ts';
import { bookingLink } from './visitor-links.ts';
import { ticketStates, withSeatsNow } from './ticket-states.ts';

/*
 * A reminder as a push notification (docs/product.md#reminders): the same reminder as the mail,
 * short: the booking number in the title, each ticket still to remind of on a line of its own
 * (room, date, time, seat), in the booking's language; a click opens the booking's page.
 */

export interface PushTicket {
  roomName: string;
  date: string;
  startTime: string;
  endTime: string;
  seatLabel: string | null;
}

/** The notification's text of a reminder of these tickets. */
export function reminderPushMessage(input: {
  language: Language;
  bookingNumber: string;
  tickets: PushTicket[];
  url: string;
}): PushMessage {
  // Each ticket in the words of the mail's line: room, date, time, seat.
  const lines = input.tickets.map((x) => slotLine(input.language, x));
  return {
    title: texts[input.language].reminderSubject(input.bookingNumber),
    body: lines.join('\n'),
    url: input.url,
  };
}

export interface ReminderPushDeps {
  pool: Pool;
  store: EventStore;
  clock: Clock;
  timeZone: string;
  /** The visitor app's address (PUBLIC_BASE_URL), ending in a slash. */
  baseUrl: string;
}

/**
 * The push job's composer of reminders: what is still booked, decided now on the write side as
 * for the mail (nothing left: null, skipped), the rooms' names in the booking's language.
 */
export function composeReminderPush(o: ReminderPushDeps): ComposePush {
  return async ({ ownerId, ticketIds }) => {
    const b = await o.pool.query<{
      transaction_id: string;
      booking_number: string;
      language: Language;
    }>('SELECT transaction_id, booking_number, language FROM bookings WHERE owner_id = $1', [
      ownerId,
    ]);
    const booking = b.rows[0];
    if (!booking) return null;
    const { events } = await o.store.readStream(`transaction-${booking.transaction_id}`);
    const tickets = cartTicketsOf(events);
    const chosen = ticketIds.map((id) => tickets.get(id)).filter((t): t is CartTicket => !!t);
    const still = await ticketsStillToRemind(o, chosen);
    if (!still.length) return null;
    const rooms = await o.pool.query<{ id: string; name: string }>(
      `SELECT id, CASE WHEN $2 = 'en' THEN coalesce(name_en, name) ELSE name END AS name
         FROM rm_rooms WHERE id = ANY($1::uuid[])`,
      [still.map((x) => x.ticket.roomId), booking.language],
    );
    const names = new Map(rooms.rows.map((x) => [x.id, x.name]));
    const reminded = still.map(({ ticket }) => ticket);
    const states = await ticketStates(
      o.pool,
      reminded.map((t) => t.ticketId),
    );
    return reminderPushMessage({
      language: booking.language,
      bookingNumber: booking.booking_number,
      // Each ticket's seat as it is now: it may have moved since the cart took it.
      tickets: withSeatsNow(reminded, states)
        .sort((x, y) => (x.date + x.startTime < y.date + y.startTime ? -1 : 1))
        .map((x) => ({
          roomName: names.get(x.roomId) ?? '',
          date: x.date,
          startTime: x.startTime,
          endTime: x.endTime,
          seatLabel: x.seat?.label ?? null,
        })),
      url: bookingLink(
        await visitorBaseOf(
          o.pool,
          [...tickets.values()].map((t) => t.roomId),
          o.baseUrl,
        ),
        ownerId,
        booking.language,
      ),
    });
  };
}
