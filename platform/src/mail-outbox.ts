import type { Queryable } from './db.ts';

/**
 * The mail outbox (`mail_outbox`), its one writer: the mail reactor, the jobs and the commands
 * enqueue through it, the sender claims, defers and closes its rows through it, the erasures clear
 * its error texts through it. A row's id is its once-key: enqueueing an id again is nothing (a
 * reactor's replay, a job's next round). A mail is due from the time its caller names, the
 * command's or job's clock, never the database's `now()`: the sender compares with the same clock.
 */
export interface OutboxMail {
  id: string;
  kind: string;
  /** Whose mail: a booking's owner id, a waitlist entry's id or a "my bookings" request's id. */
  ownerId: string;
  ticketIds?: readonly string[];
  /** Staff's reason (a cancellation's or a closure's). */
  reason?: string | null;
  /** The reason's English text, which an English mail states; null: the reason serves both. */
  reasonEn?: string | null;
  /** Created and due at. */
  at: Date;
}

/** Enqueues the mails not enqueued before (by id); answers how many are new. */
export async function enqueueMails(db: Queryable, mails: readonly OutboxMail[]): Promise<number> {
  if (mails.length === 0) return 0;
  const r = await db.query(
    `INSERT INTO mail_outbox (id, kind, owner_id, ticket_ids, reason, created_at, next_attempt_at)
     SELECT id, kind, owner_id, ticket_ids::uuid[], reason, at, at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
            AS u(id, kind, owner_id, ticket_ids, reason, at)
     ON CONFLICT (id) DO NOTHING`,
    [
      mails.map((m) => m.id),
      mails.map((m) => m.kind),
      mails.map((m) => m.ownerId),
      // Each row's ticket ids as one array literal: unnest cannot take arrays of varying length.
      mails.map((m) => `{${(m.ticketIds ?? []).join(',')}}`),
      mails.map((m) => m.reason ?? null),
      mails.map((m) => m.at),
    ],
  );
  return r.rowCount ?? 0;
}

/**
 * Enqueues the mails a query selects, in one statement with it: the query answers the columns
 * `id, kind, owner_id, ticket_ids (uuid[] or null), reason, due, reason_en` and its parameters are
 * `params`.
 * For the jobs that find their mails in the tables (the reminders, the confirmation links, a
 * closure's waitlist mails). Answers how many are new.
 */
export async function enqueueSelectedMails(
  db: Queryable,
  select: string,
  params: readonly unknown[],
): Promise<number> {
  const r = await db.query(
    `INSERT INTO mail_outbox (id, kind, owner_id, ticket_ids, reason, created_at, next_attempt_at, reason_en)
     SELECT m.id, m.kind, m.owner_id, coalesce(m.ticket_ids, '{}'), m.reason, m.due, m.due, m.reason_en
       FROM (${select}) AS m(id, kind, owner_id, ticket_ids, reason, due, reason_en)
     ON CONFLICT (id) DO NOTHING`,
    [...params],
  );
  return r.rowCount ?? 0;
}

/**
 * Enqueues the mail of one ticket of a request, or adds the ticket to it when the request's mail
 * is enqueued already (its id names the request and the owner): a staff cancellation of several
 * tickets, a job round's releases of one owner make one mail. A ticket comes too late for that
 * mail once a sender holds it or has sent it (the reactor reads a large request's events in more
 * than one page, and a sender may run between them): the ticket then gets a mail of its own,
 * never a place in a mail already on its way.
 */
export async function enqueueTicketMail(
  db: Queryable,
  mail: Omit<OutboxMail, 'ticketIds'> & { ticketId: string },
): Promise<void> {
  const values = [
    mail.ticketId,
    mail.ownerId,
    mail.at,
    mail.kind,
    mail.reason ?? null,
    mail.reasonEn ?? null,
    mail.id,
  ];
  const r = await db.query(
    `INSERT INTO mail_outbox AS m (id, kind, owner_id, ticket_ids, created_at, next_attempt_at, reason, reason_en)
     VALUES ($7, $4, $2, ARRAY[$1::uuid], $3, $3, $5, $6)
     ON CONFLICT (id) DO UPDATE SET ticket_ids = array_append(m.ticket_ids, $1::uuid)
      WHERE m.status = 'pending' AND m.lease_owner IS NULL AND NOT $1::uuid = ANY(m.ticket_ids)
     RETURNING m.id`,
    values,
  );
  if ((r.rowCount ?? 0) > 0) return;
  // The request's mail holds the ticket already (the event read again), or is on its way.
  await db.query(
    `INSERT INTO mail_outbox (id, kind, owner_id, ticket_ids, created_at, next_attempt_at, reason, reason_en)
     SELECT $7::text || ':' || $1::text, $4, $2, ARRAY[$1::uuid], $3, $3, $5, $6
      WHERE NOT EXISTS (SELECT 1 FROM mail_outbox WHERE id = $7::text AND $1::uuid = ANY(ticket_ids))
     ON CONFLICT (id) DO NOTHING`,
    values,
  );
}

