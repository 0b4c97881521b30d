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
 * The named statement that writes open carts' expiries, and its values. A booked cart that gains
 * a ticket (a rebooking's) stays closed. One cart, what a command alone writes, goes as two values:
 * a connection plans that once and keeps the plan. For arrays PostgreSQL guesses ten elements, so
 * a kept plan looks ten times dearer than one made for the one cart at hand, and once there are
 * many bookings it would plan the write on every command. A commit group's carts go as arrays.
 */
export function holdOpenCarts(open: readonly { transactionId: string; expiresAt: string }[]): {
  statement: { name: string; text: string };
  values: unknown[];
} {
  const one = open.length === 1;
  const carts = one
    ? '(VALUES ($1::uuid, $2::timestamptz))'
    : 'unnest($1::uuid[], $2::timestamptz[])';
  return {
    statement: {
      name: one ? 'rr_open_cart_hold' : 'rr_open_cart_holds',
      text: `INSERT INTO open_carts (transaction_id, expires_at)
             SELECT o.id, o.expires_at FROM ${carts} AS o(id, expires_at)
              WHERE NOT EXISTS (SELECT 1 FROM bookings b WHERE b.transaction_id = o.id)
             ON CONFLICT (transaction_id) DO UPDATE SET expires_at = excluded.expires_at`,
    },
    values: one
      ? [open[0]!.transactionId, open[0]!.expiresAt]
      : [open.map((o) => o.transactionId), open.map((o) => o.expiresAt)],
  };
}

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
    if (open.length) {
      const hold = holdOpenCarts(open);
      await tx.send(hold.statement, hold.values);
    }
  },
});
