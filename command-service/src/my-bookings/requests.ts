import { randomUUID } from 'node:crypto';
import {
  clearMailErrorsOf,
  enqueueMails,
  inTransaction,
  MY_BOOKINGS_LINK_HOURS,
  myBookingsRequestOf,
  problems,
} from '@rr/platform';
import type { CommandDeps } from '../deps.ts';
import { cancelTickets } from '../booking/cancel.ts';

/**
 * A visitor asks for the "my bookings" link (docs/product.md#my-bookings): the request row (the
 * address the mail goes to and its visitor key) and the mail's outbox row, in one transaction.
 * The link request changes no booking and no read model, so it writes no event; its row is
 * personal data beside the log, deleted by the erasure once the link has expired. Every address
 * gets the same answer and a mail: whether it has bookings shows only on the link's page.
 */
export async function requestMyBookingsLink(
  deps: CommandDeps,
  input: { email: string; language: 'de' | 'en' },
): Promise<void> {
  const id = randomUUID();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + MY_BOOKINGS_LINK_HOURS * 3_600_000);
  await inTransaction(deps.pool, async (client) => {
    await client.query(
      `INSERT INTO my_bookings_requests (id, email, visitor_key, language, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, input.email, deps.emailKey(input.email), input.language, now, expiresAt],
    );
    // The mail is named by the request (its owner id), so the erasure finds its file.
    await enqueueMails(client, [
      { id: `my-bookings-link:${id}`, kind: 'my-bookings-link', ownerId: id, at: now },
    ]);
  });
}

/**
 * Cancels tickets from the "my bookings" page: each must belong to a booking of the link's
 * address (else not found, and nothing is cancelled); the cancellation itself is the owners'
 * (cancelTickets), as from the confirmation link.
 */
export async function cancelMyBookingsTickets(
  deps: CommandDeps,
  token: string,
  ticketIds: readonly string[],
) {
  const request = await myBookingsRequestOf(
    deps.pool,
    deps.myBookingsLinks,
    token,
    deps.clock.now(),
  );
  if (!request) throw problems.notFound('Link');
  const r = await deps.pool.query<{ id: string; owner_id: string }>(
    `SELECT s.ticket_id AS id, s.owner_id FROM ticket_state s
       JOIN bookings b ON b.owner_id = s.owner_id
      WHERE s.ticket_id = ANY($1::uuid[]) AND b.visitor_key = $2`,
    [ticketIds, request.visitorKey],
  );
  const byOwner = new Map<string, string[]>();
  for (const row of r.rows)
    byOwner.set(row.owner_id, [...(byOwner.get(row.owner_id) ?? []), row.id]);
  if (new Set(r.rows.map((x) => x.id)).size !== new Set(ticketIds).size)
    throw problems.notFound('Ticket');
  return cancelTickets(deps, byOwner, { kind: 'visitor' });
}

/**
 * The erasure's part: requests whose link has expired go with their address; their mails'
 * outbox rows lose the error texts (an SMTP reply may quote the address). Answers how many.
 */
export async function eraseExpiredMyBookingsRequests(deps: CommandDeps): Promise<number> {
  return inTransaction(deps.pool, async (client) => {
    const r = await client.query<{ id: string }>(
      'DELETE FROM my_bookings_requests WHERE expires_at <= $1 RETURNING id::text AS id',
      [deps.clock.now()],
    );
    await clearMailErrorsOf(
      client,
      r.rows.map((x) => x.id),
    );
    return r.rowCount ?? 0;
  });
}
