import { minutesOf } from '@rr/domain';
import { handlersFor, ignore, timeSlotStream, type NewEvent } from '@rr/events';
import { inlineProjection, type InlineFold } from './define.ts';

interface SlotTimes {
  timeSlotId: string;
  roomId: string;
  date: string;
  startTime: string;
  endTime: string;
}

interface GuardFold extends InlineFold {
  created: SlotTimes[];
  /** Moves and deletions, in append order (a deletion: no times). */
  changed: { timeSlotId: string; times: SlotTimes | null }[];
}

/**
 * `timeslot_guard`: when each slot of a room sits (no overlaps, the slots of a room or range).
 * Capacity changes, closures, tickets and the waitlist leave a slot's times as they are.
 */
export const timeSlotGuardProjection = inlineProjection({
  table: 'timeslot_guard',
  handlers: handlersFor(timeSlotStream).with<GuardFold, void, NewEvent>({
    TimeSlotCreated: (e, f) => void f.created.push(e.data),
    TimeSlotUpdated: (e, f) =>
      void f.changed.push({ timeSlotId: e.data.timeSlotId, times: e.data }),
    TimeSlotCapacityChanged: ignore,
    TimeSlotSeatsChosen: ignore,
    TimeSlotDeleted: (e, f) => void f.changed.push({ timeSlotId: e.data.timeSlotId, times: null }),
    TimeSlotClosed: ignore,
    TicketHeld: ignore,
    TicketHoldExtended: ignore,
    TicketReleased: ignore,
    TicketBooked: ignore,
    TicketCancelled: ignore,
    TicketCheckedIn: ignore,
    TicketCheckInUndone: ignore,
    TicketSeatChanged: ignore,
    TicketNoShowReleased: ignore,
    TicketConfirmed: ignore,
    TicketConfirmationLapsed: ignore,
    WaitlistJoined: ignore,
    SeatOffered: ignore,
    SeatOfferLapsed: ignore,
    SeatOfferTaken: ignore,
    WaitlistEntryErased: ignore,
    WaitlistLeft: ignore,
    WaitlistEntryRemovedByStaff: ignore,
    WaitlistEntryPassedOver: ignore,
    WaitlistEntryBackInLine: ignore,
  }),
  start: (): GuardFold => ({ streamId: '', created: [], changed: [] }),
  async write(tx, { created, changed }) {
    if (created.length)
      await tx.send(
        `INSERT INTO timeslot_guard (time_slot_id, room_id, date, start_min, end_min)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[], $4::int[], $5::int[])`,
        [
          created.map((d) => d.timeSlotId),
          created.map((d) => d.roomId),
          created.map((d) => d.date),
          created.map((d) => minutesOf(d.startTime)),
          created.map((d) => minutesOf(d.endTime)),
        ],
      );
    for (const { timeSlotId, times } of changed) {
      if (times)
        await tx.send(
          'UPDATE timeslot_guard SET start_min = $2, end_min = $3 WHERE time_slot_id = $1',
          [timeSlotId, minutesOf(times.startTime), minutesOf(times.endTime)],
        );
      else await tx.send('DELETE FROM timeslot_guard WHERE time_slot_id = $1', [timeSlotId]);
    }
  },
});
