import { baseApi } from '../../../api/base-api';
import type { components } from '../../../api/schema';

export type CheckInDay = components['schemas']['CheckInDay'];
export type CheckInRoom = components['schemas']['CheckInRoom'];
export type CheckInTicket = components['schemas']['CheckInTicket'];
export type CheckInResult = components['schemas']['CheckInResult'];
export type CheckInLookup = components['schemas']['CheckInLookup'];
export type CheckInLookupTicket = components['schemas']['CheckInLookupTicket'];

const DAY = { type: 'CheckIn', id: 'DAY' } as const;
const checkInPath = (id: string) => `admin/tickets/${encodeURIComponent(id)}/check-in`;

/** The check-in screen: today's tickets, check in, undo, check in by code. */
export const checkInApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['CheckIn', 'Ticket'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getCheckInDay: build.query<CheckInDay, void>({
        query: () => 'admin/check-in',
        providesTags: [DAY],
      }),
      checkIn: build.mutation<CheckInResult, string>({
        query: (id) => ({ url: checkInPath(id), method: 'POST' }),
        invalidatesTags: (_r, _e, id) => [DAY, { type: 'Ticket', id }],
      }),
      undoCheckIn: build.mutation<CheckInResult, string>({
        query: (id) => ({ url: checkInPath(id), method: 'DELETE' }),
        invalidatesTags: (_r, _e, id) => [DAY, { type: 'Ticket', id }],
      }),
      /** By the QR code's reference or a booking number of today. */
      checkInByCode: build.mutation<CheckInResult, string>({
        query: (code) => ({ url: 'admin/check-in', method: 'POST', body: { code } }),
        invalidatesTags: (r) => [DAY, ...(r ? [{ type: 'Ticket' as const, id: r.ticketId }] : [])],
      }),
      /** What a code names on any day (to explain a code that could not be checked in). */
      lookUpCode: build.query<CheckInLookup, string>({
        query: (code) => ({ url: 'admin/check-in/lookup', params: { code } }),
        keepUnusedDataFor: 0,
      }),
    }),
  });

export const {
  useGetCheckInDayQuery,
  useCheckInMutation,
  useUndoCheckInMutation,
  useCheckInByCodeMutation,
  useLazyLookUpCodeQuery,
} = checkInApi;
