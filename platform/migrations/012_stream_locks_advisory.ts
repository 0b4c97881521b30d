import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Stream locks are transaction-scoped advisory locks on a 64-bit hash of the stream id
      -- instead of SELECT ... FOR UPDATE on the stream row. Writers still queue in the same order.
      -- The hash is given as two 32-bit keys: that key space is apart from the one-key locks of
      -- the migrations and the projection runners, so a stream can never wait on those.
      -- A row lock gives the transaction its id at the lock, so every command held back the
      -- projections' gap-safe reads (events at or above the oldest running transaction id wait)
      -- from its lock to its commit; an advisory lock needs no transaction id and writes no WAL,
      -- so a command takes its id only when it appends. Streams that do not exist yet can be
      -- locked too. Every writer that moves an existing stream's version takes the lock first
      -- (StoreSession), so a locked stream's version cannot move under its holder.
      -- rr_lock_read_streams plans its read on every call (plan_cache_mode): PL/pgSQL caches the
      -- plans of a function's statements per connection, and after five calls it keeps a generic
      -- plan if that looks no dearer. A generic plan made while the events table was still small
      -- is a hash join over a sequential scan of events, and a pooled connection kept it while the
      -- log grew: 750 buffer reads and 12 ms per cart command in the benchmark on a new database
      -- (auto_explain shows the plan). Planning each call for its actual stream ids costs far less
      -- and always finds the primary key.
      CREATE FUNCTION rr_lock_stream(id text) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        h bigint := hashtextextended(id, 0);
        v bigint;
      BEGIN
        PERFORM pg_advisory_xact_lock((h >> 32)::int, ((h << 32) >> 32)::int);
        -- A statement of its own: in READ COMMITTED it reads after the lock was granted.
        SELECT s.version INTO v FROM streams s WHERE s.stream_id = id;
        RETURN v;
      END $$;
      CREATE OR REPLACE FUNCTION rr_lock_read_streams(ids text[], after bigint[])
        RETURNS TABLE (tx text, gp text, stream_id text, stream_version text, event_id uuid,
                       event_type text, data jsonb, metadata jsonb, created_at timestamptz)
        LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_custom_plan AS $$
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
