import { handlersFor, ignore, transactionStream, type NewEvent } from '@rr/events';
import { inlineProjection, type InlineFold } from './define.ts';

const CART_STREAM = `${transactionStream.kind}-`;

interface CartFold extends InlineFold {
  /** Each cart the command touched: closed, or its last expiry. */
  carts: Map<string, { closed: boolean; expiresAt?: string }>;
}

function cartOf(f: CartFold) {
  const transactionId = f.streamId.slice(CART_STREAM.length);
  let cart = f.carts.get(transactionId);
  if (!cart) f.carts.set(transactionId, (cart = { closed: false }));
  return cart;
}

const expires = (e: { data: { expiresAt: string } }, f: CartFold) =>
  void (cartOf(f).expiresAt = e.data.expiresAt);
const closed = (_e: unknown, f: CartFold) => void (cartOf(f).closed = true);

/**
 * `open_carts`: the expiry of each cart not booked, removed or expired (the expiry job). A cart
 * is open from its start until it is booked, removed or expired; its last expiry counts.
 */
export const openCartsProjection = inlineProjection({
  table: 'open_carts',
  handlers: handlersFor(transactionStream).with<CartFold, void, NewEvent>({
    TransactionStarted: expires,
    TicketAddedToTransaction: expires,
    TicketRemovedFromTransaction: ignore,
    TransactionTouched: expires,
    TransactionBooked: closed,
    TransactionRemoved: closed,
    TransactionExpired: closed,
    PersonalDataErased: ignore,
    OwnerDataChanged: ignore,
  }),
  start: (): CartFold => ({ streamId: '', carts: new Map() }),
  async write(tx, { carts }) {
    for (const [transactionId, cart] of carts) {
      if (cart.closed) {
        await tx.send('DELETE FROM open_carts WHERE transaction_id = $1', [transactionId]);
        continue;
      }
      // A booked cart that gains a ticket (a rebooking's) stays closed: its booking says so.
      if (cart.expiresAt)
        await tx.send(
          {
            // Sent by every cart add: prepared once per connection.
            name: 'rr_open_cart_holds',
            text: `INSERT INTO open_carts (transaction_id, expires_at)
                   SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE transaction_id = $1)
                   ON CONFLICT (transaction_id) DO UPDATE SET expires_at = excluded.expires_at`,
          },
          [transactionId, cart.expiresAt],
        );
    }
  },
});
