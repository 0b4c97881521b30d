import type { EventMetadata, RecordedEvent } from './types.ts';
import type { Upcasters } from './upcasting.ts';

/** A row of the `events` table as the store's reads select it (`SELECT_EVENT`). */
export interface EventRow {
  tx: string;
  gp: string;
  stream_id: string;
  stream_version: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: EventMetadata;
  created_at: Date;
}

/** The columns of an `EventRow`; positions and versions as text (they may pass 2^53). */
export const SELECT_EVENT = `transaction_id::text AS tx, global_position::text AS gp, stream_id,
  stream_version::text AS stream_version, event_id, event_type, data, metadata, created_at`;

/**
 * The query of events after a position ($1, $2) in commit order, up to $3, gap-safe: only those of
 * transactions below the oldest still-running one. ORDER BY names the table's columns (the output
 * has text aliases), so it runs on the commit-order index.
 */
export function visibleAfter(extraColumns = ''): string {
  return `SELECT ${SELECT_EVENT}${extraColumns} FROM events
  WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY events.transaction_id, events.global_position
  LIMIT $3`;
}

/** A row as the event it records, its data upcast to the type's newest schema version. */
export function toRecorded(row: EventRow, upcasters: Upcasters): RecordedEvent {
  const version = row.metadata.schemaVersion ?? 1;
  const up = upcasters.upcast(row.event_type, version, row.data);
  return {
    type: row.event_type,
    data: up.data,
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: Number(row.stream_version),
    position: { tx: BigInt(row.tx), gp: BigInt(row.gp) },
    metadata: { ...row.metadata, schemaVersion: up.version },
    createdAt: row.created_at,
  };
}
