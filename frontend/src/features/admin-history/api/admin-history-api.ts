import { baseApi } from '../../../api/base-api';
import type { HistoryEntry, Ticket, TimeSlot } from '../../../api/types';

export interface SlotKey {
  roomId: string;
  timeSlotId: string;
}

const enc = encodeURIComponent;
const slotPath = ({ roomId, timeSlotId }: SlotKey) =>
  `admin/rooms/${enc(roomId)}/timeslots/${enc(timeSlotId)}`;

/** The audit history from the event log; refreshed whenever tickets or slots change. */
export const adminHistoryApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Ticket'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getHistoryTicket: build.query<Ticket, string>({
        query: (id) => `admin/tickets/${enc(id)}`,
        providesTags: (_result, _error, id) => [{ type: 'Ticket', id }],
      }),
      getTicketHistory: build.query<HistoryEntry[], string>({
        query: (id) => `admin/tickets/${enc(id)}/history`,
        providesTags: (_result, _error, id) => [{ type: 'Ticket', id }],
      }),
      getHistoryTimeSlot: build.query<TimeSlot, SlotKey>({
        query: (key) => slotPath(key),
        providesTags: (_result, _error, { timeSlotId }) => [{ type: 'TimeSlot', id: timeSlotId }],
      }),
      getTimeSlotHistory: build.query<HistoryEntry[], SlotKey>({
        query: (key) => `${slotPath(key)}/history`,
        providesTags: (_result, _error, { timeSlotId }) => [
          { type: 'TimeSlot', id: timeSlotId },
          { type: 'Ticket', id: 'LIST' },
        ],
      }),
    }),
  });

export const {
  useGetHistoryTicketQuery,
  useGetTicketHistoryQuery,
  useGetHistoryTimeSlotQuery,
  useGetTimeSlotHistoryQuery,
} = adminHistoryApi;
