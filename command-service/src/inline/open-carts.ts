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
  // One statement of each kind for all the carts of the transaction: a commit group writes the
  // cart adds of several visitors at once, each of them a cart of its own.
  async write(tx, { carts }) {
    const closed: string[] = [];
    const open: { transactionId: string; expiresAt: string }[] = [];
    for (const [transactionId, cart] of carts) {
      if (cart.closed) closed.push(transactionId);
      // A booked cart that gains a ticket (a rebooking's) stays closed: its booking says so.
      else if (cart.expiresAt) open.push({ transactionId, expiresAt: cart.expiresAt });
    }
    if (closed.length)
      await tx.send('DELETE FROM open_carts WHERE transaction_id = ANY($1::uuid[])', [closed]);
    if (open.length)
      await tx.send(
        {
          // Sent by every cart add: prepared once per connection.
          name: 'rr_open_cart_holds',
          text: `INSERT INTO open_carts (transaction_id, expires_at)
                 SELECT o.id, o.expires_at
                   FROM unnest($1::uuid[], $2::timestamptz[]) AS o(id, expires_at)
                  WHERE NOT EXISTS (SELECT 1 FROM bookings b WHERE b.transaction_id = o.id)
                 ON CONFLICT (transaction_id) DO UPDATE SET expires_at = excluded.expires_at`,
        },
        [open.map((o) => o.transactionId), open.map((o) => o.expiresAt)],
      );
  },
});
