import type { RoomServices } from '@rr/events';
import { addDays, checkInWindow, localMinute, Refused } from '@rr/domain';
import { NO_ROOM_SERVICES } from '@rr/contracts';
import { startIntervalJob, type IntervalJob } from '@rr/platform';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { runCheckInCommand } from './check-in.ts';

/**
 * The no-show release job (issue #16): in rooms with `noShowReleaseMinutes`, booked tickets not
 * checked in by start + noShowReleaseMinutes are released (status INVALID, flagged a no-show),
 * actor `system`. The tickets read model only finds candidates (today's and yesterday's booked
 * tickets not checked in, in rooms with a release); each release is decided on the ticket's
 * slot stream under its lock, where a check-in at the same minute either came first (then the
 * release is refused) or comes second (then it is refused). Answers how many it released.
 */
export async function releaseNoShows(deps: CommandDeps, batch = 500): Promise<number> {
  const time = decisionTime(deps);
  const due = await deps.pool.query<{
    id: string;
    time_slot_id: string;
    date: string;
    start_time: string;
    end_time: string;
    services: Partial<RoomServices>;
  }>(
    `SELECT t.id, t.time_slot_id, to_char(t.date, 'YYYY-MM-DD') AS date, t.start_time, t.end_time, r.services
       FROM rm_tickets t JOIN rm_rooms r ON r.id = t.room_id
      WHERE t.status = 'BOOKED' AND t.checked_in_at IS NULL
        AND t.date BETWEEN $1 AND $2
        AND r.services->>'noShowReleaseMinutes' IS NOT NULL
        AND r.services->>'checkInMinutesBefore' IS NOT NULL
      ORDER BY t.date, t.start_time, t.id LIMIT $3`,
    [addDays(time.today, -1), time.today, batch],
  );
  const nowMinute = localMinute(time.today, time.time);
  let released = 0;
  for (const t of due.rows) {
    const window = checkInWindow(
      { date: t.date, startTime: t.start_time, endTime: t.end_time },
      { ...NO_ROOM_SERVICES, ...t.services },
    );
    if (window?.releaseAt == null || window.releaseAt > nowMinute) continue;
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

/** Runs the no-show release every intervalMs until stopped. */
export function startNoShowJob(deps: CommandDeps, intervalMs: number): IntervalJob {
  return startIntervalJob('no-show', () => releaseNoShows(deps), intervalMs, deps.logger);
}
