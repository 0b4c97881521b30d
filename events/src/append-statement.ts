import { randomUUID } from 'node:crypto';
import type { AppendOptions, SessionStore } from './session.ts';
import { ConcurrencyError, type AppendRequest, type EventMetadata } from './types.ts';

/**
 * The statements of an append to streams new or locked by the session: one statement claims
 * the streams at their versions and writes the events; a stream not at its version is told
 * apart by what the statement answers, or by the database's error when nothing waits for it.
 */

/** The rows of an append's events, column by column, as the statements bind them. */
export interface EventColumns {
  stream: string[];
  version: string[];
  id: string[];
  type: string[];
  data: string[];
  meta: string[];
}

export const eventColumnsOf = (c: EventColumns) => [
  c.stream,
  c.version,
  c.id,
  c.type,
  c.data,
  c.meta,
];

/**
 * The one statement of an append to streams new or locked: the streams' rows claimed at their
 * versions, and the events written when `claimedAll` (SQL over the CTE `claimed`) holds.
 */
export const claimedAppend = (claimedAll: string) => `WITH v AS (
           SELECT * FROM unnest($7::text[], $8::text[], $9::bigint[], $10::bigint[])
             AS v(stream_id, stream_type, expected, n)
         ),
         upd AS (
           UPDATE streams s SET version = s.version + v.n FROM v
            WHERE v.expected > 0 AND s.stream_id = v.stream_id AND s.version = v.expected
           RETURNING s.stream_id
         ),
         ins AS (
           INSERT INTO streams (stream_id, stream_type, version)
           SELECT stream_id, stream_type, n FROM v WHERE expected = 0 ORDER BY stream_id COLLATE "C"
           ON CONFLICT (stream_id) DO NOTHING
           RETURNING stream_id
         ),
         claimed AS (SELECT stream_id FROM upd UNION ALL SELECT stream_id FROM ins),
         ev AS (
           INSERT INTO events (stream_id, stream_version, event_id, event_type, data, metadata, created_at)
           SELECT u.*, $12::timestamptz
             FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) AS u
            WHERE ${claimedAll}
           RETURNING transaction_id::text AS tx, global_position::text AS gp
         )
         SELECT tx, gp, NULL AS claimed FROM ev
         UNION ALL SELECT NULL, NULL, stream_id FROM claimed`;

export const claimedAppendValues = (
  requests: AppendRequest[],
  startVersions: ReadonlyMap<string, number>,
  columns: EventColumns,
  recordedAt: Date,
) => [
  ...eventColumnsOf(columns),
  requests.map((r) => r.streamId),
  requests.map((r) => r.streamType),
  requests.map((r) => String(startVersions.get(r.streamId) ?? 0)),
  requests.map((r) => String(r.events.length)),
  requests.length,
  recordedAt,
];

/** The ConcurrencyError of a stream that was not at its version (rr_require_claimed, migration 059). */
export function concurrencyErrorOf(
  err: unknown,
  requests: AppendRequest[],
): ConcurrencyError | null {
  const e = err as { code?: string; detail?: string };
  if (e.code !== 'RRV01' || !e.detail) return null;
  const { stream, version } = JSON.parse(e.detail) as { stream: string; version: number | null };
  const missed = requests.find((r) => r.streamId === stream);
  return missed ? new ConcurrencyError(stream, missed.expectedVersion, version) : null;
}

/** The events' rows, column by column, checked against the catalogue, with their metadata. */
export function eventColumnsFor(
  store: Pick<SessionStore, 'validate'>,
  requests: AppendRequest[],
  startVersions: ReadonlyMap<string, number>,
  options: AppendOptions,
): EventColumns {
  const cols: EventColumns = { stream: [], version: [], id: [], type: [], data: [], meta: [] };
  const correlationId = options.metadata.correlationId ?? randomUUID();
  for (const req of requests) {
    let v = startVersions.get(req.streamId) ?? 0;
    for (const e of req.events) {
      const checked = store.validate(e);
      v += 1;
      const metadata: EventMetadata = {
        correlationId,
        causationId: options.metadata.causationId ?? null,
        actor: options.metadata.actor,
        schemaVersion: checked.schemaVersion,
        ...e.metadata,
      };
      cols.stream.push(req.streamId);
      cols.version.push(String(v));
      cols.id.push(e.eventId ?? randomUUID());
      cols.type.push(e.type);
      cols.data.push(JSON.stringify(checked.data));
      cols.meta.push(JSON.stringify(metadata));
    }
  }
  return cols;
}
