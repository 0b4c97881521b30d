import { baseApi } from '../../../api/base-api';
import type { components } from '../../../api/schema';

export type DeskSlotSeats = components['schemas']['DeskSlotSeats'];
export type DeskSeat = components['schemas']['DeskSeat'];
export type DeskSeatTicket = components['schemas']['DeskSeatTicket'];
export type DeskRoom = components['schemas']['DeskRoom'];

interface SlotRef {
  roomId: string;
  timeSlotId: string;
}

/** The desk's seats of a slot and moving a booked ticket to another seat. */
export const deskSeatsApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['DeskSeats', 'CheckIn', 'Ticket', 'TimeSlot'] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** The desk's day's rooms with a seat plan (their current and next slot of today). */
      getSeatPlanRooms: build.query<DeskRoom[], void>({
        query: () => 'admin/day',
        transformResponse: (day: components['schemas']['DeskDay']) =>
          day.rooms.filter((room) => room.current?.seats ?? room.next?.seats),
        providesTags: [{ type: 'TimeSlot', id: 'LIST' }],
      }),
      getDeskSlotSeats: build.query<DeskSlotSeats, SlotRef>({
        query: ({ roomId, timeSlotId }) =>
          `admin/rooms/${encodeURIComponent(roomId)}/timeslots/${encodeURIComponent(timeSlotId)}/seats`,
        providesTags: (_r, _e, { timeSlotId }) => [{ type: 'DeskSeats', id: timeSlotId }],
      }),
      moveTicketToSeat: build.mutation<
        { seat: { id: string; label: string } | null },
        { ticketId: string; timeSlotId: string; seatId: string; reason?: string }
      >({
        query: ({ ticketId, seatId, reason }) => ({
          url: `admin/tickets/${encodeURIComponent(ticketId)}/seat`,
          method: 'PUT',
          body: { seatId, ...(reason ? { reason } : {}) },
        }),
        invalidatesTags: (_r, _e, { ticketId, timeSlotId }) => [
          { type: 'DeskSeats', id: timeSlotId },
          { type: 'Ticket', id: ticketId },
          { type: 'CheckIn', id: 'DAY' },
          { type: 'TimeSlot', id: 'LIST' },
        ],
      }),
    }),
  });

export const { useGetSeatPlanRoomsQuery, useGetDeskSlotSeatsQuery, useMoveTicketToSeatMutation } =
  deskSeatsApi;
