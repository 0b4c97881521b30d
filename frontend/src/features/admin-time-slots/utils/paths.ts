import { type YearMonth } from '../../../lib/calendar';
import { yearMonthOf, yearMonthSearch } from '../../../lib/staff-calendar';

const room = (roomId: string) => `/room/${encodeURIComponent(roomId)}`;

/** The admin calendar of a room, optionally at a month (query `year` and `month`). */
export function calendarPath(roomId: string, month?: YearMonth | null): string {
  return `${room(roomId)}/time-slots${month ? yearMonthSearch(month) : ''}`;
}

/** The calendar at the month of a `YYYY-MM-DD` day. */
export function calendarPathAt(roomId: string, isoDate: string): string {
  return calendarPath(roomId, yearMonthOf(isoDate));
}

export function addPath(roomId: string): string {
  return `${room(roomId)}/time-slot-add`;
}

export function editPath(roomId: string, timeSlotId: string): string {
  return `${room(roomId)}/time-slot-edit/${encodeURIComponent(timeSlotId)}`;
}

/** Capacity of a date range; the month the calendar showed preselects the range. */
export function capacityPath(roomId: string, month?: YearMonth): string {
  return `${room(roomId)}/time-slot-edit-multi-capacity/${month ? yearMonthSearch(month) : ''}`;
}

/** The admin books a person into the slot. */
export function bookPath(roomId: string, timeSlotId: string): string {
  return `${room(roomId)}/time-slot-book/${encodeURIComponent(timeSlotId)}`;
}

/** The audit history of the slot. */
export function slotHistoryPath(roomId: string, timeSlotId: string): string {
  return `${editPath(roomId, timeSlotId)}/history`;
}

/** A reservation (ticket) of the slot. */
export function reservationPath(ticketId: string): string {
  return `/reservations/${encodeURIComponent(ticketId)}`;
}
