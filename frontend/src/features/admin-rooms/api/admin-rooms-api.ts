import { baseApi } from '../../../api/base-api';
import type {
  CommandResult,
  ListQuery,
  Page,
  PositionResult,
  RoomCreate,
  RoomServicesInput,
  RoomUpdate,
  StaffRoom,
} from '../../../api/types';
import { MAX_ROOMS } from '../../../lib/constants';

/** docs/product.md#api: the room list load asks for up to maxRooms with offset 0. */
export const ADMIN_ROOM_LIST_QUERY: ListQuery = { limit: MAX_ROOMS, offset: 0, sort: 'order:ASC' };

const LIST = { type: 'Room', id: 'LIST' } as const;

const roomPath = (id: string) => `admin/rooms/${encodeURIComponent(id)}`;

export interface RoomImageUpdate {
  id: string;
  /** Omitted when only the alt text changes and an image exists. */
  image: File | null;
  alt: string;
  /** The alt text's English translation; empty or absent: none (the German serves both). */
  altEn?: string | undefined;
}

export const adminRoomsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAdminRooms: build.query<Page<StaffRoom>, ListQuery>({
      query: (params) => ({ url: 'admin/rooms', params }),
      providesTags: (result) => [
        LIST,
        ...(result?.content.map((room) => ({ type: 'Room' as const, id: room.id })) ?? []),
      ],
    }),
    getAdminRoom: build.query<StaffRoom, string>({
      query: (id) => roomPath(id),
      providesTags: (_result, _error, id) => [{ type: 'Room', id }],
    }),
    createRoom: build.mutation<CommandResult, RoomCreate>({
      query: (body) => ({ url: 'admin/rooms', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    /** 409 `concurrency__version_conflict` when `version` is stale; the room is then reloaded. */
    updateRoom: build.mutation<CommandResult, { id: string; room: RoomUpdate }>({
      query: ({ id, room }) => ({ url: roomPath(id), method: 'PUT', body: room }),
      invalidatesTags: (_result, _error, { id }) => [LIST, { type: 'Room', id }],
    }),
    /**
     * 409 `room__has_active_reservations`, payload `seats`, total, booked, held, the last hold's
     * end.
     */
    deleteRoom: build.mutation<PositionResult, string>({
      query: (id) => ({ url: roomPath(id), method: 'DELETE' }),
      // Only the list: the deleted room's own query would answer 404.
      invalidatesTags: (result) => (result ? [LIST] : []),
    }),
    /** Moves a room to a new 0-based position in the manual order. */
    moveRoom: build.mutation<PositionResult, { id: string; order: number }>({
      query: ({ id, order }) => ({ url: `${roomPath(id)}/order/${order}`, method: 'PUT' }),
      invalidatesTags: [LIST],
    }),
    updateRoomImage: build.mutation<PositionResult, RoomImageUpdate>({
      query: ({ id, image, alt, altEn }) => {
        const body = new FormData();
        if (image) body.append('image', image);
        body.append('alt', alt);
        body.append('altEn', altEn ?? '');
        return { url: `${roomPath(id)}/image`, method: 'PUT', body };
      },
      invalidatesTags: (_result, _error, { id }) => [LIST, { type: 'Room', id }],
    }),
    /** The room's reading-room services; a null turns one off. */
    updateRoomServices: build.mutation<CommandResult, { id: string; services: RoomServicesInput }>({
      query: ({ id, services }) => ({
        url: `${roomPath(id)}/services`,
        method: 'PUT',
        body: services,
      }),
      invalidatesTags: (_result, _error, { id }) => [LIST, { type: 'Room', id }],
    }),
    deleteRoomImage: build.mutation<PositionResult, string>({
      query: (id) => ({ url: `${roomPath(id)}/image`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [LIST, { type: 'Room', id }],
    }),
  }),
});

export const {
  useGetAdminRoomsQuery,
  useGetAdminRoomQuery,
  useCreateRoomMutation,
  useUpdateRoomMutation,
  useUpdateRoomServicesMutation,
  useDeleteRoomMutation,
  useMoveRoomMutation,
  useUpdateRoomImageMutation,
  useDeleteRoomImageMutation,
} = adminRoomsApi;
