import { enqueueSelectedMails, type Queryable } from '@rr/platform';

/**
 * The rolling upgrade to confirmation links with a token (docs/product.md#confirmed-addresses):
 * a confirmation mail the previous release sent (before the upgrade, or by one of its processes
 * during it) carried the owner page's link without a token, which no longer confirms. Each
 * booking still awaiting its confirmation whose confirmation mail went out without one (sent,
 * and no token stored for the owner: this release stores one before every such send) gets its
 * confirmation mail once more, now with a token link, due at once. Once per booking (the row's id
 * is the once-key); a booking confirmed, released or past its deadline gets none. Run by every
 * sender round; it finds the candidates by the deadline's partial index of `ticket_state` (the
 * tickets awaiting confirmation now) and the owner's outbox rows by their index. Answers how
 * many mails it enqueued.
 */
export async function enqueueConfirmationLinks(db: Queryable, now: Date): Promise<number> {
  return enqueueSelectedMails(
    db,
    `SELECT DISTINCT ON (m.owner_id) 'confirmation-link:' || m.owner_id, 'confirmation',
            m.owner_id, m.ticket_ids, NULL::text, $1::timestamptz, NULL::text
       FROM (SELECT DISTINCT owner_id FROM ticket_state
              WHERE status = 'BOOKED' AND confirm_by IS NOT NULL AND confirm_by > $1) t
       JOIN mail_outbox m ON m.owner_id = t.owner_id AND m.kind = 'confirmation' AND m.status = 'sent'
      WHERE NOT EXISTS (SELECT 1 FROM confirmation_tokens c WHERE c.owner_id = t.owner_id)
      ORDER BY m.owner_id, m.created_at`,
    [now],
  );
}
