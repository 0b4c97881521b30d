import { baseApi } from '../../../api/base-api';
import type { Page, TimeSlot } from '../../../api/types';

/** docs/product.md#limits: maxTimeSlots. */
const MAX_TIME_SLOTS = 999;

export const adminOverbookedApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** docs/product.md#api: slots with more tickets than capacity from today, by date and start time. */
    getOverbookedSlots: build.query<Page<TimeSlot>, string>({
      query: (today) => ({
        url: 'admin/rooms/timeslots',
        params: {
          status: 'OVERBOOKED',
          fromDate: today,
          sort: 'date:ASC,startTime:ASC',
          limit: MAX_TIME_SLOTS,
          offset: 0,
        },
      }),
      providesTags: (result) => [
        { type: 'TimeSlot', id: 'LIST' },
        ...(result?.content.map((slot) => ({ type: 'TimeSlot' as const, id: slot.id })) ?? []),
      ],
    }),
  }),
});

export const { useGetOverbookedSlotsQuery } = adminOverbookedApi;
