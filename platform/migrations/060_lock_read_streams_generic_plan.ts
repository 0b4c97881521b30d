import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- rr_lock_read_streams planned its read of the events on every call (force_custom_plan),
      -- so that no statistics could choose a scan of the whole log. With every join method but
      -- the nested loop and the sequential scan switched off for the function, the one plan left
      -- is the nested loop over the given ids with the primary key of events, whatever the
      -- statistics: it is planned once per connection and kept (about 60 microseconds of
      -- PostgreSQL's time less per command that locks streams). Same signature and result.
      CREATE OR REPLACE FUNCTION rr_lock_read_streams(ids text[], after bigint[])
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
        -- In the order given: StoreSession sorts the ids (byte order), a cart before its slots.
        FOREACH sid IN ARRAY ids LOOP
          h := hashtextextended(sid, 0);
          PERFORM pg_advisory_xact_lock((h >> 32)::int, ((h << 32) >> 32)::int);
        END LOOP;
        RETURN QUERY
          SELECT e.transaction_id::text, e.global_position::text, e.stream_id,
                 e.stream_version::text, e.event_id, e.event_type, e.data, e.metadata, e.created_at
            FROM unnest(ids, after) AS a(id, v)
            JOIN events e ON e.stream_id = a.id AND e.stream_version > a.v
           ORDER BY e.stream_id, e.stream_version;
      END $$;
    `);
}
