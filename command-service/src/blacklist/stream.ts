import {
  asStreamEvents,
  blacklistStreamId,
  type Actor,
  type BlacklistEvent,
  type RecordedEvent,
} from '@rr/events';
import { decideBlacklist, type BlacklistCommand } from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { appendToBlacklist, foldBlacklistEntry, loadBlacklistEntry } from '../streams/blacklist.ts';
export { loadBlacklistEntry, readBlacklistEntry } from '../streams/blacklist.ts';

/**
 * The blacklist entry streams (`blacklist-<key>`, one per keyed e-mail address): their loader,
 * which the booking and the waitlist also decide on, and the commands run on them.
 */

/**
 * Runs a blacklist command on the entry of a (normalised) address: the entry's stream is locked
 * and folded. The address itself lives beside the log in `blacklist_emails`: written with an
 * addition, deleted with a removal (personal data: never in an event). Answers the position.
 */
export async function runBlacklistCommand(
  deps: CommandDeps,
  actor: Actor,
  email: string,
  command: (entryKey: string) => BlacklistCommand,
): Promise<string> {
  const entryKey = deps.emailKey(email);
  const streamId = blacklistStreamId(entryKey);
  const decided = command(entryKey);
  const { position } = await handleCommand(deps.store, {
    actor,
    load: async (s) => {
      await s.lockStream(streamId);
      return loadBlacklistEntry(s, entryKey);
    },
    decide: (state) => decideBlacklist(decided, state, null),
    appends: (events, state) => appendToBlacklist(entryKey, state, events),
    record: async (s) => {
      if (decided.type === 'AddEntry')
        await s.client.query(
          'INSERT INTO blacklist_emails (entry_key, email) VALUES ($1, $2) ON CONFLICT (entry_key) DO UPDATE SET email = EXCLUDED.email',
          [entryKey, email],
        );
      if (decided.type === 'RemoveEntry')
        await s.client.query('DELETE FROM blacklist_emails WHERE entry_key = $1', [entryKey]);
    },
    answer: () => null,
  });
  return position;
}

/**
 * Moves an entry stored under an older key of its address to the address's key now (the keys
 * fold `+tag` and Gmail's dots, docs/product.md#one-person-one-key): the old stream's entry is
 * removed and the new one added with its expiry and note, or, when the new key holds an entry
 * already (the same person's other spelling), that entry keeps the later of the two expiries.
 * Decided by the blacklist's own decider on both streams, in one transaction with the row of
 * `blacklist_emails`, so a second run (another process) finds nothing to move. Answers whether
 * it moved anything.
 */
export async function moveBlacklistEntry(
  deps: CommandDeps,
  oldKey: string,
  email: string,
): Promise<boolean> {
  const newKey = deps.emailKey(email);
  if (newKey === oldKey) return false;
  const oldStream = blacklistStreamId(oldKey);
  const newStream = blacklistStreamId(newKey);
  const { answer } = await handleCommand(deps.store, {
    actor: { kind: 'system', job: 'visitor-rekeying' },
    load: async (s) => {
      const streams = await s.lockAndReadStreams([oldStream, newStream]);
      const row = await s.client.query('SELECT 1 FROM blacklist_emails WHERE entry_key = $1', [
        oldKey,
      ]);
      const fold = (id: string) => foldBlacklistEntry(streams.get(id) ?? []);
      return {
        stored: (row.rowCount ?? 0) > 0,
        from: fold(oldStream),
        to: fold(newStream),
        description: lastDescription(streams.get(oldStream) ?? []),
      };
    },
    decide: ({ stored, from, to, description }) => {
      if (!stored || !from.active || from.expiredAt === null) return { from: [], to: [] };
      const entry = { entryKey: newKey, expiredAt: from.expiredAt, description };
      const later = to.active && to.expiredAt !== null && to.expiredAt >= from.expiredAt;
      return {
        from: decideBlacklist({ type: 'RemoveEntry', data: { entryKey: oldKey } }, from, null),
        to: !to.active
          ? decideBlacklist({ type: 'AddEntry', data: entry }, to, null)
          : later
            ? []
            : decideBlacklist({ type: 'ChangeEntry', data: entry }, to, null),
      };
    },
    appends: (d, state) => [
      ...appendToBlacklist(oldKey, state.from, d.from),
      ...appendToBlacklist(newKey, state.to, d.to),
    ],
    record: async (s, d) => {
      if (d.from.length === 0) return;
      // The address stays as typed; one row per key: the other spelling's row, if any, stays.
      await s.client.query(
        `WITH moved AS (DELETE FROM blacklist_emails WHERE entry_key = $1 RETURNING email)
         INSERT INTO blacklist_emails (entry_key, email) SELECT $2, email FROM moved
         ON CONFLICT (entry_key) DO NOTHING`,
        [oldKey, newKey],
      );
    },
    answer: (d) => d.from.length > 0,
  });
  return answer;
}

/** The note of the entry's last addition (the state keeps only what bookings decide on). */
function lastDescription(events: readonly RecordedEvent[]): string | undefined {
  let description: string | undefined;
  for (const e of asStreamEvents<BlacklistEvent>(events))
    if (e.type === 'BlacklistEntryAdded') description = e.data.description;
  return description;
}
