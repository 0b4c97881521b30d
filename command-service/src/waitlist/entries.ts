import type { StoreSession } from '@rr/events';
import type { LocalDate } from '@rr/domain';

/**
 * The waitlist's entries beside the log (`waitlist_entries`), owned by the waitlist module: the
 * join writes an entry's row with its address (personal data, never in an event), the slot's
 * events move its status and offer (entries-projection.ts), the erasure deletes it.
 */

export interface EntryRow {
  entryId: string;
  timeSlotId: string;
  visitorKey: string;
  /** The keyed campus subject of a visitor signed in while joining (their limits' key); null: a guest. */
  subjectKey: string | null;
  email: string;
  language: 'de' | 'en';
  /** The slot's day: its address goes the day after it. */
  slotDate: LocalDate;
}

/** The row of a new entry, in the transaction of its join. */
export async function recordEntry(s: Pick<StoreSession, 'client'>, e: EntryRow): Promise<void> {
  await s.client.query(
    // The day after is counted by the database: the day after 9999-12-31 has no ISO date string.
    `INSERT INTO waitlist_entries (entry_id, time_slot_id, visitor_key, subject_key, email, language, erase_after)
     VALUES ($1, $2, $3, $4, $5, $6, $7::date + 1)`,
    [e.entryId, e.timeSlotId, e.visitorKey, e.subjectKey, e.email, e.language, e.slotDate],
  );
}

/** Deletes the rows of these entries whose day to go has come; answers the entry ids deleted. */
export async function eraseEntryRows(
  s: Pick<StoreSession, 'client'>,
  entryIds: readonly string[],
  today: LocalDate,
): Promise<string[]> {
  const gone = await s.client.query<{ entry_id: string }>(
    'DELETE FROM waitlist_entries WHERE entry_id = ANY($1::uuid[]) AND erase_after <= $2 RETURNING entry_id',
    [[...entryIds], today],
  );
  return gone.rows.map((r) => r.entry_id);
}
