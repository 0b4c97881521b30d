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

/**
 * The columns of an `EventRow`, each as selected from `events` and by its name in the row;
 * positions and versions as text (they may pass 2^53).
 */
const EVENT_COLUMNS: readonly (readonly [selected: string, name: keyof EventRow])[] = [
  ['transaction_id::text', 'tx'],
  ['global_position::text', 'gp'],
  ['stream_id', 'stream_id'],
  ['stream_version::text', 'stream_version'],
  ['event_id', 'event_id'],
  ['event_type', 'event_type'],
  ['data', 'data'],
  ['metadata', 'metadata'],
  ['created_at', 'created_at'],
];

/** The select list of an `EventRow` from `events`. */
export const SELECT_EVENT = EVENT_COLUMNS.map(([selected, name]) =>
  selected === name ? name : `${selected} AS ${name}`,
).join(', ');

/** The columns of an `EventRow` by their names (outside the query that selects them). */
const EVENT_ROW_COLUMNS = EVENT_COLUMNS.map(([, name]) => name).join(', ');

/**
 * The first transaction id a gap-safe read may not read past, in the statement's snapshot: the
 * oldest still running, not counting those given in $4 (ids of transactions that append no
 * events, see NonAppenders), or the next id to be given when none is. Every transaction below it
 * has ended, or never appends an event, so nothing can appear below it later. (A null list
 * counts as none: compared with null, every id would be left out, the horizon would jump to the
 * snapshot's end, and a running appender's events would be skipped.)
 */
const HORIZON = `COALESCE(
    (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
      WHERE x <> ALL (COALESCE($4::xid8[], '{}'))),
    pg_snapshot_xmax(pg_current_snapshot()))`;

/**
 * The query of events after a position ($1, $2) in commit order, up to $3, gap-safe: only those of
 * transactions below the horizon (HORIZON, ignoring the ids in $4). ORDER BY names the table's
 * columns (the output has text aliases), so it runs on the commit-order index.
 */
export function visibleAfter(extraColumns = ''): string {
  return `SELECT ${SELECT_EVENT}${extraColumns} FROM events
  WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    AND transaction_id < ${HORIZON}
  ORDER BY events.transaction_id, events.global_position
  LIMIT $3`;
}

/**
 * Events after the position ($1, $2) that the horizon holds back (one row at most, if any), as a
 * row of an `EventRow`'s columns and `extraColumns` more, all NULL, then `held`.
 */
export const heldBackAfter = (extraColumns = 0) => `SELECT ${'NULL, '.repeat(
  EVENT_COLUMNS.length + extraColumns,
)}true
  FROM events
  WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
    AND transaction_id >= ${HORIZON}
  ORDER BY events.transaction_id, events.global_position
  LIMIT 1`;

/**
 * visibleAfter for a reader of some event types only (an outbox reactor, which handles few of the
 * events it reads): of the page of $3 events read, only those of the types in $5 come back, and
 * the page's last one whatever its type (the reader's position moves past the page), each with
 * its number in the page (`n`: the last one's tells whether the page was full). The other events
 * are neither formatted by the database nor parsed by the reader.
 */
export const visibleOfTypesAfter = () => `SELECT ${EVENT_ROW_COLUMNS}, n, false AS held
  FROM (SELECT page.*, row_number() OVER w AS n, lead(page.ogp) OVER w IS NULL AS last
          FROM (${visibleAfter(', events.transaction_id AS otx, events.global_position AS ogp')})
            AS page
        WINDOW w AS (ORDER BY page.otx, page.ogp)) AS numbered
  WHERE event_type = ANY($5::text[]) OR last
  ORDER BY otx, ogp`;

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
