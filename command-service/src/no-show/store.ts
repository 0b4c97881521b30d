import { noShowBlockedUntil, noShowDaysCounted, type LocalDate, type NoShowRule } from '@rr/domain';
import type { Actor } from '@rr/events';
import { inTransaction, type Pool, type Queryable } from '@rr/platform';

/**
 * The staff's view of the no-show rule (docs/product.md#no-show-rule): which addresses it blocks
 * now, and lifting a block. The releases (`visitor_no_shows`) follow TicketNoShowReleased and are
 * no stream of their own, so a lift is a row beside them (`visitor_no_show_lifts`) naming its
 * actor and time.
 */
export interface NoShowBlock {
  key: string;
  /** The address as the key's latest booking stored it; null once its personal data is erased. */
  email: string | null;
  /** The release days the rule counts (those after an earlier lift). */
  noShowDays: LocalDate[];
  blockedUntil: LocalDate;
}

interface Row {
  visitor_key: string;
  days: LocalDate[];
  lifted_through: LocalDate | null;
  email: string | null;
}

async function blockRows(db: Queryable, key?: string): Promise<Row[]> {
  const r = await db.query<Row>(
    `SELECT n.visitor_key,
            array_agg(to_char(n.date, 'YYYY-MM-DD') ORDER BY n.date) AS days,
            to_char(l.lifted_through, 'YYYY-MM-DD') AS lifted_through,
            (SELECT p.email FROM bookings b JOIN personal_data p ON p.owner_id = b.owner_id
              WHERE b.visitor_key = n.visitor_key AND p.email IS NOT NULL
              ORDER BY b.created_at DESC LIMIT 1) AS email
       FROM visitor_no_shows n
       LEFT JOIN visitor_no_show_lifts l ON l.visitor_key = n.visitor_key
      WHERE $1::text IS NULL OR n.visitor_key = $1
      GROUP BY n.visitor_key, l.lifted_through`,
    [key ?? null],
  );
  return r.rows;
}

function blockOf(row: Row, today: LocalDate, rule: NoShowRule | undefined): NoShowBlock | null {
  const noShowDays = noShowDaysCounted(row.days, row.lifted_through);
  const blockedUntil = noShowBlockedUntil(noShowDays, today, rule);
  if (blockedUntil === null) return null;
  return { key: row.visitor_key, email: row.email, noShowDays, blockedUntil };
}

/** The addresses the rule blocks as of today, the longest-blocked first. */
export async function listNoShowBlocks(
  pool: Pool,
  today: LocalDate,
  rule: NoShowRule | undefined,
): Promise<NoShowBlock[]> {
  if (!rule) return [];
  const blocks = (await blockRows(pool))
    .map((row) => blockOf(row, today, rule))
    .filter((b): b is NoShowBlock => b !== null);
  return blocks.sort(
    (a, b) =>
      b.blockedUntil.localeCompare(a.blockedUntil) || (a.email ?? '').localeCompare(b.email ?? ''),
  );
}

/**
 * Lifts the block of a key: its releases up to the last one no longer count. Null when the key is
 * not blocked now (nothing to lift). The key's row is locked so that two lifts take turns.
 */
export async function liftNoShowBlock(
  pool: Pool,
  key: string,
  actor: Actor,
  now: Date,
  today: LocalDate,
  rule: NoShowRule | undefined,
): Promise<{ liftedThrough: LocalDate } | null> {
  if (!rule) return null;
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`no-show-lift:${key}`]);
    const row = (await blockRows(client, key))[0];
    const block = row ? blockOf(row, today, rule) : null;
    if (!block) return null;
    const liftedThrough = block.noShowDays[block.noShowDays.length - 1]!;
    await client.query(
      `INSERT INTO visitor_no_show_lifts (visitor_key, lifted_through, actor, lifted_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (visitor_key) DO UPDATE
         SET lifted_through = EXCLUDED.lifted_through, actor = EXCLUDED.actor,
             lifted_at = EXCLUDED.lifted_at`,
      [key, liftedThrough, JSON.stringify(actor), now],
    );
    return { liftedThrough };
  });
}
