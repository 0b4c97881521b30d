import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Locks stream rows in byte order, then reads their events after the given versions (a
      -- writer that has folded a stream up to a version reads only the rest): one round trip.
      -- The read is a statement of its own inside the function, so in READ COMMITTED it takes a
      -- new snapshot after the locks are granted and sees what the writers it waited for wrote
      -- (one SELECT ... FOR UPDATE joined to events would read them from its older snapshot).
      CREATE FUNCTION rr_lock_read_streams(ids text[], after bigint[])
        RETURNS TABLE (tx text, gp text, stream_id text, stream_version text, event_id uuid,
                       event_type text, data jsonb, metadata jsonb, created_at timestamptz)
        LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM 1 FROM streams s WHERE s.stream_id = ANY(ids)
          ORDER BY s.stream_id COLLATE "C" FOR UPDATE;
        RETURN QUERY
          SELECT e.transaction_id::text, e.global_position::text, e.stream_id,
                 e.stream_version::text, e.event_id, e.event_type, e.data, e.metadata, e.created_at
            FROM unnest(ids, after) AS a(id, v)
            JOIN events e ON e.stream_id = a.id AND e.stream_version > a.v
           ORDER BY e.stream_id, e.stream_version;
      END $$;
    `);
}
