import { baseApi } from '../../../api/base-api';
import type { Page, TimeSlot } from '../../../api/types';

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
  }),
});

export const { useGetOverbookedCountQuery } = dashboardApi;
