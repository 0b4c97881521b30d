import { baseApi } from '../../../api/base-api';
import type { ListQuery, Page, Room, SiteList } from '../../../api/types';
import { MAX_ROOMS } from '../../../lib/constants';

/** docs/product.md#api: the room list load asks for up to maxRooms with offset 0. */
export const ROOM_LIST_QUERY: ListQuery = { limit: MAX_ROOMS, offset: 0, sort: 'order:ASC' };

export const roomsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getRooms: build.query<Page<Room>, ListQuery>({
      query: (params) => ({ url: 'rooms', params }),
      providesTags: (result) => [
        { type: 'Room', id: 'LIST' },
        ...(result?.content.map((room) => ({ type: 'Room' as const, id: room.id })) ?? []),
      ],
    }),
    /** The library's sites for visitors (docs/product.md#sites): the first site first. */
    getSites: build.query<SiteList, void>({ query: () => 'sites' }),
  }),
});

export const { useGetRoomsQuery, useGetSitesQuery } = roomsApi;
