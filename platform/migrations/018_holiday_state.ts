import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- Each holiday's state after its events, written in the transaction that appends them
      -- (command-service/src/holidays/state.ts). Holiday commands read the rows they decide on
      -- instead of folding the whole holidays stream, whose fold grew with every holiday ever
      -- imported. Filled here from the stream: a holiday's last event, unless it deleted it;
      -- its version is its number of events.
      CREATE TABLE holiday_state (
        holiday_id  uuid PRIMARY KEY,
        date        date NOT NULL,
        name        text NOT NULL,
        description text,
        version     integer NOT NULL CHECK (version >= 1)
      );
      CREATE INDEX holiday_state_date ON holiday_state (date);
      INSERT INTO holiday_state (holiday_id, date, name, description, version)
      SELECT (data->>'holidayId')::uuid, (data->>'date')::date, data->>'name', data->>'description', n
        FROM (SELECT data, event_type,
                     count(*) OVER (PARTITION BY data->>'holidayId') AS n,
                     row_number() OVER (PARTITION BY data->>'holidayId' ORDER BY stream_version DESC) AS last
                FROM events WHERE stream_id = 'holidays') h
       WHERE last = 1 AND event_type <> 'HolidayDeleted';
    `);
}
