import { noShowsErasableThrough } from '@rr/domain';
import { eraseStaffSignInsBefore } from '@rr/identity';
import { removeErasedMailFiles, startIntervalJob, todayIn, type IntervalJob } from '@rr/platform';
import type { CommandDeps } from '../deps.ts';
import { erasePersonalDataOf } from '../owner/stream.ts';
import { eraseWaitlistEntries } from '../waitlist/commands.ts';
import { eraseNoShowsThrough } from '../no-show/record.ts';
import { eraseExpiredMyBookingsRequests } from '../my-bookings/requests.ts';
import { rekeyStoredAddresses } from './rekey.ts';

export interface ErasureOptions {
  /** Where the mail sender writes `.eml` files without SMTP (DATA_DIR/mail); swept each round. */
  mailDir?: string;
  /** Bookings erased per round. */
  batch?: number;
}

/**
 * The erasure job, the one place that erases personal data on its schedule: it decides what is
 * due and calls the erase function of each table's owner (the booking's owner, the waitlist, the
 * no-show rule, the "my bookings" requests, the record of staff sign-ins), never writing their
 * tables itself. The day after the last booked day of a booking, its personal data is deleted,
 * the owner's mail errors (SMTP replies may quote the address) are cleared and
 * `PersonalDataErased` is appended to the booking's cart stream, in one transaction. After the
 * commits, the `.eml` files of every owner without personal data are deleted: idempotent, so a
 * crash between a commit and the deletion is repaired by the next round. Tickets, counts and
 * reports stay (they never held personal data). Each round first re-keys the rows stored under an
 * older key of their address (rekey.ts). Answers how many bookings it erased.
 */
export async function erasePersonalData(
  deps: CommandDeps,
  { mailDir, batch = 500 }: ErasureOptions = {},
): Promise<number> {
  const today = todayIn(deps.clock.now(), deps.timeZone);
  // Rows keyed by an older fold of their address get the key now while the address is known:
  // before it is erased below (a previous release may have written some since the last round).
  await rekeyStoredAddresses(deps);
  const due = await deps.pool.query<{ owner_id: string; transaction_id: string }>(
    `SELECT p.owner_id, b.transaction_id FROM personal_data p JOIN bookings b ON b.owner_id = p.owner_id
      WHERE p.erase_after <= $1 ORDER BY p.erase_after LIMIT $2`,
    [today, batch],
  );
  let erased = 0;
  for (const row of due.rows) {
    // personal_data only finds the due bookings; the erasure is decided on the cart's stream.
    if (await erasePersonalDataOf(deps, row.transaction_id, row.owner_id)) erased += 1;
  }
  // Waitlist entries: their addresses go the day after the slot's day too (docs/product.md#personal-data).
  const waitlist = await eraseWaitlistEntries(deps, today);
  // The no-show rule's record goes once the rule no longer needs it: its window and the block it
  // may start have passed; without the rule at once (docs/product.md#no-show-rule).
  const erasableThrough = noShowsErasableThrough(today, deps.limits.noShowRule);
  const noShows = await eraseNoShowsThrough(deps.pool, erasableThrough);
  // "My bookings" requests: the address goes once the link has expired (docs/product.md#my-bookings).
  const requests = await eraseExpiredMyBookingsRequests(deps);
  // The record of staff sign-ins keeps what was typed for its period only
  // (docs/product.md#sign-in-with-the-campus-identity).
  const signIns = await eraseStaffSignInsBefore(
    deps.pool,
    new Date(deps.clock.now().getTime() - deps.staffSignInRecordDays * 86_400_000),
  );
  // Files are no transaction's part: deleted after the commits, from what the database says.
  const files = mailDir ? await removeErasedMailFiles(deps.pool, mailDir) : 0;
  if (erased || files || waitlist || noShows || requests || signIns)
    deps.logger.info(
      {
        erased,
        waitlist,
        myBookingsRequests: requests,
        mailFiles: files,
        noShows,
        staffSignIns: signIns,
      },
      'personal data erased',
    );
  return erased;
}

/** Runs the erasure every intervalMs (and once at start) until stopped. */
export function startErasureJob(
  deps: CommandDeps,
  intervalMs: number,
  options: ErasureOptions = {},
): IntervalJob {
  return startIntervalJob(
    'erasure',
    () => erasePersonalData(deps, options),
    intervalMs,
    deps.logger,
    {
      runAtStart: true,
    },
  );
}
