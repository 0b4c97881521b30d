import { baseApi } from '../../../api/base-api';
import type { Display } from '../../../api/types';

/**
 * How often the display asks again (a change shows within 10 seconds). Polling, not
 * server-sent events: one small public GET every 5 seconds per screen needs no open connection
 * per screen, passes every proxy and the gateway unchanged, and survives a restart by itself.
 */
export const DISPLAY_POLLING_MS = 5_000;

export const displayApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** The rooms of the display: one room by its id, or every room for ''. */
    getDisplay: build.query<Display, string>({
      query: (roomId) => ({ url: 'display', params: roomId ? { roomId } : {} }),
    }),
  }),
});

export const { useGetDisplayQuery } = displayApi;
