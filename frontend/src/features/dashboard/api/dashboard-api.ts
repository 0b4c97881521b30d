import { baseApi } from '../../../api/base-api';
import type { components } from '../../../api/schema';
import type { Page, TimeSlot } from '../../../api/types';

export type DeskDay = components['schemas']['DeskDay'];
export type DeskRoom = components['schemas']['DeskRoom'];
export type DeskSlot = components['schemas']['DeskSlot'];

export const dashboardApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** The number of overbooked slots from today on (only the `totalCount` is used). */
    getOverbookedCount: build.query<number, string>({
      query: (today) => ({
        url: 'admin/rooms/timeslots',
        params: { status: 'OVERBOOKED', fromDate: today, limit: 1, offset: 0 },
      }),
      transformResponse: (page: Page<TimeSlot>) => page.totalCount,
      providesTags: [{ type: 'TimeSlot', id: 'LIST' }],
    }),
    /** Today at the desk: the server's day and time in the library's time zone. */
    getDeskDay: build.query<DeskDay, void>({
      query: () => 'admin/day',
      providesTags: [{ type: 'TimeSlot', id: 'LIST' }],
    }),
  }),
});

export const { useGetOverbookedCountQuery, useGetDeskDayQuery } = dashboardApi;
