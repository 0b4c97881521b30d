import { blacklistStreamId, type Actor, type StoreSession } from '@rr/events';
import {
  decideBlacklist,
  evolveBlacklist,
  initialBlacklistState,
  type BlacklistCommand,
  type BlacklistState,
} from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { foldStream, handleCommand, streamAppend } from '../command.ts';

/**
 * The blacklist entry streams (`blacklist-<key>`, one per keyed e-mail address): their loader,
 * which the booking and the waitlist also decide on, and the commands run on them.
 */

/** An entry's stream, folded (its writers hold its lock). */
export async function loadBlacklistEntry(
  s: StoreSession,
  entryKey: string,
): Promise<BlacklistState> {
  const { events } = await s.readStream(blacklistStreamId(entryKey));
  return foldStream(events, evolveBlacklist, initialBlacklistState);
}

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
    appends: (events, state) => streamAppend(streamId, 'blacklist', state.version, events),
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
