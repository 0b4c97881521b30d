import { type Actor, type StoreSession } from '@rr/events';
import { lockSlots } from '../streams/timeslot.ts';
import { clearMailErrorsOf, eraseConfirmationTokens } from '@rr/platform';
import { erasePushSubscriptionsOf, eraseWalletRegistrationsOf } from '@rr/integrations';
import {
  decideOwner,
  normalizeEmail,
  refuse,
  Refused,
  type OwnerCommand,
  type OwnerState,
} from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { lockAndLoadTransaction } from '../streams/transaction.ts';
import type { StaffOwner } from '../booking/owner.ts';
import { appendToCart } from '../streams/transaction.ts';

/**
 * The owner of a booking: its events live on the booking's cart stream, its data beside the log
 * in `personal_data`. Every change of that data is an owner command (decideOwner) whose event is
 * appended in the transaction that changes the row.
 */
async function runOwnerCommand(
  deps: CommandDeps,
  actor: Actor,
  transactionId: string,
  command: OwnerCommand,
  record: (s: StoreSession, state: OwnerState) => Promise<void>,
) {
  return handleCommand(deps.store, {
    actor,
    load: async (s): Promise<OwnerState> => {
      const cart = await lockAndLoadTransaction(s, transactionId);
      if (command.type !== 'ChangeOwnerData') return { cart, slots: new Map() };
      const slotIds = cart.tickets
        .filter((t) => t.ticketId === command.data.ticketId)
        .map((t) => t.timeSlotId);
      return { cart, slots: await lockSlots(s, slotIds) };
    },
    decide: (state) => decideOwner(command, state, null),
    appends: (events, state) => appendToCart(transactionId, state.cart, events),
    record: (s, _events, state) => record(s, state),
    answer: (events) => events.length > 0,
  });
}

/**
 * Staff change the owner data of a booked ticket's booking. ticket_state only finds the ticket's
 * cart; whether the ticket is booked and the data not erased is decided on the cart's and the
 * slot's streams. The personal data is changed beside the log; the log records the change
 * (OwnerDataChanged) without it.
 */
export async function changeOwnerData(
  deps: CommandDeps,
  actor: Actor,
  ticketId: string,
  owner: StaffOwner,
) {
  const t = await deps.pool.query<{ transaction_id: string }>(
    'SELECT transaction_id FROM ticket_state WHERE ticket_id = $1',
    [ticketId],
  );
  const transactionId = t.rows[0]?.transaction_id;
  if (!transactionId) throw refuse.notFound('Ticket');
  return runOwnerCommand(
    deps,
    actor,
    transactionId,
    { type: 'ChangeOwnerData', data: { ticketId } },
    async (s, { cart }) => {
      const updated = await s.client.query(
        `UPDATE personal_data SET salutation = $2, title = $3, first_name = $4, last_name = $5, organisation = $6,
                email = coalesce($7, email), phone = $8, accessibility = $9 WHERE owner_id = $1`,
        [
          cart.ownerId,
          owner.salutation,
          owner.title ?? null,
          owner.firstName,
          owner.lastName,
          owner.organisation ?? null,
          owner.email ? normalizeEmail(owner.email) : null,
          owner.phone ?? null,
          owner.accessibility,
        ],
      );
      // Erased by the job meanwhile (its event is on the stream: the next try says so).
      if (!updated.rowCount)
        throw new Refused('personal_data__erased', 'The personal data of this booking was erased');
    },
  );
}

/**
 * Erases a booking's personal data (the erasure job): the row goes, with the owner's mail errors
 * (SMTP replies may quote the address), its devices' push subscriptions and wallet registrations,
 * and the hashes of its confirmation links (the mailbox's secret,
 * docs/product.md#confirmed-addresses), and PersonalDataErased is appended to the cart stream.
 * Answers whether it erased (false: erased already, or never booked).
 */
export async function erasePersonalDataOf(
  deps: CommandDeps,
  transactionId: string,
  ownerId: string,
): Promise<boolean> {
  const { answer } = await runOwnerCommand(
    deps,
    { kind: 'system', job: 'personal-data-erasure' },
    transactionId,
    { type: 'ErasePersonalData' },
    async (s) => {
      await s.client.query('DELETE FROM personal_data WHERE owner_id = $1', [ownerId]);
      await clearMailErrorsOf(s.client, [ownerId]);
      await eraseConfirmationTokens(s.client, ownerId);
      await erasePushSubscriptionsOf(s.client, ownerId);
      await eraseWalletRegistrationsOf(s.client, ownerId);
    },
  );
  return answer;
}
