import { baseApi } from '../../../api/base-api';
import type {
  OutOfServiceInput,
  OutOfServiceTaken,
  PlanSeat,
  PlanSeatInput,
  SeatOutOfService,
  SeatsSet,
  StaffSeatPlan,
} from '../../../api/types';

/**
 * The staff's seat plan of a room (docs/product.md#seat-plans): its seats, their out-of-service
 * ranges, the CSV import and the plan image.
 */
export type { PlanSeat, PlanSeatInput, SeatOutOfService };
export type AdminSeatPlan = StaffSeatPlan;
/** The plan image's address (below the API's base, versioned) and type, or null: none. */
export type SeatPlanImage = StaffSeatPlan['image'];

export interface SeatOutOfServiceInput extends OutOfServiceInput {
  roomId: string;
  seatId: string;
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
export const seatPlanApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getStaffSeatPlan: build.query<AdminSeatPlan, string>({
      query: (roomId) => seatsPath(roomId),
      providesTags: (_result, _error, roomId) => [planTag(roomId)],
    }),
    /** Replaces the seats; 400 `validation__error` names the seat (`seats.N.label`). */
    setSeats: build.mutation<SeatsSet, { roomId: string; seats: PlanSeatInput[] }>({
      query: ({ roomId, seats }) => ({ url: seatsPath(roomId), method: 'PUT', body: { seats } }),
      invalidatesTags: (_result, _error, { roomId }) => [planTag(roomId)],
    }),
    /** Replaces the seats with the CSV's rows; refusals name the row (`seats.N.label`). */
    importSeatsCsv: build.mutation<SeatsSet, { roomId: string; csv: Blob }>({
      query: ({ roomId, csv }) => ({
        url: seatsCsvPath(roomId),
        method: 'PUT',
        body: new Blob([csv], { type: 'text/csv' }),
      }),
      invalidatesTags: (_result, _error, { roomId }) => [planTag(roomId)],
    }),
    takeSeatOutOfService: build.mutation<OutOfServiceTaken, SeatOutOfServiceInput>({
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
  useGetStaffSeatPlanQuery,
  useSetSeatsMutation,
  useImportSeatsCsvMutation,
  useTakeSeatOutOfServiceMutation,
  useReturnSeatToServiceMutation,
  useUpdateSeatPlanImageMutation,
  useDeleteSeatPlanImageMutation,
  useGetSeatQrSheetQuery,
} = seatPlanApi;
