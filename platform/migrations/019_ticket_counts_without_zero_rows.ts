import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      -- A rebuild must equal the live read models. rm_ticket_counts kept a row at n = 0 once the
      -- last ticket of its status, day and room had left it, a row a rebuild never writes (the
      -- failover test found it). Now a count that reaches 0 is deleted in the same statement.
      CREATE OR REPLACE FUNCTION rr_ticket_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO rm_ticket_counts (status, date, room_id, n)
            SELECT status, date, room_id, count(*) FROM new_rows GROUP BY 1, 2, 3
          ON CONFLICT (status, date, room_id) DO UPDATE SET n = rm_ticket_counts.n + EXCLUDED.n;
          RETURN NULL;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO rm_ticket_counts (status, date, room_id, n)
            SELECT status, date, room_id, -count(*) FROM old_rows GROUP BY 1, 2, 3
          ON CONFLICT (status, date, room_id) DO UPDATE SET n = rm_ticket_counts.n + EXCLUDED.n;
        ELSE
          INSERT INTO rm_ticket_counts (status, date, room_id, n)
            SELECT status, date, room_id, sum(d) FROM (
              SELECT status, date, room_id, 1 AS d FROM new_rows
              UNION ALL SELECT status, date, room_id, -1 FROM old_rows) c
            GROUP BY 1, 2, 3 HAVING sum(d) <> 0
          ON CONFLICT (status, date, room_id) DO UPDATE SET n = rm_ticket_counts.n + EXCLUDED.n;
        END IF;
        -- Only a count the old rows took from can have reached 0.
        DELETE FROM rm_ticket_counts c
         USING (SELECT DISTINCT status, date, room_id FROM old_rows) o
         WHERE c.status = o.status AND c.date = o.date AND c.room_id = o.room_id AND c.n = 0;
        RETURN NULL;
      END $$;
      DELETE FROM rm_ticket_counts WHERE n = 0;
    `);
}
