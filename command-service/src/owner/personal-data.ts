import type { StoreSession } from '@rr/events';

/**
 * The personal data of a booking (`personal_data`), owned by the owner module: written with the
 * booking, changed by the owner commands (stream.ts), erased by the erasure job.
 */

/** A booking's personal data, as the booking command writes it beside the log. */
export interface PersonalDataRecord {
  ownerId: string;
  owner: {
    salutation: string;
    title?: string | undefined;
    firstName: string;
    lastName: string;
    organisation?: string | undefined;
    phone?: string | undefined;
    accessibility: boolean;
  };
  /** Normalised address; null for a staff booking without one. */
  email: string | null;
  /**
   * The campus subject (`<issuer>!<subject>`) of a visitor signed in while booking; null for a
   * guest and staff. Kept for the booking's personal data only, erased with it (the events carry
   * its keyed hash, docs/product.md#one-person-one-set-of-limits).
   */
  subject?: string | null | undefined;
  /** The last booked day: the personal data is erased the day after it. */
  lastDate: string;
}

/**
 * Writes a booking's personal data, in the store transaction of the booking: the one row of it no
 * event may carry. The booking's own row (`bookings`) is the inline projection of its
 * TransactionBooked (inline-projections.ts), applied before this.
 */
export async function recordPersonalData(s: StoreSession, b: PersonalDataRecord): Promise<void> {
  await s.client.query(
    // The day after is counted by the database: the day after 9999-12-31 has no ISO date string.
    `INSERT INTO personal_data (owner_id, salutation, title, first_name, last_name, organisation, email, phone, accessibility, erase_after, subject)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::date + 1, $11)`,
    [
      b.ownerId,
      b.owner.salutation,
      b.owner.title ?? null,
      b.owner.firstName,
      b.owner.lastName,
      b.owner.organisation ?? null,
      b.email,
      b.owner.phone ?? null,
      b.owner.accessibility,
      b.lastDate,
      b.subject ?? null,
    ],
  );
}
