import { baseApi } from '../../../api/base-api';
import type {
  Page,
  PositionResult,
  Room,
  AdminTimeSlot,
  TimeSlot,
  Ticket,
  TimeSlotCapacityInput,
  TimeSlotInput,
  TimeSlotsCapacityUpdated,
  TimeSlotsCreated,
  TimeSlotStatus,
  TimeSlotUpdateInput,
  StaffSeatPlan,
} from '../../../api/types';
import type { components } from '../../../api/schema';

/** docs/product.md#limits: maxTimeSlots; a month never has more. */
export const MAX_TIME_SLOTS = 999;

export interface TimeSlotRangeQuery {
  roomId: string;
  fromDate: string;
  untilDate: string;
  status?: TimeSlotStatus;
}

export interface TimeSlotKey {
  roomId: string;
  timeSlotId: string;
}

const LIST = { type: 'TimeSlot', id: 'LIST' } as const;

const roomPath = (roomId: string) => `admin/rooms/${encodeURIComponent(roomId)}`;
const slotsPath = (roomId: string) => `${roomPath(roomId)}/timeslots`;
const slotPath = ({ roomId, timeSlotId }: TimeSlotKey) =>
  `${slotsPath(roomId)}/${encodeURIComponent(timeSlotId)}`;

export const adminTimeSlotsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** The room of a calendar (its name for the headings). */
    getTimeSlotRoom: build.query<Room, string>({
      query: (roomId) => roomPath(roomId),
      providesTags: (_result, _error, roomId) => [{ type: 'Room', id: roomId }],
    }),
    /** The slots of a room in a date range (a calendar month), in date and time order. */
    getRoomTimeSlots: build.query<Page<TimeSlot>, TimeSlotRangeQuery>({
      query: ({ roomId, ...params }) => ({
        url: slotsPath(roomId),
        params: { ...params, limit: MAX_TIME_SLOTS, offset: 0, sort: 'date:ASC,startTime:ASC' },
      }),
      providesTags: (result) => [
        LIST,
        ...(result?.content.map((slot) => ({ type: 'TimeSlot' as const, id: slot.id })) ?? []),
      ],
    }),
    /** The seats of a slot's room (none: no plan), for choosing the ones the slot offers. */
    getSlotRoomSeatPlan: build.query<StaffSeatPlan, string>({
      query: (roomId) => `${roomPath(roomId)}/seats`,
      providesTags: (_result, _error, roomId) => [{ type: 'SeatPlan', id: roomId }],
    }),
    getTimeSlot: build.query<AdminTimeSlot, TimeSlotKey>({
      query: (key) => slotPath(key),
      providesTags: (_result, _error, { timeSlotId }) => [{ type: 'TimeSlot', id: timeSlotId }],
    }),
    /** 409 `timeslot__overlapping`, the first clashing date beside the payload (`values.date`). */
    createTimeSlots: build.mutation<TimeSlotsCreated, { roomId: string; body: TimeSlotInput }>({
      query: ({ roomId, body }) => ({ url: slotsPath(roomId), method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateTimeSlot: build.mutation<PositionResult, TimeSlotKey & { body: TimeSlotUpdateInput }>({
      query: ({ body, ...key }) => ({ url: slotPath(key), method: 'PUT', body }),
      invalidatesTags: (_result, _error, { timeSlotId }) => [
        LIST,
        { type: 'TimeSlot', id: timeSlotId },
      ],
    }),
    /** 409 `timeslot__has_tickets`, payload `seats`, total, booked, held, the last hold's end. */
    deleteTimeSlot: build.mutation<PositionResult, TimeSlotKey>({
      query: (key) => ({ url: slotPath(key), method: 'DELETE' }),
      // Only the lists: the deleted slot's own query would answer 404.
      invalidatesTags: (result) => (result ? [LIST] : []),
    }),
    /**
     * The seats of the room's plan the slot offers (exam places); null: every seat. 400 names a
     * seat not on the plan (`seatIds.N`); 409 `timeslot__seats_in_use` the seats whose bookings
     * find no offered seat.
     */
    chooseSlotSeats: build.mutation<PositionResult, TimeSlotKey & { seatIds: string[] | null }>({
      query: ({ seatIds, ...key }) => ({
        url: `${slotPath(key)}/seats`,
        method: 'PUT',
        body: { seatIds },
      }),
      invalidatesTags: (_result, _error, { timeSlotId }) => [
        LIST,
        { type: 'TimeSlot', id: timeSlotId },
      ],
    }),
    /** Sets the capacity of every slot of the room in a date range. */
    updateTimeSlotCapacity: build.mutation<
      TimeSlotsCapacityUpdated,
      { roomId: string; body: TimeSlotCapacityInput }
    >({
      query: ({ roomId, body }) => ({ url: `${slotsPath(roomId)}/capacity`, method: 'POST', body }),
      invalidatesTags: ['TimeSlot'],
    }),
  }),
});

export const {
  useGetTimeSlotRoomQuery,
  useGetRoomTimeSlotsQuery,
  useGetTimeSlotQuery,
  useGetSlotRoomSeatPlanQuery,
  useCreateTimeSlotsMutation,
  useUpdateTimeSlotMutation,
  useDeleteTimeSlotMutation,
  useUpdateTimeSlotCapacityMutation,
  useChooseSlotSeatsMutation,
} = adminTimeSlotsApi;

/** The reservations of a slot (tagged as tickets, so cancelling or booking refreshes them). */
export const adminTimeSlotTicketsApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Ticket'] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** The booked tickets of a slot, by name. */
      getTimeSlotTickets: build.query<Page<Ticket>, string>({
        query: (timeSlotId) => ({
          url: 'admin/tickets',
          params: { timeSlotId, sort: 'name:ASC', limit: MAX_TIME_SLOTS, offset: 0 },
        }),
        providesTags: (result) => [
          { type: 'Ticket', id: 'LIST' },
          ...(result?.content.map((ticket) => ({ type: 'Ticket' as const, id: ticket.id })) ?? []),
        ],
      }),
    }),
  });

export const { useGetTimeSlotTicketsQuery } = adminTimeSlotTicketsApi;

export type WaitlistEntry = components['schemas']['WaitlistEntry'];

/**
 * A slot's waitlist in line order, each entry with its address (read beside the log); fresh on
 * every visit of the page and after a removal.
 */
export const adminWaitlistApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Waitlist'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getSlotWaitlist: build.query<{ content: WaitlistEntry[] }, TimeSlotKey>({
        query: (key) => `${slotPath(key)}/waitlist`,
        keepUnusedDataFor: 0,
        providesTags: (_result, _error, { timeSlotId }) => [{ type: 'Waitlist', id: timeSlotId }],
      }),
      /** Takes an entry off the line: no offer reaches it any more. */
      removeWaitlistEntry: build.mutation<{ status: string }, TimeSlotKey & { entryId: string }>({
        query: ({ entryId, ...key }) => ({
          url: `${slotPath(key)}/waitlist/${entryId}`,
          method: 'DELETE',
        }),
        invalidatesTags: (_result, _error, { timeSlotId }) => [
          { type: 'Waitlist', id: timeSlotId },
        ],
      }),
    }),
  });

export const { useGetSlotWaitlistQuery, useRemoveWaitlistEntryMutation } = adminWaitlistApi;
