import { addDays, localMinute, Refused } from '@rr/domain';
import { startIntervalJob, type IntervalJob } from '@rr/platform';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { releaseUnconfirmed } from '../booking/confirm.ts';
import { runCheckInCommand } from './check-in.ts';

/**
 * The no-show release job: in rooms with `noShowReleaseMinutes`, booked tickets not checked in
 * by start + noShowReleaseMinutes are released (status INVALID, flagged a no-show), actor
 * `system`. `ticket_state`, `timeslot_guard` and `room_state` find the due ones (today's and
 * yesterday's booked tickets not checked in whose release minute has come, in rooms with
 * check-in): due-ness is compared in the query with the clock's minute, so tickets not due yet
 * never crowd due ones out of a round's batch. Each release is decided on the ticket's slot
 * stream under its lock, where a check-in at the same minute either came first (then the
 * release is refused) or comes second (then it is refused). Answers how many it released.
 */
export async function releaseNoShows(deps: CommandDeps, batch = 500): Promise<number> {
  const time = decisionTime(deps);
  // Local minutes as checkInWindow counts them: days since 1970-01-01 times 1440, plus minutes.
  const due = await deps.pool.query<{ id: string; time_slot_id: string }>(
    `SELECT t.ticket_id AS id, t.time_slot_id
       FROM ticket_state t
       JOIN timeslot_guard g ON g.time_slot_id = t.time_slot_id
       JOIN room_state r ON r.room_id = g.room_id
      WHERE t.status = 'BOOKED' AND NOT t.checked_in
        AND g.date BETWEEN $1 AND $2
        AND r.services->>'checkInMinutesBefore' IS NOT NULL
        AND (g.date - DATE '1970-01-01') * 1440 + g.start_min
            + (r.services->>'noShowReleaseMinutes')::int <= $3
      ORDER BY g.date, g.start_min, t.ticket_id LIMIT $4`,
    [addDays(time.today, -1), time.today, localMinute(time.today, time.time), batch],
  );
  let released = 0;
  for (const t of due.rows) {
    try {
      await runCheckInCommand(
        deps,
        { type: 'ReleaseNoShow', data: { ticketId: t.id } },
        { kind: 'system', job: 'no-show-release' },
        t.time_slot_id,
      );
      released += 1;
    } catch (err) {
      // Checked in meanwhile, cancelled, or the room's setting changed: nothing to release.
      if (err instanceof Refused) continue;
      deps.logger.warn(
        { ticketId: t.id, err: String(err) },
        'no-show release failed; retried next round',
      );
    }
  }
  return released;
}

/**
 * One round of the release job: the no-shows, then the tickets not confirmed by their deadline
 * (docs/product.md#confirmed-addresses). Answers how many tickets it released in all.
 */
export async function releaseDueTickets(deps: CommandDeps): Promise<number> {
  return (await releaseNoShows(deps)) + (await releaseUnconfirmed(deps));
}

/** Runs the release job (no-shows, unconfirmed bookings) every intervalMs until stopped. */
export function startNoShowJob(deps: CommandDeps, intervalMs: number): IntervalJob {
  return startIntervalJob('no-show', () => releaseDueTickets(deps), intervalMs, deps.logger);
}
