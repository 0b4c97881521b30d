import type { MyBookingsLinks } from './check-in-code.ts';
import type { Queryable } from './db.ts';

/** How long a "my bookings" link is valid (docs/product.md#my-bookings). */
export const MY_BOOKINGS_LINK_HOURS = 24;

/** A "my bookings" request its link names: whose bookings (the visitor key) and until when. */
export interface MyBookingsRequest {
  id: string;
  visitorKey: string;
  expiresAt: Date;
}

/**
 * The request a link's token names while it is valid: null for a token not issued here (altered,
 * invented), a request erased meanwhile, or one whose link has expired by the clock's `now`.
 * The command side (cancel) and the query side (the list) read it the same way.
 */
export async function myBookingsRequestOf(
  db: Queryable,
  links: MyBookingsLinks,
  token: string,
  now: Date,
): Promise<MyBookingsRequest | null> {
  const id = links.requestOf(token);
  if (!id) return null;
  const r = await db.query<{ visitor_key: string; expires_at: Date }>(
    'SELECT visitor_key, expires_at FROM my_bookings_requests WHERE id = $1 AND expires_at > $2',
    [id, now],
  );
  const row = r.rows[0];
  return row ? { id, visitorKey: row.visitor_key, expiresAt: row.expires_at } : null;
}
