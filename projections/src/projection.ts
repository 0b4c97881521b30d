import type { RecordedEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';

/** A read model built from the log. Its changes and its checkpoint commit in one transaction. */
export interface Projection {
  name: string;
  /** Tables it owns: a rebuild empties them and replays the log. */
  tables: string[];
  /** Event types it reacts to; others only move its checkpoint. */
  handles: ReadonlySet<string>;
  apply(client: PoolClient, event: RecordedEvent): Promise<void>;
}
