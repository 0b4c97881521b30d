import { baseApi } from '../../../api/base-api';
import type { ClosureInput, ClosurePreview, ClosureResult, Page, Room } from '../../../api/types';

/** What a closure is about: a date range and the rooms (none: every room). */
export interface ClosureScope {
  fromDate: string;
  untilDate: string;
  roomIds?: readonly string[];
}

/** docs/product.md#closures: the preview's counts and the closure itself. */
export const adminClosuresApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getClosurePreview: build.query<ClosurePreview, ClosureScope>({
      query: ({ fromDate, untilDate, roomIds }) => ({
        url: 'admin/closures/preview',
        params: { fromDate, untilDate, ...(roomIds?.length ? { roomIds: roomIds.join(',') } : {}) },
      }),
      providesTags: ['TimeSlot'],
    }),
    /** The rooms to choose from (the room list asks for up to 999 rooms). */
    getClosureRooms: build.query<Page<Room>, void>({
      query: () => ({ url: 'admin/rooms', params: { limit: 999, offset: 0 } }),
      providesTags: ['Room'],
    }),
    closeRooms: build.mutation<ClosureResult, ClosureInput>({
      query: (body) => ({ url: 'admin/closures', method: 'POST', body }),
      invalidatesTags: ['TimeSlot'],
    }),
  }),
});

export const { useGetClosurePreviewQuery, useGetClosureRoomsQuery, useCloseRoomsMutation } =
  adminClosuresApi;
