import type { SeatAttribute } from '@rr/contracts/seats';
import { baseApi } from '../../../api/base-api';

/**
 * The staff's seat plan of a room (docs/product.md#seat-plans): its seats, their out-of-service
 * ranges, the CSV import and the plan image. The shapes are the API's (docs/product.md#api).
 */
export interface PlanSeatInput {
  label: string;
  zone?: string | undefined;
  attributes: SeatAttribute[];
  notes?: string | undefined;
  x: number;
  y: number;
  rotation: number;
}

/** A seat of the plan as the API answers it (no zone or notes: null). */
export interface PlanSeat {
  id: string;
  label: string;
  zone: string | null;
  attributes: SeatAttribute[];
  notes: string | null;
  x: number;
  y: number;
  rotation: number;
}

export interface SeatOutOfService {
  id: string;
  seatId: string;
  /** YYYY-MM-DD, the first and the last day. */
  from: string;
  until: string;
  reason: string;
}

export interface AdminSeatPlan {
  seats: PlanSeat[];
  outOfService: SeatOutOfService[];
}

export interface SeatOutOfServiceInput {
  roomId: string;
  seatId: string;
  from: string;
  until: string;
  reason: string;
}

/** A seat's QR code for the printed sheet: the visitor page it opens and the code as SVG. */
export interface SeatQrCode {
  id: string;
  label: string;
  url: string;
  svg: string;
}

const seatsPath = (roomId: string) => `admin/rooms/${encodeURIComponent(roomId)}/seats`;
const planTag = (roomId: string) => ({ type: 'SeatPlan' as const, id: roomId });

/** The address of a room's seats as CSV (the export link; relative to the API base). */
export const seatsCsvPath = (roomId: string) => `${seatsPath(roomId)}.csv`;
/** The address of a room's plan image (relative to the API base), for `<img>` only. */
export const seatPlanImagePath = (roomId: string) =>
  `rooms/${encodeURIComponent(roomId)}/seat-plan/image`;

export const seatPlanApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getSeatPlan: build.query<AdminSeatPlan, string>({
      query: (roomId) => seatsPath(roomId),
      providesTags: (_result, _error, roomId) => [planTag(roomId)],
    }),
    /** Replaces the seats; 400 `validation__error` names the seat (`seats.N.label`). */
    setSeats: build.mutation<{ seats: PlanSeat[] }, { roomId: string; seats: PlanSeatInput[] }>({
      query: ({ roomId, seats }) => ({ url: seatsPath(roomId), method: 'PUT', body: { seats } }),
      invalidatesTags: (_result, _error, { roomId }) => [planTag(roomId)],
    }),
    /** Replaces the seats with the CSV's rows; refusals name the row (`seats.N.label`). */
    importSeatsCsv: build.mutation<{ seats: PlanSeat[] }, { roomId: string; csv: Blob }>({
      query: ({ roomId, csv }) => ({
        url: seatsCsvPath(roomId),
        method: 'PUT',
        body: new Blob([csv], { type: 'text/csv' }),
      }),
      invalidatesTags: (_result, _error, { roomId }) => [planTag(roomId)],
    }),
    takeSeatOutOfService: build.mutation<{ id: string }, SeatOutOfServiceInput>({
      query: ({ roomId, seatId, ...body }) => ({
        url: `${seatsPath(roomId)}/${encodeURIComponent(seatId)}/out-of-service`,
        method: 'POST',
        body,
      }),
      invalidatesTags: (_result, _error, { roomId }) => [planTag(roomId)],
    }),
    returnSeatToService: build.mutation<unknown, { roomId: string; id: string }>({
      query: ({ roomId, id }) => ({
        url: `${seatsPath(roomId)}/out-of-service/${encodeURIComponent(id)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { roomId }) => [planTag(roomId)],
    }),
    updateSeatPlanImage: build.mutation<unknown, { roomId: string; image: File }>({
      query: ({ roomId, image }) => {
        const body = new FormData();
        body.append('image', image);
        return {
          url: `admin/rooms/${encodeURIComponent(roomId)}/seat-plan/image`,
          method: 'PUT',
          body,
        };
      },
      invalidatesTags: (_result, _error, { roomId }) => [
        planTag(roomId),
        { type: 'Room', id: roomId },
      ],
    }),
    deleteSeatPlanImage: build.mutation<unknown, string>({
      query: (roomId) => ({
        url: `admin/rooms/${encodeURIComponent(roomId)}/seat-plan/image`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, roomId) => [planTag(roomId), { type: 'Room', id: roomId }],
    }),
    getSeatQrSheet: build.query<{ seats: SeatQrCode[] }, string>({
      query: (roomId) => `${seatsPath(roomId)}/qr-sheet`,
      providesTags: (_result, _error, roomId) => [planTag(roomId)],
    }),
  }),
});

export const {
  useGetSeatPlanQuery,
  useSetSeatsMutation,
  useImportSeatsCsvMutation,
  useTakeSeatOutOfServiceMutation,
  useReturnSeatToServiceMutation,
  useUpdateSeatPlanImageMutation,
  useDeleteSeatPlanImageMutation,
  useGetSeatQrSheetQuery,
} = seatPlanApi;
