import { baseApi } from '../../../api/base-api';
import type {
  OwnerInput,
  Page,
  PositionResult,
  StaffBookingInput,
  StaffBookingResult,
  Ticket,
  AdminTimeSlot,
} from '../../../api/types';
import type { TicketQuery } from '../utils/reservation-list';

export interface SlotKey {
  roomId: string;
  timeSlotId: string;
}

const LIST = { type: 'Ticket', id: 'LIST' } as const;
const enc = encodeURIComponent;
const ticketPath = (id: string) => `admin/tickets/${enc(id)}`;
const slotPath = ({ roomId, timeSlotId }: SlotKey) =>
  `admin/rooms/${enc(roomId)}/timeslots/${enc(timeSlotId)}`;

export const adminReservationsApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Ticket'] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** The reservations list: a page of booked (or, with CANCELED_ONLY, cancelled) tickets. */
      getReservations: build.query<Page<Ticket>, TicketQuery>({
        query: (params) => ({ url: 'admin/tickets', params: { ...params } }),
        providesTags: (result) => [
          LIST,
          ...(result?.content.map((ticket) => ({ type: 'Ticket' as const, id: ticket.id })) ?? []),
        ],
      }),
      getReservation: build.query<Ticket, string>({
        query: (id) => ticketPath(id),
        providesTags: (_result, _error, id) => [{ type: 'Ticket', id }],
      }),
      /** The other tickets of the same booking. */
      getRelatedReservations: build.query<Ticket[], string>({
        query: (id) => `${ticketPath(id)}/related`,
        providesTags: (result) => [
          LIST,
          ...(result?.map((ticket) => ({ type: 'Ticket' as const, id: ticket.id })) ?? []),
        ],
      }),
      /** 409 `ticket__not_booked` or `personal_data__erased`. The owner is the whole booking's. */
      updateReservationOwner: build.mutation<PositionResult, { id: string; body: OwnerInput }>({
        query: ({ id, body }) => ({ url: `${ticketPath(id)}/owner`, method: 'PUT', body }),
        invalidatesTags: ['Ticket'],
      }),
      /** 409 `ticket__not_cancelable`. */
      cancelReservations: build.mutation<PositionResult & { cancelled: number }, string[]>({
        query: (ids) => ({
          url: 'admin/tickets',
          method: 'DELETE',
          params: { ids: ids.join(',') },
        }),
        invalidatesTags: ['Ticket', 'TimeSlot'],
      }),
      /** The slot an administrator books into. */
      getBookingTimeSlot: build.query<AdminTimeSlot, SlotKey>({
        query: (key) => slotPath(key),
        providesTags: (_result, _error, { timeSlotId }) => [{ type: 'TimeSlot', id: timeSlotId }],
      }),
      /** Allowed beyond the capacity: the slot is overbooked then. */
      bookTimeSlot: build.mutation<StaffBookingResult, SlotKey & { body: StaffBookingInput }>({
        query: ({ body, ...key }) => ({ url: `${slotPath(key)}/booking`, method: 'POST', body }),
        invalidatesTags: ['Ticket', 'TimeSlot'],
      }),
    }),
  });

export const {
  useGetReservationsQuery,
  useGetReservationQuery,
  useGetRelatedReservationsQuery,
  useUpdateReservationOwnerMutation,
  useCancelReservationsMutation,
  useGetBookingTimeSlotQuery,
  useBookTimeSlotMutation,
} = adminReservationsApi;
