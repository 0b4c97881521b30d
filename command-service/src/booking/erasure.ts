import { decideReservation, emptyReservation } from '@rr/domain';
import { removeErasedMailFiles, startIntervalJob, todayIn, type IntervalJob } from '@rr/platform';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { lockAndLoadTransaction, reservationAppends } from './store.ts';
import { eraseWaitlistEntries } from '../waitlist/commands.ts';

export interface ErasureOptions {
  /** Where the mail sender writes `.eml` files without SMTP (DATA_DIR/mail); swept each round. */
  mailDir?: string;
  /** Bookings erased per round. */
  batch?: number;
}

/**
 * The erasure job: the day after the last booked day of a booking, its personal data is deleted,
 * the owner's mail errors (SMTP replies may quote the address) are cleared and
 * `PersonalDataErased` is appended to the booking's cart stream, in one transaction. After the
 * commits, the `.eml` files of every owner without personal data are deleted: idempotent, so a
 * crash between a commit and the deletion is repaired by the next round. Tickets, counts and
 * reports stay (they never held personal data). Answers how many bookings it erased.
 */
export async function erasePersonalData(
  deps: CommandDeps,
  { mailDir, batch = 500 }: ErasureOptions = {},
): Promise<number> {
  const today = todayIn(deps.clock.now(), deps.timeZone);
  const due = await deps.pool.query<{ owner_id: string; transaction_id: string }>(
    `SELECT p.owner_id, b.transaction_id FROM personal_data p JOIN bookings b ON b.owner_id = p.owner_id
      WHERE p.erase_after <= $1 ORDER BY p.erase_after LIMIT $2`,
    [today, batch],
  );
  let erased = 0;
  for (const row of due.rows) {
    // personal_data only finds the due bookings; the erasure is decided on the cart's stream.
    const { answer } = await handleCommand(deps.store, {
      actor: { kind: 'system', job: 'personal-data-erasure' },
      load: async (s) => {
        const cart = await lockAndLoadTransaction(s, row.transaction_id);
        return { ...emptyReservation, cart, transactionId: row.transaction_id, visitorKey: null };
      },
      decide: (state) =>
        decideReservation({ type: 'ErasePersonalData' }, state, {
          ...decisionTime(deps),
          limits: deps.limits,
        }),
      appends: (decision, state) => reservationAppends(state, decision),
      record: async (s) => {
        await s.client.query('DELETE FROM personal_data WHERE owner_id = $1', [row.owner_id]);
        // SMTP replies may quote the address: the owner's mail errors go with it.
        await s.client.query(
          'UPDATE mail_outbox SET last_error = NULL WHERE owner_id = $1 AND last_error IS NOT NULL',
          [row.owner_id],
        );
      },
      answer: (decision) => decision.transaction.length > 0,
    });
    if (answer) erased += 1;
  }
  // Waitlist entries: their addresses go the day after the slot's day too (docs/product.md#personal-data).
  const waitlist = await eraseWaitlistEntries(deps, today);
  // Files are no transaction's part: deleted after the commits, from what the database says.
  const files = mailDir ? await removeErasedMailFiles(deps.pool, mailDir) : 0;
  if (erased || files || waitlist)
    deps.logger.info({ erased, waitlist, mailFiles: files }, 'personal data erased');
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
