import { baseApi } from '../../../api/base-api';
import type { components } from '../../../api/schema';

type Schemas = components['schemas'];

/** `GET rooms/{roomId}/seats/{seatId}/now`: the seat, the slot under way or next today, its state. */
export type SeatNow = Schemas['SeatNow'];
export type SeatCheckInInput = Schemas['SeatCheckInInput'];
export type SeatCheckInResult = Schemas['SeatCheckInResult'];
export type WalkInInput = Schemas['WalkInInput'];
export type WalkInResult = Schemas['WalkInResult'];

export interface SeatRef {
  roomId: string;
  seatId: string;
}

const enc = encodeURIComponent;
const seatPath = ({ roomId, seatId }: SeatRef) => `rooms/${enc(roomId)}/seats/${enc(seatId)}`;

/**
 * The seat's page (docs/product.md#at-the-seat): its endpoints are injected when its chunk loads,
 * so the visitor's first download does not carry them.
 */
export const seatPageApi = baseApi.enhanceEndpoints({ addTagTypes: ['SeatNow'] }).injectEndpoints({
  endpoints: (build) => ({
    getSeatNow: build.query<SeatNow, SeatRef>({
      query: (seat) => `${seatPath(seat)}/now`,
      providesTags: ['SeatNow'],
    }),
    checkInAtSeat: build.mutation<
      SeatCheckInResult,
      SeatRef & { body: SeatCheckInInput; undo?: boolean }
    >({
      query: ({ body, undo, ...seat }) => ({
        url: `${seatPath(seat)}/check-in${undo ? '/undo' : ''}`,
        method: 'POST',
        body,
      }),
    }),
    walkInAtSeat: build.mutation<
      WalkInResult,
      SeatRef & { body: WalkInInput; recaptchaToken?: string | undefined }
    >({
      query: ({ body, recaptchaToken, ...seat }) => ({
        url: `${seatPath(seat)}/walk-in`,
        method: 'POST',
        body,
        params: { 'g-recaptcha-response': recaptchaToken },
      }),
      invalidatesTags: ['SeatNow'],
    }),
  }),
});

export const { useGetSeatNowQuery, useCheckInAtSeatMutation, useWalkInAtSeatMutation } =
  seatPageApi;
