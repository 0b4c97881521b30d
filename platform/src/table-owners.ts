/**
 * Every table of the schema (every module's migrations) and the one module that writes it: the
 * projection or inline projection its rows follow from, or the one module that keeps rows which
 * are no events (sessions, personal data, the mail outbox, ...). Any other code that changes such
 * a table calls a function of its owner. table-owners.unit.test.ts reads the SQL of every source
 * file and holds the code to this list; a new table gets its entry here in the migration's commit.
 *
 * An owner is a path from the repository's root: a file, or a module's folder; a path without
 * extension names the file of that name (`.ts`) and the folder beside it, as
 * `command-service/src/inline` names the inline projections, one file per table in `inline/`
 * (registered in `inline-projections.ts`). Migrations create, alter and
 * backfill the tables and are nobody's writers here.
 */
export const TABLE_OWNERS = {
  // --- the event store (its session and append statement): the log, its streams' versions ------
  streams: 'events/src',
  events: 'events/src',

  // --- the tables beside the log that commands decide on: the inline projections -----------------
  room_state: 'command-service/src/inline',
  timeslot_guard: 'command-service/src/inline',
  holiday_state: 'command-service/src/inline',
  site_state: 'command-service/src/inline',
  ticket_state: 'command-service/src/inline',
  open_carts: 'command-service/src/inline',
  bookings: 'command-service/src/inline',
  waitlist_entries: 'command-service/src/waitlist',
  // The no-show rule's record: its inline projection, the staff's lifts and their erasure.
  visitor_no_shows: 'command-service/src/no-show',
  visitor_no_show_lifts: 'command-service/src/no-show',

  // --- rows of the command side that are no events (a command's `record`) ------------------------
  personal_data: 'command-service/src/owner',
  room_images: 'command-service/src/rooms/stream.ts',
  site_logos: 'command-service/src/sites/stream.ts',
  blacklist_emails: 'command-service/src/blacklist/stream.ts',
  my_bookings_requests: 'command-service/src/my-bookings/requests.ts',

  // --- the mails to send: one outbox, enqueued by the mail reactor and the jobs ------------------
  mail_outbox: 'platform/src/mail-outbox.ts',

  // --- the insights (@rr/insights): their read models (the projection runner runs them with the
  // others) and the record of the cart requests the seat rule refused (the cart commands note them)
  rm_insight_slots: 'insights/src/projections/insights.ts',
  rm_insight_hours: 'insights/src/projections/insights.ts',
  rm_insight_bookings: 'insights/src/projections/insights.ts',
  rm_insight_lead_slots: 'insights/src/projections/insight-lead.ts',
  rm_insight_lead_tickets: 'insights/src/projections/insight-lead.ts',
  rm_insight_lead_days: 'insights/src/projections/insight-lead.ts',
  rm_insight_lead_months: 'insights/src/projections/insight-lead.ts',
  rm_insight_seat_tickets: 'insights/src/projections/insight-seats.ts',
  cart_refusals: 'insights/src/refusals/refusal-record.ts',
  cart_seat_refusals: 'insights/src/refusals/refusal-record.ts',

  // --- the read models: each projection's tables (projections/src/rebuild.ts empties them) -------
  projection_checkpoints: 'projections/src/checkpoints.ts',
  rm_rooms: 'projections/src/rooms.ts',
  rm_sites: 'projections/src/rooms.ts',
  rm_site_profile: 'projections/src/rooms.ts',
  rm_seats: 'projections/src/rooms.ts',
  rm_seat_out_of_service: 'projections/src/rooms.ts',
  rm_time_slots: 'projections/src/timeslots.ts',
  rm_holidays: 'projections/src/holidays.ts',
  rm_blacklist: 'projections/src/blacklist.ts',
  rm_transactions: 'projections/src/tickets.ts',
  rm_tickets: 'projections/src/tickets',
  // Kept by the trigger on rm_tickets (platform/migrations/019_ticket_counts_without_zero_rows.ts).
  rm_ticket_counts: 'projections/src/tickets.ts',
  rm_waitlist: 'projections/src/waitlist.ts',

  // --- staff, sign-in and the server -------------------------------------------------------------
  admin_users: 'identity/src',
  // Written by connect-pg-simple, the session store identity's sessions.ts configures.
  sessions: 'identity/src',
  sign_in_failures: 'identity/src',
  staff_sign_ins: 'identity/src',
  saml_requests: 'identity/src',
  saml_assertions_used: 'identity/src',
  api_tokens: 'identity/src',
  app_settings: 'platform/src/secrets.ts',
  confirmation_tokens: 'platform/src/confirmation-tokens.ts',
  release_history: 'server/src/release.ts',

  // --- the integrations: the webhooks ---------------------------------------------------------
  // The endpoints staff keep, their deliveries (the reactor writes them, the sender marks their
  // attempts and its endpoint's failures) and what the reactor knows of slots and rooms.
  webhook_endpoints: 'integrations/src/webhooks',
  webhook_deliveries: 'integrations/src/webhooks',
  webhook_slots: 'integrations/src/webhooks',
  webhook_rooms: 'integrations/src/webhooks',
  push_subscriptions: 'integrations/src/push',
  push_deliveries: 'integrations/src/push',
  // Saved wallet passes' registrations and handed-out objects, and their update outbox.
  wallet_apple_passes: 'integrations/src/wallet',
  wallet_apple_registrations: 'integrations/src/wallet',
  wallet_google_objects: 'integrations/src/wallet',
  wallet_updates: 'integrations/src/wallet',
} as const satisfies Record<string, string>;

export type OwnedTable = keyof typeof TABLE_OWNERS;

/**
 * Writers outside a table's owner that are known and not yet moved to it, each with the reason it
 * still stands. The list only shrinks: the test fails on an entry whose file no longer writes the
 * table, so moving a write to its owner removes its entry here.
 */
export const WRITERS_NOT_YET_WITH_THEIR_OWNER: readonly {
  table: OwnedTable;
  file: string;
  why: string;
}[] = [];
