import { transactionStreamId } from '@rr/events';
import { lockSlots } from '../streams/timeslot.ts';
import { decideReservation, emptyReservation } from '@rr/domain';
import { startIntervalJob, type IntervalJob } from '@rr/platform';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { reservationAppends } from './store.ts';
import { loadTransaction } from '../streams/transaction.ts';

/**
 * The expiry job: carts past their expiry are marked expired and their holds released, so the
 * log tells the whole story and the calendars' counts drop. Seats are never counted from an
 * expired hold anyway (lazy expiry in the deciders); this only completes the history.
 * Answers how many carts it expired.
 */
export async function expireDueTransactions(deps: CommandDeps, batch = 200): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.pool.query<{ id: string }>(
    `SELECT transaction_id AS id FROM open_carts WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, batch],
  );
  let expired = 0;
  for (const { id } of due.rows) {
    try {
      // open_carts only finds the candidates; the decision is on the cart's stream.
      const { answer } = await handleCommand(deps.store, {
        actor: { kind: 'system', job: 'cart-expiry' },
        load: async (s) => {
          await s.lockStream(transactionStreamId(id));
          const cart = await loadTransaction(s, id);
          const slots = await lockSlots(
            s,
            cart.tickets.map((t) => t.timeSlotId),
          );
          return { ...emptyReservation, cart, slots, transactionId: id, visitorKey: null };
        },
        decide: (state) =>
          decideReservation({ type: 'ExpireCart' }, state, {
            ...decisionTime(deps),
            limits: deps.limits,
            timeZone: deps.timeZone,
          }),
        appends: (decision, state) => reservationAppends(state, decision),
        answer: (decision) => decision.transaction.length > 0,
      });
      if (answer) expired += 1;
    } catch (err) {
      deps.logger.warn(
        { transactionId: id, err: String(err) },
        'cart expiry failed; retried next round',
      );
    }
  }
  return expired;
}

/** Runs the expiry job every intervalMs until stopped. */
export function startExpiryJob(deps: CommandDeps, intervalMs: number): IntervalJob {
  return startIntervalJob(
    'cart expiry',
    () => expireDueTransactions(deps),
    intervalMs,
    deps.logger,
  );
}