/** A claimed mail, as the sender reads it. */
export interface ClaimedMail<Kind extends string = string> {
  id: string;
  kind: Kind;
  owner_id: string;
  ticket_ids: string[];
  attempts: number;
  /** Staff's reason (a cancellation's or a closure's), null without one. */
  reason: string | null;
  /** The reason's English text, null without one (then the reason serves both languages). */
  reason_en: string | null;
}

/**
 * Claims the oldest due mail nobody holds (or whose holder's lease ran out) for `lease` until
 * `leasedUntil`: one statement, its own short transaction, committed at once. The row lock (SKIP
 * LOCKED) lasts only as long as the statement; the lease (`leased_until`, `lease_owner`) keeps
 * other senders away while this one talks to SMTP outside any transaction. The outer conditions
 * repeat the inner ones: a row another sender claimed meanwhile is not taken twice.
 */
export async function claimDueMail<Kind extends string>(
  db: Queryable,
  now: Date,
  leasedUntil: Date,
  lease: string,
): Promise<ClaimedMail<Kind> | null> {
  const r = await db.query<ClaimedMail<Kind>>(
    `UPDATE mail_outbox m SET leased_until = $2, lease_owner = $3
      WHERE m.id = (SELECT id FROM mail_outbox
                     WHERE status = 'pending' AND next_attempt_at <= $1
                       AND (leased_until IS NULL OR leased_until <= $1)
                     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        AND m.status = 'pending' AND (m.leased_until IS NULL OR m.leased_until <= $1)
     RETURNING m.id, m.kind, m.owner_id, m.ticket_ids, m.attempts, m.reason, m.reason_en`,
    [now, leasedUntil, lease],
  );
  return r.rows[0] ?? null;
}

/*
 * What became of a claimed mail, recorded only while the lease is still this attempt's (a late
 * result of an expired lease never overwrites another sender's): each answers whether it was.
 */

/** Gives the mail back unchanged (its data could not be loaded). */
export async function releaseMailLease(db: Queryable, id: string, lease: string): Promise<boolean> {
  const r = await db.query(
    'UPDATE mail_outbox SET leased_until = NULL, lease_owner = NULL WHERE id = $1 AND lease_owner = $2',
    [id, lease],
  );
  return (r.rowCount ?? 0) > 0;
}

/** Nothing to send any more (its booking or entry is gone): never tried again. */
export async function skipMail(db: Queryable, id: string, lease: string): Promise<boolean> {
  const r = await db.query(
    `UPDATE mail_outbox SET status = 'skipped', leased_until = NULL, lease_owner = NULL
      WHERE id = $1 AND lease_owner = $2`,
    [id, lease],
  );
  return (r.rowCount ?? 0) > 0;
}

/**
 * A failed attempt: tried again at `nextAttemptAt`. The error text is kept only while the owner
 * still has personal data (an erasure may have run during the attempt; it cleared the owner's
 * errors).
 */
export async function deferMail(
  db: Queryable,
  id: string,
  lease: string,
  nextAttemptAt: Date,
  error: string,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE mail_outbox m SET attempts = attempts + 1, next_attempt_at = $3,
            last_error = CASE WHEN EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = m.owner_id)
                              THEN $4 END,
            leased_until = NULL, lease_owner = NULL
      WHERE id = $1 AND lease_owner = $2`,
    [id, lease, nextAttemptAt, error],
  );
  return (r.rowCount ?? 0) > 0;
}

/** Sent at `at`. */
export async function markMailSent(
  db: Queryable,
  id: string,
  lease: string,
  at: Date,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE mail_outbox SET status = 'sent', sent_at = $3, attempts = attempts + 1,
            leased_until = NULL, lease_owner = NULL
      WHERE id = $1 AND lease_owner = $2`,
    [id, lease, at],
  );
  return (r.rowCount ?? 0) > 0;
}

/**
 * The erasures' part: the error texts of the owners' mails go (an SMTP reply may quote the
 * address); the rows stay, without personal data.
 */
export async function clearMailErrorsOf(db: Queryable, ownerIds: readonly string[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await db.query(
    'UPDATE mail_outbox SET last_error = NULL WHERE owner_id = ANY($1::text[]) AND last_error IS NOT NULL',
    [[...ownerIds]],
  );
}
