import { problems, type CheckInCodes, type Pool } from '@rr/platform';
import { chainFirstsSql, chainLatestSql } from '../ticket-chain.ts';

/** A ticket as its wallet pass shows it: the latest of its move chain, under the first one's id. */
export interface WalletTicket {
  /** The first ticket of the move chain: the pass's serial number, the object's id. */
  serial: string;
  /** The ticket the pass shows (the one the moves led to). */
  ticketId: string;
  /** Booked: the pass is valid; anything else (cancelled, released): voided. */
  booked: boolean;
  date: string;
  startTime: string;
  endTime: string;
  roomName: string;
  seatLabel: string | null;
  /** The room uses check-in: the barcode carries the ticket's check-in reference. */
  checkIn: boolean;
  bookingNumber: string;
  language: 'de' | 'en';
}

/**
 * The ticket of a wallet pass, by the owner id of the confirmation link and any ticket of its
 * move chain (a pass fetched by the id it was made with finds the moved ticket). An owner whose
 * personal data was erased is unknown here, as in the calendar feed.
 */
export async function walletTicketOf(
  pool: Pool,
  ownerId: string,
  ticketId: string,
): Promise<WalletTicket> {
  const b = await pool.query<{ booking_number: string; language: 'de' | 'en' }>(
    `SELECT b.booking_number, b.language FROM bookings b
       JOIN personal_data p ON p.owner_id = b.owner_id WHERE b.owner_id = $1`,
    [ownerId],
  );
  const booking = b.rows[0];
  if (!booking) throw problems.notFound('Owner');
  const r = await pool.query<{
    first_id: string;
    id: string;
    status: string;
    date: string;
    start_time: string;
    end_time: string;
    seat_label: string | null;
    room_name: string | null;
    check_in: boolean;
  }>(
    `WITH RECURSIVE ${chainLatestSql('$2')}, ${chainFirstsSql('t.id IN (SELECT id FROM chain_latest)')}
     SELECT c.first_id, t.id, t.status, t.date, t.start_time, t.end_time, t.seat_label,
            CASE WHEN $3 = 'en' THEN coalesce(r.name_en, r.name) ELSE r.name END AS room_name,
            coalesce(r.services->>'checkInMinutesBefore' IS NOT NULL, false) AS check_in
       FROM chain_firsts c JOIN rm_tickets t ON t.id = c.ticket_id
       LEFT JOIN rm_rooms r ON r.id = t.room_id`,
    [ownerId, ticketId, booking.language],
  );
  const t = r.rows[0];
  if (!t) throw problems.notFound('Ticket');
  return {
    serial: t.first_id,
    ticketId: t.id,
    booked: t.status === 'BOOKED',
    date: t.date,
    startTime: t.start_time,
    endTime: t.end_time,
    roomName: t.room_name ?? '',
    seatLabel: t.seat_label,
    checkIn: t.check_in,
    bookingNumber: booking.booking_number,
    language: booking.language,
  };
}

/** A pass's barcode: the check-in reference where the room checks tickets in; else the booking number. */
export const walletBarcodeOf = (ticket: WalletTicket, codes: CheckInCodes): string =>
  ticket.checkIn ? codes.codeOf(ticket.ticketId) : ticket.bookingNumber;

/** The texts of a pass, in the booking's language. */
export const walletTexts = {
  de: {
    reservation: 'Lesesaal-Reservierung',
    room: 'Raum',
    date: 'Datum',
    time: 'Zeit',
    seat: 'Platz',
    number: 'Buchungsnummer',
    library: 'Bibliothek',
    moved: 'Verschoben: %@',
    dateText: (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`,
    timeText: (s: string, e: string) => `${s}–${e} Uhr`,
    libraryDefault: 'Ihre Bibliothek',
  },
  en: {
    reservation: 'Reading room reservation',
    room: 'Room',
    date: 'Date',
    time: 'Time',
    seat: 'Seat',
    number: 'Booking number',
    library: 'Library',
    moved: 'Moved: %@',
    dateText: (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}`,
    timeText: (s: string, e: string) => `${s}–${e}`,
    libraryDefault: 'Your library',
  },
} as const;
