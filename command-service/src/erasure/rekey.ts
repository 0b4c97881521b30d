import {
  asStreamEvents,
  BookingRekeyed,
  rekeyingStreamId,
  visitorStreamId,
  WaitlistEntryRekeyed,
  type RecordedEvent,
  type VisitorEvent,
} from '@rr/events';
import { DOT_FOLDING_DOMAINS, evolveVisitor, initialVisitor, moveVisitorTickets } from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { decisionTime, foldStream, handleCommand } from '../command.ts';
import { moveBlacklistEntry } from '../blacklist/stream.ts';
import { appendToVisitor } from '../streams/visitor.ts';
import { appendToRekeying, lockRekeying } from '../streams/rekeying.ts';

/**
 * Addresses whose key a fold may change (docs/product.md#one-person-one-key): a sub-address, or a
 * domain whose dots fold ($1). Every other address keeps the key it had, so only these are read.
 */
const foldable = (column: string) =>
  `(${column} LIKE '%+%' OR substring(${column} from '@([^@]*)$') = ANY($1::text[]))`;

/**
 * Re-keys what is stored beside the log under an older key of an address, while the address is
 * still known (before its erasure): blacklist entries (moved between their streams), bookings
 * (their tickets still to come moved between the visitor streams; BookingRekeyed moves the row's
 * `visitor_key` and its no-show releases) and waitlist entries (WaitlistEntryRekeyed moves the
 * row's `visitor_key`). The re-keying events go to the older key's re-keying stream; their
 * inline projections move the rows. Idempotent and safe beside a second process: each move is a
 * command on the streams it changes, and a row already re-keyed is skipped. Events already
 * written keep the key they were written with (docs/product.md#one-person-one-key).
 * Answers how many rows it re-keyed.
 */
export async function rekeyStoredAddresses(deps: CommandDeps): Promise<number> {
  let moved = 0;
  const blacklisted = await deps.pool.query<{ entry_key: string; email: string }>(
    `SELECT entry_key, email FROM blacklist_emails WHERE ${foldable('email')}`,
    [DOT_FOLDING_DOMAINS],
  );
  for (const r of blacklisted.rows)
    if (
      deps.emailKey(r.email) !== r.entry_key &&
      (await moveBlacklistEntry(deps, r.entry_key, r.email))
    )
      moved += 1;

  const booked = await deps.pool.query<{ owner_id: string; visitor_key: string; email: string }>(
    `SELECT b.owner_id, b.visitor_key, p.email FROM bookings b JOIN personal_data p ON p.owner_id = b.owner_id
      WHERE b.subject_key IS NULL AND ${foldable('p.email')}`,
    [DOT_FOLDING_DOMAINS],
  );
  for (const r of booked.rows) {
    const newKey = deps.emailKey(r.email);
    if (newKey !== r.visitor_key && (await moveBooking(deps, r.owner_id, r.visitor_key, newKey)))
      moved += 1;
  }

  const waiting = await deps.pool.query<{ entry_id: string; visitor_key: string; email: string }>(
    `SELECT entry_id, visitor_key, email FROM waitlist_entries
      WHERE subject_key IS NULL AND email IS NOT NULL AND ${foldable('email')}`,
    [DOT_FOLDING_DOMAINS],
  );
  for (const r of waiting.rows) {
    const newKey = deps.emailKey(r.email);
    if (
      newKey !== r.visitor_key &&
      (await moveWaitlistEntry(deps, r.entry_id, r.visitor_key, newKey))
    )
      moved += 1;
  }
  if (moved) deps.logger.info({ moved }, 'stored addresses re-keyed');
  return moved;
}

/**
 * One booking to the key of its address now: its tickets still to come, its row and its no-show
 * releases (BookingRekeyed).
 */
async function moveBooking(
  deps: CommandDeps,
  ownerId: string,
  oldKey: string,
  newKey: string,
): Promise<boolean> {
  const oldStream = visitorStreamId(oldKey);
  const newStream = visitorStreamId(newKey);
  const rekeying = rekeyingStreamId(oldKey);
  const { answer } = await handleCommand(deps.store, {
    actor: { kind: 'system', job: 'visitor-rekeying' },
    load: async (s) => {
      const streams = await s.lockAndReadStreams([oldStream, newStream, rekeying]);
      const row = await s.client.query<{ visitor_key: string }>(
        'SELECT visitor_key FROM bookings WHERE owner_id = $1 FOR UPDATE',
        [ownerId],
      );
      const fromEvents = streams.get(oldStream) ?? [];
      return {
        current: row.rows[0]?.visitor_key === oldKey,
        from: foldStream(fromEvents, evolveVisitor, initialVisitor),
        to: foldStream(streams.get(newStream) ?? [], evolveVisitor, initialVisitor),
        // Read from its start: its version is its length.
        rekeyingVersion: (streams.get(rekeying) ?? []).length,
        ticketIds: ticketsOf(fromEvents, ownerId),
      };
    },
    decide: (state) =>
      state.current
        ? {
            ...moveVisitorTickets(state.from, ownerId, state.ticketIds, decisionTime(deps).today),
            rekeyed: [BookingRekeyed.create({ ownerId, visitorKey: newKey })],
          }
        : { from: [], to: [], rekeyed: [] },
    appends: (d, state) => [
      ...appendToVisitor(oldKey, state.from, d.from),
      ...appendToVisitor(newKey, state.to, d.to),
      ...appendToRekeying(oldKey, state.rekeyingVersion, d.rekeyed),
    ],
    answer: (_d, state) => state.current,
  });
  return answer;
}

/** One waitlist entry to the key of its address now (WaitlistEntryRekeyed). */
async function moveWaitlistEntry(
  deps: CommandDeps,
  entryId: string,
  oldKey: string,
  newKey: string,
): Promise<boolean> {
  const { answer } = await handleCommand(deps.store, {
    actor: { kind: 'system', job: 'visitor-rekeying' },
    load: async (s) => {
      const version = await lockRekeying(s, oldKey);
      const row = await s.client.query<{ visitor_key: string }>(
        'SELECT visitor_key FROM waitlist_entries WHERE entry_id = $1 FOR UPDATE',
        [entryId],
      );
      return { version, current: row.rows[0]?.visitor_key === oldKey };
    },
    decide: ({ current }) =>
      current ? [WaitlistEntryRekeyed.create({ entryId, visitorKey: newKey })] : [],
    appends: (events, { version }) => appendToRekeying(oldKey, version, events),
    answer: (events) => events.length > 0,
  });
  return answer;
}

/** The ticket ids a booking put on a visitor stream. */
function ticketsOf(events: readonly RecordedEvent[], ownerId: string): Set<string> {
  const ids = new Set<string>();
  for (const e of asStreamEvents<VisitorEvent>(events))
    if (e.type === 'VisitorTicketsBooked' && e.data.ownerId === ownerId)
      for (const t of e.data.tickets) ids.add(t.ticketId);
  return ids;
}
