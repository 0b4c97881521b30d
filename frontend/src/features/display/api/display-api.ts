import { baseApi } from '../../../api/base-api';
import type { Display, Page, Room, SiteList } from '../../../api/types';
import { MAX_ROOMS } from '../../../lib/constants';

/**
 * How often the display asks again. A change of seats shows sooner, through the live stream
 * (`display/stream`); the poll keeps the slot running now current as time passes, and shows
 * changes while the stream is not open (refused, a proxy that buffers, a restart).
 */
export const DISPLAY_POLLING_MS = 5_000;

export const displayApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** The rooms of the display: one room by its id, or every room for ''. */
    getDisplay: build.query<Display, string>({
      query: (roomId) => ({ url: 'display', params: roomId ? { roomId } : {} }),
    }),
    /** The library's sites: the display of one site names it once there are several. */
    getDisplaySites: build.query<SiteList, void>({ query: () => 'sites' }),
    /** The rooms of one site (by its slug): the display of a site shows only these. */
    getDisplaySiteRooms: build.query<Page<Room>, string>({
      query: (site) => ({ url: 'rooms', params: { site, limit: MAX_ROOMS, offset: 0 } }),
    }),
  }),
});

export const { useGetDisplayQuery, useGetDisplaySitesQuery, useGetDisplaySiteRoomsQuery } =
  displayApi;
