import { baseApi } from '../../../api/base-api';
import type { SiteList } from '../../../api/types';

/** The sites a room can belong to (docs/product.md#sites), for the room form's site select. */
export const roomSitesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Site'] }).injectEndpoints({
  endpoints: (build) => ({
    getRoomSites: build.query<SiteList, void>({
      query: () => 'admin/sites',
      // A site added, renamed or deleted in the site screens changes the choice.
      providesTags: [{ type: 'Site', id: 'LIST' }],
    }),
  }),
});

export const { useGetRoomSitesQuery } = roomSitesApi;
