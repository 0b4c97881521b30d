import { asStreamEvent, type BlacklistEvent, type RecordedEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

/** Entries by key; the address itself is joined from the write side's blacklist_emails at read time. */
export const blacklistProjection: Projection = {
  name: 'blacklist',
  derivedOnly: true,
  tables: ['rm_blacklist'],
  handles: new Set(['BlacklistEntryAdded', 'BlacklistEntryRemoved']),
  async apply(client: PoolClient, event: RecordedEvent): Promise<void> {
    const e = asStreamEvent<BlacklistEvent>(event);
    switch (e.type) {
      case 'BlacklistEntryAdded':
        await client.query(
          `INSERT INTO rm_blacklist (entry_key, expired_at, description, version) VALUES ($1, $2, $3, $4)
           ON CONFLICT (entry_key) DO UPDATE SET expired_at = EXCLUDED.expired_at, description = EXCLUDED.description, version = EXCLUDED.version`,
          [e.data.entryKey, e.data.expiredAt, e.data.description ?? null, event.streamVersion],
        );
        return;
      case 'BlacklistEntryRemoved':
        await client.query('DELETE FROM rm_blacklist WHERE entry_key = $1', [e.data.entryKey]);
        return;
    }
  },
};
