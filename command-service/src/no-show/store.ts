import { noShowBlockedUntil, noShowDaysCounted, type LocalDate, type NoShowRule } from '@rr/domain';
import { NoShowBlockLifted, type Actor } from '@rr/events';
import type { Pool, Queryable } from '@rr/platform';
import type { CommandDeps } from '../deps.ts';
import { decisionTime, handleCommand } from '../command.ts';
import { recordNoShowLift } from './record.ts';
import { appendToNoShows, lockNoShows } from '../streams/no-shows.ts';

/**
 * The staff's view of the no-show rule (docs/product.md#no-show-rule): which addresses it blocks
 * now, and lifting a block. The releases (`visitor_no_shows`) follow TicketNoShowReleased; a
 * lift is a command on the key's no-show stream (NoShowBlockLifted), its row beside the releases
 * (`visitor_no_show_lifts`, record.ts) what the rule reads.
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
              WHERE COALESCE(b.subject_key, b.visitor_key) = n.visitor_key AND p.email IS NOT NULL
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
 * not blocked now (nothing to lift). The key's no-show stream is locked, so two lifts take turns.
 */
export async function liftNoShowBlock(
  deps: CommandDeps,
  key: string,
  actor: Actor,
): Promise<{ liftedThrough: LocalDate } | null> {
  const rule = deps.limits.noShowRule;
  if (!rule) return null;
  const { answer } = await handleCommand(deps.store, {
    actor,
    load: async (s) => {
      const version = await lockNoShows(s, key);
      const row = (await blockRows(s.client, key))[0];
      return { version, row, at: decisionTime(deps) };
    },
    decide: ({ row, at }) => {
      const block = row ? blockOf(row, at.today, rule) : null;
      return block
        ? [NoShowBlockLifted.create({ visitorKey: key, liftedThrough: block.noShowDays.at(-1)! })]
        : [];
    },
    appends: (events, { version }) => appendToNoShows(key, version, events),
    record: async (s, events, { at }) => {
      for (const e of events)
        await recordNoShowLift(s, {
          visitorKey: key,
          liftedThrough: e.data.liftedThrough,
          actor,
          at: at.now,
        });
    },
    answer: (events) => (events[0] ? { liftedThrough: events[0].data.liftedThrough } : null),
  });
  return answer;
}
