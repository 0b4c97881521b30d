import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Each existing room's state after its events, written in the transaction that appends them
      -- (command-service/src/write-state.ts, by the same evolveRoom a fold uses). Cart commands
      -- decide the booking window on it, with holiday_state, and name the rooms of the cart from
      -- it; the room order command moves sort_order. Before this, they read the rooms read model
      -- (rm_rooms), which a projection fills after the commit.
      CREATE TABLE room_state (
        room_id          uuid PRIMARY KEY,
        version          integer NOT NULL CHECK (version >= 1),
        name             text NOT NULL,
        has_image        boolean NOT NULL,
        open_start_type  text NOT NULL,
        open_start_value integer NOT NULL,
        open_end_type    text NOT NULL,
        open_end_value   integer NOT NULL,
        sort_order       integer NOT NULL
      );
      -- Filled from the room streams: a room's last RoomCreated/RoomUpdated names its details,
      -- its version is its number of events, a deleted room has no row. The order is the last
      -- RoomOrderChanged's, rooms it does not name after them in the order of their creation
      -- (as the rooms projection orders them).
      WITH rooms AS (
        SELECT substr(stream_id, 6)::uuid AS room_id, count(*)::int AS version,
               bool_or(event_type = 'RoomDeleted') AS deleted,
               (array_agg(data ORDER BY stream_version DESC)
                  FILTER (WHERE event_type IN ('RoomCreated', 'RoomUpdated')))[1] AS details,
               (array_agg(event_type ORDER BY stream_version DESC)
                  FILTER (WHERE event_type IN ('RoomImageSet', 'RoomImageRemoved')))[1] AS image,
               min(global_position) FILTER (WHERE event_type = 'RoomCreated') AS created
          FROM events WHERE stream_id ~ '^room-[0-9a-f-]{36}$' GROUP BY stream_id
      ),
      listed AS (
        SELECT o.id::uuid AS room_id, o.idx
          FROM (SELECT data FROM events WHERE stream_id = 'room-order'
                 ORDER BY stream_version DESC LIMIT 1) last,
               jsonb_array_elements_text(last.data->'roomIds') WITH ORDINALITY AS o(id, idx)
      )
      INSERT INTO room_state (room_id, version, name, has_image, open_start_type, open_start_value,
                              open_end_type, open_end_value, sort_order)
      SELECT r.room_id, r.version, r.details->>'name', coalesce(r.image = 'RoomImageSet', false),
             r.details->'openStart'->>'type', (r.details->'openStart'->>'value')::int,
             r.details->'openEnd'->>'type', (r.details->'openEnd'->>'value')::int,
             (row_number() OVER (ORDER BY l.idx NULLS LAST, r.created, r.room_id) - 1)::int
        FROM rooms r LEFT JOIN listed l ON l.room_id = r.room_id
       WHERE NOT r.deleted AND r.details IS NOT NULL;
    `);
}
