// Over 300 lines: a frozen copy of the former migration list (see below), never edited, so never
// split.
import type pg from 'pg';

/**
 * FROZEN: platform/src/migrations.ts as it was before the migrations became files run by knex
 * (commit 748d107), the code path that made every database installed until then. The migration
 * test (platform/src/migrations.int.test.ts) builds an "old" database with it and migrates that
 * forward. Never edit it: it is the old installations' schema and history, not a second home of
 * the migrations (those are platform/migrations/*.ts). Changed here: the names (`legacyMigrations`,
 * `legacyMigrate`) and `legacyMigrate`'s `upTo`, to stop after a given migration.
 */
export const legacyMigrations: { id: string; sql: string }[] = [
  {
    id: '001_event_store',
    sql: `
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
    `,
  },
  {
    id: '002_projection_checkpoints',
    sql: `
      CREATE TABLE projection_checkpoints (
        name       text PRIMARY KEY,
        last_tx    xid8 NOT NULL DEFAULT '0',
        last_gp    bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: '003_auth',
    sql: `
      CREATE TABLE admin_users (
        username      text PRIMARY KEY,
        password_hash text NOT NULL,
        roles         text[] NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE sessions (
        sid    varchar NOT NULL PRIMARY KEY,
        sess   json NOT NULL,
        expire timestamp(6) NOT NULL
      );
      CREATE INDEX sessions_expire ON sessions (expire);
      CREATE TABLE app_settings (
        key   text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
  {
    id: '004_rooms',
    sql: `
      CREATE TABLE room_images (
        image_id     uuid PRIMARY KEY,
        room_id      uuid NOT NULL,
        content_type text NOT NULL,
        bytes        bytea NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX room_images_room ON room_images (room_id);
      CREATE TABLE rm_rooms (
        id                       uuid PRIMARY KEY,
        version                  bigint NOT NULL,
        name                     text NOT NULL,
        description              text NOT NULL,
        capacity                 integer NOT NULL,
        open_start_type          text NOT NULL,
        open_start_value         integer NOT NULL,
        open_end_type            text NOT NULL,
        open_end_value           integer NOT NULL,
        image_id                 uuid,
        image_alt                text,
        sort_order               integer NOT NULL,
        active_reservation_count integer NOT NULL DEFAULT 0,
        created_at               timestamptz NOT NULL
      );
      CREATE INDEX rm_rooms_order ON rm_rooms (sort_order, name);
    `,
  },
  {
    id: '005_timeslots_holidays_blacklist',
    sql: `
      -- Write side: what slot commands decide on inside their transaction (no overlaps per room and date).
      CREATE TABLE timeslot_guard (
        time_slot_id uuid PRIMARY KEY,
        room_id      uuid NOT NULL,
        date         date NOT NULL,
        start_min    integer NOT NULL,
        end_min      integer NOT NULL
      );
      CREATE INDEX timeslot_guard_room_date ON timeslot_guard (room_id, date);
      -- Write side: blacklisted addresses, kept out of the event log (events carry entry_key).
      CREATE TABLE blacklist_emails (
        entry_key text PRIMARY KEY,
        email     text NOT NULL UNIQUE
      );
      CREATE TABLE rm_time_slots (
        id           uuid PRIMARY KEY,
        room_id      uuid NOT NULL,
        date         date NOT NULL,
        start_time   text NOT NULL,
        end_time     text NOT NULL,
        capacity     integer NOT NULL,
        ticket_count integer NOT NULL DEFAULT 0,
        version      bigint NOT NULL
      );
      CREATE INDEX rm_time_slots_room_date ON rm_time_slots (room_id, date, start_time);
      CREATE INDEX rm_time_slots_date ON rm_time_slots (date, start_time);
      CREATE INDEX rm_time_slots_overbooked ON rm_time_slots (date, start_time) WHERE ticket_count > capacity;
      CREATE TABLE rm_holidays (
        id          uuid PRIMARY KEY,
        version     integer NOT NULL,
        name        text NOT NULL,
        description text,
        date        date NOT NULL
      );
      CREATE INDEX rm_holidays_date ON rm_holidays (date);
      CREATE TABLE rm_blacklist (
        entry_key   text PRIMARY KEY,
        expired_at  date NOT NULL,
        description text,
        version     bigint NOT NULL
      );
    `,
  },
  {
    id: '006_booking',
    sql: `
      -- Write side: one row per booking (order); owner ids are 128-bit random and go in mail links.
      CREATE TABLE bookings (
        owner_id       text PRIMARY KEY,
        transaction_id uuid NOT NULL UNIQUE,
        visitor_key    text NOT NULL,
        booking_number text NOT NULL UNIQUE,
        language       text NOT NULL,
        created_at     timestamptz NOT NULL DEFAULT now()
      );
      -- Write side: personal data, never in events or logs; deleted the day after the booked day.
      CREATE TABLE personal_data (
        owner_id      text PRIMARY KEY REFERENCES bookings(owner_id) ON DELETE CASCADE,
        salutation    text NOT NULL,
        title         text,
        first_name    text NOT NULL,
        last_name     text NOT NULL,
        organisation  text,
        email         text NOT NULL,
        phone         text,
        accessibility boolean NOT NULL DEFAULT false,
        erase_after   date NOT NULL
      );
      CREATE INDEX personal_data_erase_after ON personal_data (erase_after);
      CREATE TABLE rm_transactions (
        id         uuid PRIMARY KEY,
        status     text NOT NULL,
        expires_at timestamptz,
        owner_id   text,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX rm_transactions_open ON rm_transactions (expires_at) WHERE status = 'NEW';
      CREATE TABLE rm_tickets (
        id             uuid PRIMARY KEY,
        transaction_id uuid NOT NULL,
        owner_id       text,
        time_slot_id   uuid NOT NULL,
        room_id        uuid NOT NULL,
        date           date NOT NULL,
        start_time     text NOT NULL,
        end_time       text NOT NULL,
        status         text NOT NULL,
        booking_number text,
        created_at     timestamptz NOT NULL,
        booked_at      timestamptz,
        cancelled_at   timestamptz
      );
      CREATE INDEX rm_tickets_transaction ON rm_tickets (transaction_id);
      CREATE INDEX rm_tickets_owner ON rm_tickets (owner_id);
      CREATE INDEX rm_tickets_slot ON rm_tickets (time_slot_id);
      CREATE INDEX rm_tickets_room_date ON rm_tickets (room_id, date) WHERE status IN ('NEW', 'BOOKED');
    `,
  },
  {
    id: '007_mail_outbox',
    sql: `
      -- Mails to send, enqueued by the outbox reactor in the same transaction as its checkpoint
      -- (so each booking or cancellation enqueues exactly once), sent and retried by the sender.
      CREATE TABLE mail_outbox (
        id              text PRIMARY KEY,
        kind            text NOT NULL,
        owner_id        text NOT NULL,
        ticket_ids      uuid[] NOT NULL DEFAULT '{}',
        status          text NOT NULL DEFAULT 'pending',
        attempts        integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error      text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        sent_at         timestamptz
      );
      CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
    `,
  },
  {
    id: '008_staff_bookings',
    sql: `
      -- Staff may book a person without an e-mail address (a booking taken by phone): no mail then.
      ALTER TABLE personal_data ALTER COLUMN email DROP NOT NULL;
      ALTER TABLE personal_data ALTER COLUMN phone DROP NOT NULL;
      CREATE INDEX rm_tickets_date ON rm_tickets (date, start_time);
      CREATE INDEX rm_tickets_booking_number ON rm_tickets (booking_number);
    `,
  },
  {
    id: '009_reservation_list_indexes',
    sql: `
      -- The reservations list sorted by name walks personal data in name order and joins each
      -- owner's tickets; the tickets without personal data (no owner, or erased) sort first as ''
      -- and are found by this flag (set by the tickets projection on PersonalDataErased).
      ALTER TABLE rm_tickets ADD COLUMN personal_data_erased boolean NOT NULL DEFAULT false;
      UPDATE rm_tickets t SET personal_data_erased = true
       WHERE t.owner_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = t.owner_id);
      CREATE INDEX rm_tickets_without_personal_data ON rm_tickets (status, date, start_time, id)
        WHERE owner_id IS NULL OR personal_data_erased;
      CREATE INDEX rm_tickets_status ON rm_tickets (status);
      CREATE INDEX personal_data_name ON personal_data
        (lower(coalesce(last_name, '')), lower(coalesce(first_name, '')))
        INCLUDE (owner_id, last_name, first_name);
      CREATE INDEX rm_tickets_owner_order ON rm_tickets (owner_id, status, date, start_time, id);
      -- The list's search (ILIKE '%term%' over names, organisation, e-mail): a trigram index on
      -- one text holding all of them, where pg_trgm can be had; without it the search still works.
      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
          CREATE EXTENSION IF NOT EXISTS pg_trgm;
          CREATE INDEX personal_data_search ON personal_data USING gin ((
            coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' ||
            coalesce(organisation, '') || ' ' || coalesce(email, '') || ' ' ||
            coalesce(last_name, '') || ', ' || coalesce(first_name, '')) gin_trgm_ops);
        END IF;
      EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'pg_trgm not installed: the reservations search runs without its index';
      END $$;
    `,
  },
  {
    id: '010_events_notify_trigger',
    sql: `
      -- Subscribers (projections, the outbox reactor) are woken once per appending transaction:
      -- a statement trigger instead of a separate pg_notify round trip by the writer. Equal
      -- notifications of one transaction are delivered once, at commit.
      CREATE FUNCTION rr_events_appended() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('rr_events', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER events_appended AFTER INSERT ON events
        FOR EACH STATEMENT EXECUTE FUNCTION rr_events_appended();
    `,
  },
  {
    id: '011_lock_read_streams',
    sql: `
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
    `,
  },
  {
    id: '012_stream_locks_advisory',
    sql: `
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
    `,
  },
  {
    id: '013_ticket_counts',
    sql: `
      -- Tickets per status, day and room, kept by triggers in the statement that changes
      -- rm_tickets (so in the tickets projection's transaction, and consistent with it in any
      -- snapshot). The reservations list counts its total here when it filters only by status,
      -- room and dates: a sum over at most a few thousand rows instead of a count over every
      -- ticket (11 ms for 78,000 booked ones). No personal data.
      CREATE TABLE rm_ticket_counts (
        status  text NOT NULL,
        date    date NOT NULL,
        room_id uuid NOT NULL,
        n       bigint NOT NULL,
        PRIMARY KEY (status, date, room_id)
      );
      CREATE FUNCTION rr_ticket_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO rm_ticket_counts (status, date, room_id, n)
            SELECT status, date, room_id, count(*) FROM new_rows GROUP BY 1, 2, 3
          ON CONFLICT (status, date, room_id) DO UPDATE SET n = rm_ticket_counts.n + EXCLUDED.n;
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
        RETURN NULL;
      END $$;
      CREATE TRIGGER rm_tickets_counts_insert AFTER INSERT ON rm_tickets
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rr_ticket_counts_add();
      CREATE TRIGGER rm_tickets_counts_update AFTER UPDATE ON rm_tickets
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION rr_ticket_counts_add();
      CREATE TRIGGER rm_tickets_counts_delete AFTER DELETE ON rm_tickets
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rr_ticket_counts_add();
      INSERT INTO rm_ticket_counts (status, date, room_id, n)
        SELECT status, date, room_id, count(*) FROM rm_tickets GROUP BY 1, 2, 3;
    `,
  },
  {
    id: '014_events_erasure_index',
    sql: `
      -- The only query by event type looks for erasures after the tickets projection's checkpoint
      -- (the reservations list). An index of every event's type cost each append an index entry
      -- per event; a partial index of the erasures, in commit order, serves that query alone.
      DROP INDEX events_type;
      CREATE INDEX events_erasures ON events (transaction_id, global_position)
        WHERE event_type = 'PersonalDataErased';
    `,
  },
  {
    id: '015_time_from_the_clock',
    sql: `
      -- Time has one source: the application's injected clock. An event's time and a mail's due
      -- time are written from it; a database default of now() let the database's time into
      -- comparisons with the clock (a mail enqueued at the database's time was not due for a
      -- clock behind it). Without the defaults, an insert that forgets the time fails at once.
      ALTER TABLE events ALTER COLUMN created_at DROP DEFAULT;
      ALTER TABLE mail_outbox ALTER COLUMN next_attempt_at DROP DEFAULT;
      ALTER TABLE mail_outbox ALTER COLUMN created_at DROP DEFAULT;
      ALTER TABLE bookings ALTER COLUMN created_at DROP DEFAULT;
      -- What keeps a default of now(): records of when something happened to the installation
      -- (schema_migrations.applied_at, projection_checkpoints.updated_at, admin_users.created_at,
      -- room_images.created_at). No rule reads them; tests/api/clock.int.test.ts holds the list.
    `,
  },
  {
    id: '016_sign_in_failures',
    sql: `
      -- Failed sign-ins, counted per user name and client address ('account_address', subject a
      -- JSON array of both), per address ('address') and per user name ('account'), shared by
      -- every process (platform/src/sign-in-limit.ts decides; sign-in-limit-store.ts writes).
      -- Every time here is the application clock's, given as a parameter: no defaults. A row whose
      -- window has ended and whose delay has run out (expires_at) is deleted by later attempts.
      CREATE TABLE sign_in_failures (
        scope           text NOT NULL CHECK (scope IN ('account_address', 'address', 'account')),
        subject         text NOT NULL,
        failures        integer NOT NULL CHECK (failures >= 0),
        window_start    timestamptz NOT NULL,
        last_failure_at timestamptz NOT NULL,
        expires_at      timestamptz NOT NULL,
        PRIMARY KEY (scope, subject)
      );
      CREATE INDEX sign_in_failures_expiry ON sign_in_failures (expires_at);
    `,
  },
  {
    id: '017_mail_lease',
    sql: `
      -- The sender no longer holds a row lock (and so a transaction id) while it talks to SMTP:
      -- the gap-safe projections wait behind the oldest open transaction, so a hung SMTP server
      -- froze every read model. A sender now claims a mail with a lease (one short statement,
      -- times from the clock), sends it outside any transaction and records the result only while
      -- it still owns the lease; a crashed sender's lease expires and the mail is tried again.
      ALTER TABLE mail_outbox ADD COLUMN leased_until timestamptz, ADD COLUMN lease_owner text;
      -- SMTP replies ("550 <address> ... rejected") kept recipients' addresses in last_error,
      -- even after the erasure: the errors of erased owners go, the others lose their addresses.
      UPDATE mail_outbox m SET last_error = NULL
       WHERE last_error IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM personal_data p WHERE p.owner_id = m.owner_id);
      UPDATE mail_outbox SET last_error = regexp_replace(last_error, '[^\\s<>()"'',;:]+@[^\\s<>()"'',;:]+', '<address>', 'g')
       WHERE last_error LIKE '%@%';
    `,
  },
  {
    id: '018_holiday_state',
    sql: `
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
    `,
  },
];

export async function legacyMigrate(pool: pg.Pool, upTo = '999'): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('rr:migrations'))`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map(
        (r) => r.id,
      ),
    );
    for (const m of legacyMigrations) {
      if (done.has(m.id) || m.id.slice(0, 3) > upTo) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
        await client.query('COMMIT');
        applied.push(m.id);
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
  } finally {
    await client
      .query(`SELECT pg_advisory_unlock(hashtext('rr:migrations'))`)
      .catch(() => undefined);
    client.release();
  }
  return applied;
}
