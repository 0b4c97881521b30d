import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A command's append sent in the same round trip as its commit (events/src/session.ts,
      -- pipelined) cannot look at the streams it claimed before the commit is on its way: a
      -- stream that moved (another writer created the same new stream first) must then fail the
      -- statement, which aborts the transaction so the commit behind it rolls back. The error's
      -- detail names the stream and its version now (JSON); the command runs again.
      CREATE OR REPLACE FUNCTION rr_require_claimed(claimed text[], wanted text[])
      RETURNS boolean LANGUAGE plpgsql AS $$
      DECLARE
        missing text;
        actual bigint;
      BEGIN
        SELECT w INTO missing FROM unnest(wanted) AS w WHERE w <> ALL (claimed) LIMIT 1;
        IF missing IS NOT NULL THEN
          SELECT version INTO actual FROM streams WHERE stream_id = missing;
          RAISE EXCEPTION 'stream % was not at its expected version', missing
            USING ERRCODE = 'RRV01',
                  DETAIL = json_build_object('stream', missing, 'version', actual)::text;
        END IF;
        RETURN true;
      END $$;
    `);
}
