import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      CREATE TABLE streams (
        stream_id   text PRIMARY KEY,
        stream_type text NOT NULL,
        version     bigint NOT NULL CHECK (version >= 0)
      );
      CREATE SEQUENCE events_global_position_seq;
      CREATE TABLE events (
        global_position bigint NOT NULL DEFAULT nextval('events_global_position_seq'),
        transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
        stream_id       text NOT NULL REFERENCES streams(stream_id),
        stream_version  bigint NOT NULL,
        event_id        uuid NOT NULL UNIQUE,
        event_type      text NOT NULL,
        data            jsonb NOT NULL,
        metadata        jsonb NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (stream_id, stream_version)
      );
      ALTER SEQUENCE events_global_position_seq OWNED BY events.global_position;
      CREATE UNIQUE INDEX events_commit_order ON events (transaction_id, global_position);
      CREATE INDEX events_type ON events (event_type);
    `);
}
