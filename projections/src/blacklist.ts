import { blacklistStream, handlersFor, appliedBy, type Projection, type Step } from '@rr/events';
import type { PoolClient } from '@rr/platform';

/** Entries by key; the address itself is joined from the write side's blacklist_emails at read time. */
const entries = handlersFor(blacklistStream).with<PoolClient, Step>({
  async BlacklistEntryAdded(e, client) {
    await client.query(
      `INSERT INTO rm_blacklist (entry_key, expired_at, description, version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entry_key) DO UPDATE SET expired_at = EXCLUDED.expired_at, description = EXCLUDED.description, version = EXCLUDED.version`,
      [e.data.entryKey, e.data.expiredAt, e.data.description ?? null, e.streamVersion],
    );
  },
  async BlacklistEntryRemoved(e, client) {
    await client.query('DELETE FROM rm_blacklist WHERE entry_key = $1', [e.data.entryKey]);
  },
});

export const blacklistProjection: Projection = {
  name: 'blacklist',
  derivedOnly: true,
  tables: ['rm_blacklist'],
  ...appliedBy(entries),
};
