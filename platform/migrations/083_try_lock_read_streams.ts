import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- The stream locks of a command in a commit group (several commands' appends in one
      -- transaction): a group never waits for a lock, so it can never be part of a deadlock while
      -- it holds the locks of its earlier members. Each stream's lock is tried; when one is held
      -- by another transaction the function answers a single row of nulls (no events are read)
      -- and the command leaves the group to run alone. The locks it got stay until the group's
      -- commit or rollback (a transaction's advisory locks cannot be given back one by one),
      -- which only holds those streams' writers a moment longer. Otherwise as
      -- rr_lock_read_streams (migrations 043 and 060), whose plan settings it shares.
      CREATE FUNCTION rr_try_lock_read_streams(ids text[], after bigint[])
        RETURNS TABLE (tx text, gp text, stream_id text, stream_version text, event_id uuid,
                       event_type text, data jsonb, metadata jsonb, created_at timestamptz)
        LANGUAGE plpgsql VOLATILE
        SET plan_cache_mode = force_generic_plan
        SET enable_seqscan = off
        SET enable_hashjoin = off
        SET enable_mergejoin = off
      AS $$
      DECLARE
        sid text;
        h bigint;
      BEGIN
        FOREACH sid IN ARRAY ids LOOP
          h := hashtextextended(sid, 0);
          IF NOT pg_try_advisory_xact_lock((h >> 32)::int, ((h << 32) >> 32)::int) THEN
            RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::text, NULL::uuid,
                                NULL::text, NULL::jsonb, NULL::jsonb, NULL::timestamptz;
            RETURN;
          END IF;
        END LOOP;
        RETURN QUERY
          SELECT e.transaction_id::text, e.global_position::text, e.stream_id,
                 e.stream_version::text, e.event_id, e.event_type, e.data, e.metadata, e.created_at
            FROM unnest(ids, after) AS a(id, v)
            JOIN events e ON e.stream_id = a.id AND e.stream_version > a.v
           ORDER BY e.stream_id, e.stream_version;
      END $$;
      -- One stream's lock tried: its version (null: no stream yet), or -1 when another
      -- transaction holds it (see rr_try_lock_read_streams).
      CREATE FUNCTION rr_try_lock_stream(id text) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        h bigint := hashtextextended(id, 0);
        v bigint;
      BEGIN
        IF NOT pg_try_advisory_xact_lock((h >> 32)::int, ((h << 32) >> 32)::int) THEN
          RETURN -1;
        END IF;
        SELECT s.version INTO v FROM streams s WHERE s.stream_id = id;
        RETURN v;
      END $$;
    `);
}
